/** The owner's console API, /api/admin/* (./routes/index.ts), under the API's rate limit. */
import type { FastifyInstance } from 'fastify';
import type { OrderServices } from '../checkout';
import { countAgainstApiLimit } from '../http/apiLimit';
import { adminRoutes } from './routes';

export { dashboard, periodOf } from './reports';
export { periodChecked } from './routes/periodChecked';

/** Registers /api/admin/*; `nudgeOutbox` sends a re-sent mail now. */
export async function adminPlugin(app: FastifyInstance, options: OrderServices & { nudgeOutbox: () => void }): Promise<void> {
  countAgainstApiLimit(app);
  await app.register(adminRoutes, options);
}
