/**
 * The owner refunds an order from the console. The offer promises a money-back guarantee
 * and a 30-day AI Challenge: within REFUND_GUARANTEE_DAYS of the first payment the owner refunds everything paid
 * (or a part of it); after that only a part, named in cents, never more than was paid and not yet refunded.
 * Either way the subscription ends at once (PaymentProvider.refund with `endNow`), and the provider's answer runs
 * through the one lifecycle (./applyPaymentEvent.ts → ./subscriptionLifecycle.ts): the order 'cancelled' with
 * its refunded amount, the buyer's mail, the agreement site's `subscription.refunded` webhook, a 'refunded' funnel
 * event. One refund at a time per order: a second request while one runs is refused (a unique partial index on
 * refund_requests), so two clicks cannot refund twice. A retry of the same refund (the console sends its
 * `requestKey` again after a failure) runs under the same request, so the provider's idempotency key is the same
 * and nothing is refunded twice.
 */
import { and, eq, sql } from 'drizzle-orm';
import { isWithinRefundGuarantee } from '../../src/domain/refunds';
import { refundRequests } from '../db/schema';
import { applyPaymentEvents } from './applyPaymentEvent';
import { findOrder, type Order, type OrderContext } from './order';

/** Why a refund was refused; the console's route maps each to a status and a message. */
export type RefundRefusal =
  | 'unknown_order'
  /** The order was never paid: there is nothing to refund. */
  | 'not_paid'
  /** After the guarantee window a refund names its amount. */
  | 'amount_required'
  /** More than was paid and not yet refunded (or not a positive number of cents). */
  | 'amount_too_high'
  /** Another refund of this order is running. */
  | 'in_progress'
  /** The request's key was used for a refund of another amount. */
  | 'key_reused';

type RefundResult = { ok: true; order: Order } | { ok: false; refusal: RefundRefusal };

/**
 * Refunds `amountCents` of the order `transactionId` (undefined: everything left, within the guarantee window)
 * and ends its subscription, for the owner `ownerId`.
 * @throws provider and database errors: the request is marked failed, nothing is recorded on the order (a
 * refund the provider did make reaches the order through its webhook, or the next refund's idempotent repeat).
 */
export async function refundOrder(
  context: OrderContext,
  {
    transactionId,
    amountCents,
    ownerId,
    requestKey,
    now = new Date(),
  }: { transactionId: string; amountCents?: number; ownerId: string; requestKey?: string; now?: Date },
): Promise<RefundResult> {
  const order = await findOrder(context.db, transactionId);
  if (!order) return { ok: false, refusal: 'unknown_order' };
  if (!order.paidAt) return { ok: false, refusal: 'not_paid' };
  const withinGuarantee = isWithinRefundGuarantee(order.paidAt, now);
  if (amountCents === undefined && !withinGuarantee) return { ok: false, refusal: 'amount_required' };
  if (amountCents !== undefined && (!Number.isInteger(amountCents) || amountCents <= 0)) return { ok: false, refusal: 'amount_too_high' };

  const request = await openRequest(context, { transactionId, amountCents: amountCents ?? 0, ownerId, requestKey });
  if ('refusal' in request) return { ok: false, refusal: request.refusal };
  if (request.done) return { ok: true, order };
  const finish = (status: 'succeeded' | 'failed') =>
    context.db
      .update(refundRequests)
      .set({ status, updatedAt: sql`now()` })
      .where(and(eq(refundRequests.id, request.id), eq(refundRequests.status, 'pending')));
  try {
    const refunded = await context.provider.refund({
      subscriptionId: order.subscriptionId,
      amountCents: amountCents ?? 'all',
      endNow: true,
      idempotencyKey: `${transactionId}:refund:${request.id}`,
    });
    if (!refunded.ok) {
      await finish('failed');
      return { ok: false, refusal: refunded.refusal === 'amount_too_high' ? 'amount_too_high' : 'not_paid' };
    }
    await applyPaymentEvents(context, refunded.events);
    await finish('succeeded');
    context.log.info({ transactionId, ownerId, amountCents: amountCents ?? 'all' }, 'Order refunded from the console');
    return { ok: true, order: (await findOrder(context.db, transactionId)) ?? order };
  } catch (error) {
    await finish('failed');
    throw error;
  }
}

/**
 * The request row this refund runs under. A new key (or none) is a new request. The same key again is the same
 * request: after a failure it runs again under its own row (so the provider sees the same idempotency key and
 * refunds nothing twice); after a success it is done. One pending request per order (a unique partial index).
 */
async function openRequest(
  context: OrderContext,
  input: { transactionId: string; amountCents: number; ownerId: string; requestKey?: string },
): Promise<{ id: string; done: boolean } | { refusal: RefundRefusal }> {
  const { transactionId, amountCents, ownerId, requestKey } = input;
  if (requestKey) {
    const [earlier] = await context.db
      .select()
      .from(refundRequests)
      .where(and(eq(refundRequests.transactionId, transactionId), eq(refundRequests.requestKey, requestKey)));
    if (earlier) {
      if (earlier.amountCents !== amountCents) return { refusal: 'key_reused' };
      if (earlier.status === 'succeeded') return { id: earlier.id, done: true };
      if (earlier.status === 'pending') return { refusal: 'in_progress' };
      try {
        const [again] = await context.db
          .update(refundRequests)
          .set({ status: 'pending', updatedAt: sql`now()` })
          .where(and(eq(refundRequests.id, earlier.id), eq(refundRequests.status, 'failed')))
          .returning({ id: refundRequests.id });
        return again ? { id: again.id, done: false } : { refusal: 'in_progress' };
      } catch {
        // Another request of this order is pending (the one-pending index).
        return { refusal: 'in_progress' };
      }
    }
  }
  const [request] = await context.db
    .insert(refundRequests)
    .values({ transactionId, amountCents, requestedBy: ownerId, requestKey: requestKey ?? null })
    .onConflictDoNothing()
    .returning({ id: refundRequests.id });
  return request ? { id: request.id, done: false } : { refusal: 'in_progress' };
}
