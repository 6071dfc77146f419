/**
 * The checkout's calls (spec §7), all under the API's rate limit: POST /api/create-anon-subscription-intent,
 * /api/update-anon-subscription-intent, /api/finalize-anon-subscription, /api/finalize-return, and
 * /api/handoff/redeem (the success site's one trade of the hand-off token) and /api/agreement/signed (its report of a
 * signed agreement, docs/decisions/0063).
 */
import type { FastifyInstance } from 'fastify';
import { countAgainstApiLimit } from '../http/apiLimit';
import type { ReferralLinks } from '../referrals/referralLinks';
import type { OrderServices } from './order';
import { agreementSignedRoute } from './routes/agreementSigned';
import { createIntentRoute } from './routes/createIntent';
import { finalizeRoute } from './routes/finalize';
import { finalizeReturnRoute } from './routes/finalizeReturn';
import { handoffRedeemRoute } from './routes/handoffRedeem';
import { updateIntentRoute } from './routes/updateIntent';
import { locateRoute } from './routes/locate';

export { paymentEventRunner } from './applyPaymentEvent';
export { isPaidOrder, type Order, type OrderServices } from './order';
export {
  orderListeners,
  type OrderAnnouncements,
  type OrderEvent,
  type OrderListener,
  type OrderListeners,
  type OwnerNotice,
} from './orderListeners';

/** Registers the checkout's calls; `referrals` attributes a new checkout, `nudgeOutbox` sends its mail now. */
export async function checkoutPlugin(
  app: FastifyInstance,
  { referrals, nudgeOutbox, ...services }: OrderServices & { referrals: ReferralLinks; nudgeOutbox: () => void },
): Promise<void> {
  countAgainstApiLimit(app);
  await app.register(createIntentRoute, { ...services, referrals });
  await app.register(updateIntentRoute, services);
  await app.register(locateRoute, services);
  await app.register(finalizeRoute, { ...services, nudgeOutbox });
  await app.register(finalizeReturnRoute, { ...services, nudgeOutbox });
  await app.register(handoffRedeemRoute, services);
  await app.register(agreementSignedRoute, services);
}
