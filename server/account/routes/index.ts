/**
 * The buyer's manage page API, /api/account/* (issue: after the purchase), one file per resource: the session
 * (./session.ts: a link by email, the session it opens, the subscription as the page shows it, sign-out) and the
 * subscription's changes (./subscription.ts: new credentials, cancel and undo, seats, card, the provider's portal).
 * Sessions are kept on the server (server/sessions/, decision 0022): httpOnly, SameSite=Strict cookie for
 * /api/account, an hour idle, ACCOUNT_SESSION_MAX_HOURS at most. A cross-site state-changing request never gets
 * here (server/sessions/sameOrigin.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { OrderServices } from '../../checkout';
import { accountRouteOptions } from './options';
import { accountSessionRoutes } from './session';
import { accountSubscriptionRoutes } from './subscription';

/** Registers /api/account/*. */
export async function accountRoutes(app: FastifyInstance, services: OrderServices & { nudgeOutbox: () => void }): Promise<void> {
  const options = accountRouteOptions(services);
  await app.register(accountSessionRoutes, options);
  await app.register(accountSubscriptionRoutes, options);
}
