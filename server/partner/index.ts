/** The referrer's own page API, /api/partner/* (./routes.ts), under the API's rate limit. */
import type { FastifyInstance } from 'fastify';
import type { OrderServices } from '../checkout';
import { countAgainstApiLimit } from '../http/apiLimit';
import { partnerRoutes } from './routes';

/** Registers /api/partner/*; `nudgeOutbox` sends a sign-in link now. */
export async function partnerPlugin(app: FastifyInstance, options: OrderServices & { nudgeOutbox: () => void }): Promise<void> {
  countAgainstApiLimit(app);
  await app.register(partnerRoutes, options);
}
