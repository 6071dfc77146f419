/**
 * The manage page API, /api/account/*: the session (./session.ts) and the subscription's changes (./subscription.ts).
 * Sessions: server/sessions/ (docs/decisions/0022), an hour idle.
 */
import type { FastifyInstance } from 'fastify';
import type { OrderServices } from '../../checkout';
import { accountRouteOptions } from './options';
import { accountSessionRoutes } from './session';
import { accountSubscriptionRoutes } from './subscription';

export async function accountRoutes(app: FastifyInstance, services: OrderServices & { nudgeOutbox: () => void }): Promise<void> {
  const options = accountRouteOptions(services);
  await app.register(accountSessionRoutes, options);
  await app.register(accountSubscriptionRoutes, options);
}
