/**
 * The owner's actions on one order besides the refund: re-send the confirmation, a sign-in link, cancel. A
 * cancellation runs through the one lifecycle, as the buyer's on /account does.
 */
import { randomUUID } from 'node:crypto';
import type { OrderAction } from '../../src/contract/admin';
import { cancelAtPeriodEnd } from '../account';
import { outbox } from '../db/schema';
import { applyPaymentEvents } from '../checkout';
import { findOrder, isPaidOrder, type OrderContext } from '../checkout';

export type OrderActionRefusal = 'unknown_order' | 'not_paid' | 'ended';

/**
 * Mails are queued (the caller nudges the outbox); a repeated re-send queues another. @throws on provider or database
 * failure.
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
