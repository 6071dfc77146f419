/**
 * The buyer asks for the guarantee's refund on /account (docs/decisions/0068). The ask moves no money: the refund
 * stays the owner's act from the console (docs/decisions/0042).
 */
import { eq, sql } from 'drizzle-orm';
import { isWithinRefundGuarantee } from '../../src/domain/refunds';
import { orders } from '../db/schema';
import { isPaidOrder, type Order, type OrderContext } from './order';

export type RefundAskRefusal =
  | 'ended'
  /** More than REFUND_GUARANTEE_DAYS after the first payment. */
  | 'window_closed'
  | 'nothing_refundable';

type RefundAskResult = { ok: true; order: Order } | { ok: false; refusal: RefundAskRefusal };

/**
 * `refundableCents` in cents, as the provider counts it. The first ask stands: a repeat mails nothing again.
 * @throws database errors (nothing is recorded, nothing mailed).
 */
export async function recordRefundAsk(
  context: Pick<OrderContext, 'db' | 'listeners' | 'log'>,
  {
    transactionId,
    refundableCents,
    reason,
    now = new Date(),
  }: { transactionId: string; refundableCents: number; reason: string | null; now?: Date },
): Promise<RefundAskResult> {
  const result = await context.db.transaction(async (tx): Promise<RefundAskResult> => {
    const [order] = await tx.select().from(orders).where(eq(orders.transactionId, transactionId)).for('update');
    if (!order?.paidAt || !isPaidOrder(order)) return { ok: false, refusal: 'ended' };
    if (order.refundAskedAt) return { ok: true, order };
    if (!isWithinRefundGuarantee(order.paidAt, now)) return { ok: false, refusal: 'window_closed' };
    if (!Number.isInteger(refundableCents) || refundableCents <= 0) return { ok: false, refusal: 'nothing_refundable' };
    const [asked] = await tx
      .update(orders)
      .set({ refundAskedAt: now, refundAskedCents: refundableCents, updatedAt: sql`now()` })
      .where(eq(orders.transactionId, transactionId))
      .returning();
    if (!asked) throw new Error(`Order ${transactionId} was not updated`);
    await context.listeners.announce(tx, 'ownerNotice', {
      kind: 'refund_asked',
      transactionId,
      changeId: 'buyer',
      amountCents: refundableCents,
      reason,
    });
    await context.listeners.announce(tx, 'orderEvent', { kind: 'refund_asked', transactionId, amountCents: refundableCents });
    return { ok: true, order: asked };
  });
  if (result.ok && result.order.refundAskedAt?.getTime() === now.getTime())
    context.log.info({ transactionId, amountCents: refundableCents }, 'The buyer asked for the guarantee’s refund');
  return result;
}
