import type { FastifyInstance } from 'fastify';
import type { OrderServices } from '../checkout';
import { countAgainstApiLimit } from '../http/apiLimit';
import { partnerRoutes } from './routes';

export async function partnerPlugin(app: FastifyInstance, options: OrderServices & { nudgeOutbox: () => void }): Promise<void> {
  countAgainstApiLimit(app);
  await app.register(partnerRoutes, options);
}
