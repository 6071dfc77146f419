/**
 * The owner refunds an order from the console: everything within REFUND_GUARANTEE_DAYS of the first payment, after
 * that only a named part. The subscription ends at once; the provider's answer runs through the one lifecycle.
 */
import { and, eq, sql } from 'drizzle-orm';
import { isWithinRefundGuarantee } from '../../src/domain/refunds';
import { refundRequests } from '../db/schema';
import { applyPaymentEvents } from './applyPaymentEvent';
import { findOrder, type Order, type OrderContext } from './order';

export type RefundRefusal =
  | 'unknown_order'
  | 'not_paid'
  /** After the guarantee window a refund names its amount. */
  | 'amount_required'
  | 'amount_too_high'
  | 'in_progress'
  | 'key_reused';

type RefundResult = { ok: true; order: Order } | { ok: false; refusal: RefundRefusal };

/**
 * `amountCents` undefined: everything left. @throws provider and database errors: the request is marked failed; a
 * refund the provider did make reaches the order through its webhook.
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

/** The same key after a failure runs under its own row, so the provider sees the same idempotency key. */
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
