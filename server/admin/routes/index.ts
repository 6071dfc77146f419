/**
 * The owner's console API, /api/admin/* (docs/decisions/0018-owner-console.md), one file per resource: the
 * session (sign-in, sign-out, who), orders, referrers, mail (and its re-send), the dashboard, the offer's content, the tax report. Every route but sign-in and sign-out
 * answers 401 `{ error }` without a signed-in owner who still exists. Sessions: server/sessions/ (decision 0022);
 * a cross-site state-changing request never gets here (server/sessions/sameOrigin.ts).
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

/** Registers /api/admin/*; `nudgeOutbox` sends the outbox now (a re-sent mail). */
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
