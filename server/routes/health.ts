/** GET /healthz: 200 `{ status: 'ok' }` when the database answers `select 1`, else 503 (for load balancers). */
import type { FastifyPluginAsync } from 'fastify';
import { pingDatabase } from '../db/client';
import { HttpError } from '../http/httpError';
import type { OrderServices } from '../orders/orderContext';

export const healthRoute: FastifyPluginAsync<OrderServices> = async (app, { db }) => {
  app.get('/healthz', async (request) => {
    try {
      await pingDatabase(db);
    } catch (error) {
      request.log.error({ err: error }, 'Health check: the database did not answer');
      throw new HttpError(503, 'Database unavailable');
    }
    return { status: 'ok' };
  });
};
