/**
 * Writes the record of tax collected (./tables.ts, docs/decisions/0074) from what the one lifecycle announces, in
 * its transaction and under the order's row lock (server/checkout/orderListeners.ts, decision 0061):
 *
 * - the first payment, each paid renewal and each paid proration of a taxed order: its amount before tax and its
 *   tax, keyed by the provider's invoice, so a repeated event records once;
 * - a payment whose money went back or came back (a refund, a failed refund): the record is brought in line with
 *   the refund's split the checkout keeps (order_refunds: refunded and its tax share, src/domain/tax.ts
 *   refundedTaxCents), one row of the difference, keyed by the payment and the provider's event. A dispute moves no
 *   tax: its money is the card network's to settle, not a refund.
 *
 * An untaxed order (no tax state) records nothing: the report is of the states the owner files in.
 */
import { and, eq, or, sql, type SQL } from 'drizzle-orm';
import type { MoneyChanges, OrderAnnouncements } from '../checkout';
import type { Transaction } from '../db/client';
import { orderRefunds, taxRecords } from '../db/schema';

type Order = OrderAnnouncements['firstPaid']['order'];

/** The provider's billing clock's now (the sandbox's clock), else the database's. */
const nowOn = (clock: SQL | undefined): SQL => clock ?? sql`now()`;

/**
 * Records a paid invoice of a taxed `order`: `amountCents` before tax and `taxCents`, in cents.
 * @throws database errors (the lifecycle's change rolls back with it).
 */
async function recordPayment(
  tx: Transaction,
  order: Order,
  paid: { invoiceId: string; paymentId: string | null; amountCents: number; taxCents: number },
  clock: SQL | undefined,
): Promise<void> {
  if (order.taxState === null) return;
  await tx
    .insert(taxRecords)
    .values({
      recordKey: `payment:${paid.invoiceId}`,
      kind: 'payment',
      transactionId: order.transactionId,
      invoiceId: paid.invoiceId,
      paymentId: paid.paymentId ?? paid.invoiceId,
      taxState: order.taxState,
      amountCents: paid.amountCents,
      taxCents: paid.taxCents,
      occurredAt: nowOn(clock),
    })
    .onConflictDoNothing({ target: taxRecords.recordKey });
}

/** The first payment: `invoice.amountCents` is before tax; its tax is the order's confirmed tax (decision 0071). */
export function recordFirstPayment(tx: Transaction, { order, invoice, clock }: OrderAnnouncements['firstPaid']): Promise<void> {
  return recordPayment(tx, order, { ...invoice, taxCents: order.taxCents }, clock);
}

/**
 * A renewal or proration paid (what was paid, tax included, less its tax), and the refunds' splits of every
 * payment whose money moved, keyed by `changeId` (the provider's event).
 * @throws database errors.
 */
export async function recordMoneyChanged(
  tx: Transaction,
  { order, changes, clock, changeId }: OrderAnnouncements['moneyChanged'],
): Promise<void> {
  for (const paid of [changes.paidRenewal, changes.paidProration]) {
    if (paid) await recordPayment(tx, order, { ...paid, amountCents: paid.amountCents - paid.taxCents }, clock);
  }
  for (const moved of changes.moneyMoved) await settleRefunds(tx, order, moved, changeId, clock);
}

/**
 * Brings the refund rows of `moved.paymentId` in line with the split the checkout recorded for it: a row of the
 * difference (negative while refunds grow, positive when a failed refund gives back), none when nothing differs or
 * the payment was never recorded (an untaxed order).
 */
async function settleRefunds(
  tx: Transaction,
  order: Order,
  moved: MoneyChanges['moneyMoved'][number],
  changeId: string,
  clock: SQL | undefined,
): Promise<void> {
  const { transactionId } = order;
  const [payment] = await tx
    .select({ invoiceId: taxRecords.invoiceId, paymentId: taxRecords.paymentId, taxState: taxRecords.taxState })
    .from(taxRecords)
    .where(
      and(
        eq(taxRecords.transactionId, transactionId),
        eq(taxRecords.kind, 'payment'),
        // Entries of payments recorded before a renewal carried its PaymentIntent name the invoice instead.
        or(eq(taxRecords.paymentId, moved.paymentId), eq(taxRecords.invoiceId, moved.paymentId)),
      ),
    )
    .limit(1);
  if (!payment) return;
  const [split] = await tx
    .select({ refundedCents: orderRefunds.refundedCents, taxCents: orderRefunds.taxCents })
    .from(orderRefunds)
    .where(and(eq(orderRefunds.transactionId, transactionId), eq(orderRefunds.paymentId, moved.paymentId)));
  const [recorded] = await tx
    .select({
      amountCents: sql<number>`coalesce(sum(${taxRecords.amountCents}), 0)::int`,
      taxCents: sql<number>`coalesce(sum(${taxRecords.taxCents}), 0)::int`,
    })
    .from(taxRecords)
    .where(and(eq(taxRecords.transactionId, transactionId), eq(taxRecords.kind, 'refund'), eq(taxRecords.paymentId, payment.paymentId)));
  const taxBack = split?.taxCents ?? 0;
  const amountBack = (split?.refundedCents ?? 0) - taxBack;
  const amountCents = -amountBack - (recorded?.amountCents ?? 0);
  const taxCents = -taxBack - (recorded?.taxCents ?? 0);
  if (amountCents === 0 && taxCents === 0) return;
  await tx
    .insert(taxRecords)
    .values({
      recordKey: `refund:${payment.paymentId}:${changeId}`,
      kind: 'refund',
      transactionId,
      invoiceId: payment.invoiceId,
      paymentId: payment.paymentId,
      taxState: payment.taxState,
      amountCents,
      taxCents,
      occurredAt: nowOn(clock),
    })
    .onConflictDoNothing({ target: taxRecords.recordKey });
}
