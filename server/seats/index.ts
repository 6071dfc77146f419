/**
 * The buyer's team and the invitee's join, /api/account/team/* and /api/join/* (./routes.ts), under the API's rate
 * limit; and what the /join page shows for its link (`joinPageAnswers`, given to the site by server/app.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { OrderListener, OrderServices } from '../checkout';
import type { Config } from '../config';
import { countAgainstApiLimit } from '../http/apiLimit';
import type { OutboxMailParts } from '../outbox';
import { freeSeatsOf, invitationOf } from './invitationMail';
import { teamRoutes } from './routes';
import { applySeatLifecycle, type EndSignIns } from './seats';

export { claimedSeat, seatOneGivenAway } from './people';
export { joinPageAnswers } from './routes';
export { seatsInUse, seatsInUseMessage, seatsOf, seatView } from './seats';

/**
 * What the team hears: the subscription ended or its seats changed (./seats.ts, applySeatLifecycle); a revoked
 * seat's sign-ins end with `endSignIns`, which the sign-in hands in.
 */
export function seatsListener(config: Pick<Config, 'SUCCESS_SITE_WEBHOOK_URL'>, endSignIns: EndSignIns): OrderListener {
  return { teamChanged: (tx, change) => applySeatLifecycle(tx, { config, endSignIns }, change) };
}

/** The team's mail: an invitation's recipient and /join link, minted when it is sent, and an order's free seats. */
export function seatsMail(): Pick<OutboxMailParts, 'invitations'> {
  return { invitations: { invitationOf, freeSeatsOf } };
}

/**
 * Registers the team's and the join page's calls; `nudgeOutbox` sends an invitation now, `endSignIns` (the
 * sign-in's) ends a person's sign-ins when their seat is revoked or seat 1 is claimed.
 */
export async function seatsPlugin(
  app: FastifyInstance,
  options: OrderServices & { nudgeOutbox: () => void; endSignIns: EndSignIns },
): Promise<void> {
  countAgainstApiLimit(app);
  await app.register(teamRoutes, options);
}
