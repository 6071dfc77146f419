import type { FastifyInstance } from 'fastify';
import type { OrderServices } from '../checkout';
import { countAgainstApiLimit } from '../http/apiLimit';
import { adminRoutes } from './routes';

export { dashboard, periodOf } from './reports';
export { periodChecked } from './routes/periodChecked';

export async function adminPlugin(app: FastifyInstance, options: OrderServices & { nudgeOutbox: () => void }): Promise<void> {
  countAgainstApiLimit(app);
  await app.register(adminRoutes, options);
}
