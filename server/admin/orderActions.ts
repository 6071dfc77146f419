/**
 * What the owner does to one order from the console, besides the refund (server/checkout/refundOrder.ts):
 * re-send the order's confirmation mail, mail the buyer a sign-in link to /account, cancel at the end of the paid
 * period or now. Mail goes through the outbox; a cancellation asks the provider through the PaymentProvider
 * interface and runs its answer through the one lifecycle (server/checkout/applyPaymentEvent.ts), as the buyer's
 * own cancellation on /account does (server/account/manageSubscription.ts).
 */
import { randomUUID } from 'node:crypto';
import type { OrderAction } from '../../src/contract/admin';
import { cancelAtPeriodEnd } from '../account';
import { outbox } from '../db/schema';
import { applyPaymentEvents } from '../checkout';
import { findOrder, isPaidOrder, type OrderContext } from '../checkout';

/** Why an action was refused: the route maps each to a status and a message. */
export type OrderActionRefusal = 'unknown_order' | 'not_paid' | 'ended';

/**
 * Runs `action` on the order of `transactionId`. Mails are queued (the caller nudges the outbox); a cancellation
 * is done when this resolves. A repeated re-send queues another mail (the owner asked twice).
 * @returns ok, or why not: an unknown order, an order never paid (no mail to re-send, no account), or a
 * subscription that has already ended (nothing to cancel). @throws on provider or database failure.
 */
export async function runOrderAction(
  context: OrderContext,
  transactionId: string,
  action: OrderAction,
): Promise<{ ok: true } | { ok: false; refusal: OrderActionRefusal }> {
  const order = await findOrder(context.db, transactionId);
  if (!order) return { ok: false, refusal: 'unknown_order' };
  if (!order.paidAt) return { ok: false, refusal: 'not_paid' };
  switch (action) {
    case 'resend_confirmation':
    case 'send_sign_in_link': {
      const topic = action === 'resend_confirmation' ? 'order_confirmation' : 'account_link';
      const payload: Record<string, string> = action === 'resend_confirmation' ? { event: 'activated' } : {};
      await context.db
        .insert(outbox)
        .values({ kind: 'mail', topic, dedupeKey: `mail:${topic}:${transactionId}:console:${randomUUID()}`, transactionId, payload });
      return { ok: true };
    }
    case 'cancel_at_period_end': {
      const result = await cancelAtPeriodEnd(context, order, undefined);
      return result.ok ? { ok: true } : { ok: false, refusal: 'ended' };
    }
    case 'cancel_now': {
      if (!isPaidOrder(order)) return { ok: false, refusal: 'ended' };
      const result = await context.provider.endNow(order.subscriptionId, `${transactionId}:end-now:${randomUUID()}`);
      if (!result.ok) return { ok: false, refusal: 'ended' };
      await applyPaymentEvents(context, result.events);
      return { ok: true };
    }
  }
}
