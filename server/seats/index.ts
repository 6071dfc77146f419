/**
 * The team and the invitee's join (/api/account/team/*, /api/join/*) under the API's rate limit, and what the /join
 * page shows.
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
 * The team follows the subscription; a revoked seat's sign-ins end through `endSignIns`, which the sign-in hands in.
 */
export function seatsListener(config: Pick<Config, 'SUCCESS_SITE_WEBHOOK_URL'>, endSignIns: EndSignIns): OrderListener {
  return { teamChanged: (tx, change) => applySeatLifecycle(tx, { config, endSignIns }, change) };
}

export function seatsMail(): Pick<OutboxMailParts, 'invitations'> {
  return { invitations: { invitationOf, freeSeatsOf } };
}

export async function seatsPlugin(
  app: FastifyInstance,
  options: OrderServices & { nudgeOutbox: () => void; endSignIns: EndSignIns },
): Promise<void> {
  countAgainstApiLimit(app);
  await app.register(teamRoutes, options);
}
