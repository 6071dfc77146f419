/**
 * The owner's console API (docs/decisions/0018), one file per resource, the tax report among them. Every route but
 * sign-in and sign-out answers 401 without a signed-in owner who still exists.
 */
import type { FastifyInstance } from 'fastify';
import type { OrderServices } from '../../checkout';
import { ownerSessionRules, sessionKeeper } from '../../sessions/sessions';
import { adminContentRoutes } from './content';
import { adminCommissionRoutes } from './commissions';
import { adminDashboardRoutes } from './dashboard';
import { adminMailRoutes } from './mail';
import { adminOrderRoutes } from './orders';
import { adminReferrerRoutes } from './referrers';
import { adminRefundRoutes } from './refunds';
import { adminSessionRoutes, signedInOwner } from './session';
import { adminTaxRoutes } from './tax';

export async function adminRoutes(
  app: FastifyInstance,
  { nudgeOutbox, ...services }: OrderServices & { nudgeOutbox: () => void },
): Promise<void> {
  const { db, config } = services;
  const ownerSessions = sessionKeeper(db, config, ownerSessionRules(config));
  await app.register(adminSessionRoutes, { db, config, ownerSessions });
  await app.register(async (owned) => {
    owned.addHook('preHandler', async (request) => {
      await signedInOwner(db, ownerSessions, request);
    });
    await owned.register(adminOrderRoutes, { ...services, nudgeOutbox });
    await owned.register(adminRefundRoutes, { ...services, ownerOf: (request) => signedInOwner(db, ownerSessions, request) });
    await owned.register(adminReferrerRoutes, { db, config });
    await owned.register(adminMailRoutes, { db, config, nudgeOutbox });
    await owned.register(adminDashboardRoutes, { db, provider: services.provider, config });
    await owned.register(adminContentRoutes, { db });
    await owned.register(adminTaxRoutes, { db });
    await owned.register(adminCommissionRoutes, {
      ...services,
      nudgeOutbox,
      ownerOf: (request) => signedInOwner(db, ownerSessions, request),
    });
  });
}
