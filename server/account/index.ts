/** The buyer's manage page API, /api/account/* (./routes/index.ts), under the API's rate limit. */
import type { FastifyInstance } from 'fastify';
import type { OrderServices } from '../checkout';
import { countAgainstApiLimit } from '../http/apiLimit';
import { accountRoutes } from './routes';

export { accountRouteOptions, SIGN_IN_AGAIN } from './routes/options';

/** Registers /api/account/*; `nudgeOutbox` sends the mail a change causes now. */
export async function accountPlugin(app: FastifyInstance, options: OrderServices & { nudgeOutbox: () => void }): Promise<void> {
  countAgainstApiLimit(app);
  await app.register(accountRoutes, options);
}
