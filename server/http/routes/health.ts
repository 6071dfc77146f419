/**
 * GET /healthz: 200 when the database answers, else 503. With Stripe, the webhook events' API version against the
 * pinned one: a mismatch means payloads the handlers may not read (docs/operations.md).
 */
import type { FastifyPluginAsync } from 'fastify';
import { pingDatabase } from '../../db/client';
import { HttpError } from '../httpError';
import type { Database } from '../../db/client';

export interface WebhookStatus {
  apiVersion?: { expected: string; lastReceived: string | null; matches: boolean };
}

interface HealthOptions {
  db: Database;
  webhookStatus: WebhookStatus;
}

export const healthRoute: FastifyPluginAsync<HealthOptions> = async (app, { db, webhookStatus }) => {
  app.get('/healthz', async (request) => {
    try {
      await pingDatabase(db);
    } catch (error) {
      request.log.error({ err: error }, 'Health check: the database did not answer');
      throw new HttpError(503, 'Database unavailable');
    }
    return webhookStatus.apiVersion ? { status: 'ok', stripeWebhook: { apiVersion: webhookStatus.apiVersion } } : { status: 'ok' };
  });
};
