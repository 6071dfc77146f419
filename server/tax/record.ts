/**
 * Writes the record of tax collected (docs/decisions/0074) in the lifecycle's transaction, under the order's row
 * lock (decision 0061). A dispute moves no tax: its money is the card network's to settle, not a refund.
 */
import { and, eq, or, sql, type SQL } from 'drizzle-orm';
import type { MoneyChanges, OrderAnnouncements } from '../checkout';
import type { Transaction } from '../db/client';
import { orderRefunds, taxRecords } from '../db/schema';

type Order = OrderAnnouncements['firstPaid']['order'];

/** The provider's billing clock (the sandbox's), else the database's. */
const nowOn = (clock: SQL | undefined): SQL => clock ?? sql`now()`;

/** Amounts in cents, `amountCents` before tax. @throws database errors (the lifecycle's change rolls back). */
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

/** `invoice.amountCents` is before tax; its tax is the order's confirmed tax (decision 0071). */
export function recordFirstPayment(tx: Transaction, { order, invoice, clock }: OrderAnnouncements['firstPaid']): Promise<void> {
  return recordPayment(tx, order, { ...invoice, taxCents: order.taxCents }, clock);
}

/** A paid renewal's or proration's amount includes its tax. @throws database errors. */
export async function recordMoneyChanged(
  tx: Transaction,
  { order, changes, clock, changeId }: OrderAnnouncements['moneyChanged'],
): Promise<void> {
  for (const paid of [changes.paidRenewal, changes.paidProration]) {
    if (paid) await recordPayment(tx, order, { ...paid, amountCents: paid.amountCents - paid.taxCents }, clock);
  }
  for (const moved of changes.moneyMoved) await settleRefunds(tx, order, moved, changeId, clock);
}

/** Writes the difference to the checkout's refund split (order_refunds), so a repeated event adds nothing. */
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
        // A renewal recorded without its PaymentIntent names the invoice as its payment.
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
