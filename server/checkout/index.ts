/** The checkout's calls (spec §7), all under the API's rate limit. */
import type { FastifyInstance } from 'fastify';
import { countAgainstApiLimit } from '../http/apiLimit';
import type { ReferralLinks } from '../referrals';
import type { OrderServices } from './order';
import { createIntentRoute } from './routes/createIntent';
import { finalizeRoute } from './routes/finalize';
import { finalizeReturnRoute } from './routes/finalizeReturn';
import { updateIntentRoute } from './routes/updateIntent';
import { locateRoute } from './routes/locate';

export { paymentEventRunner } from './applyPaymentEvent';
export { isPaidOrder, type Order, type OrderServices } from './order';
export { recordRefundAsk, type RefundAskRefusal } from './refundAsk';
export {
  orderListeners,
  type MoneyChanges,
  type OrderAnnouncements,
  type OrderEvent,
  type OrderListener,
  type OrderListeners,
  type OwnerNotice,
} from './orderListeners';
export { applyPaymentEvents } from './applyPaymentEvent';
export { findOrder, type OrderContext } from './order';
export { startReconciliation } from './reconcileOrders';
export { refundOrder, type RefundRefusal } from './refundOrder';

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
}
