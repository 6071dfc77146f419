/**
 * The buyer asks for the guarantee's refund on /account (docs/decisions/0068): the offer's money-back guarantee
 * and 30-day AI Challenge (spec §9 FAQ) let the buyer have everything back within REFUND_GUARANTEE_DAYS of the first
 * payment. The ask is recorded on the order once, with what would come back then; the owners are mailed and the
 * buyer gets a receipt (both through the one outbox, announced as the lifecycle announces its changes). The refund
 * itself stays the owner's act from the console (./refundOrder.ts, docs/decisions/0042): the ask moves no money.
 */
import { eq, sql } from 'drizzle-orm';
import { isWithinRefundGuarantee } from '../../src/domain/refunds';
import { orders } from '../db/schema';
import { isPaidOrder, type Order, type OrderContext } from './order';

/** Why an ask was refused; the manage page's route answers each in words. */
export type RefundAskRefusal =
  /** No subscription the buyer still holds (never paid, or ended). */
  | 'ended'
  /** More than REFUND_GUARANTEE_DAYS after the first payment. */
  | 'window_closed'
  /** Everything paid was already refunded (or nothing was paid). */
  | 'nothing_refundable';

type RefundAskResult = { ok: true; order: Order } | { ok: false; refusal: RefundAskRefusal };

/**
 * Records that the buyer of `transactionId` asks for the guarantee's refund of `refundableCents` (what is left to
 * refund of their payments now, in cents, as the provider counts it: src/domain/refunds.ts refundableCents), with
 * their `reason`. The first ask stands: a repeat (a retry, a second tab) answers the order as it is and mails
 * nothing again. Owners and buyer are mailed in the same transaction as the record.
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
