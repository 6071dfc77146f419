/**
 * Seat changes as Stripe's `always_invoice` + `pending_if_incomplete` make them (docs/decisions/0045): an increase
 * changes the seats only once its proration is paid; a decrease is a credit off the next renewal.
 */
import { and, eq, sql } from 'drizzle-orm';
import { monthlyTotalCents } from '../../../src/domain/pricing';
import { taxCents } from '../../../src/domain/tax';
import { seatChangeProration, seatQuoteHolds, type Proration } from '../../../src/domain/proration';
import type { Database, Transaction } from '../../db/client';
import { sandboxInvoices, sandboxSubscriptions } from '../../db/schema';
import type { OperationResult, SeatChangePreview } from '../provider';
import { charges, newInvoiceId, refused, SANDBOX_NOW, sandboxEvent, type SubscriptionRow } from './billing';

/**
 * The proration of moving `row` to `quantity` seats at `quotedSeconds` (a preview's), else now, on the sandbox
 * clock; null when the quote no longer holds (src/domain/proration.ts).
 */
async function prorationAt(
  tx: Transaction | Database,
  row: SubscriptionRow & { currentPeriodEnd: Date },
  quantity: number,
  quotedSeconds?: number,
): Promise<(Proration & { atSeconds: number }) | null> {
  // The period began at the renewal that opened it, or a month before its end for the first period.
  const [renewal] = await tx
    .select({ periodStart: sandboxInvoices.periodStart })
    .from(sandboxInvoices)
    .where(
      and(
        eq(sandboxInvoices.subscriptionId, row.id),
        eq(sandboxInvoices.billingReason, 'subscription_cycle'),
        eq(sandboxInvoices.periodEnd, row.currentPeriodEnd),
      ),
    )
    .limit(1);
  const [times] = await tx
    .select({
      start: sql<string>`extract(epoch from coalesce(${renewal?.periodStart.toISOString() ?? null}::timestamptz, ${row.currentPeriodEnd.toISOString()}::timestamptz - interval '1 month'))::text`,
      now: sql<string>`extract(epoch from ${SANDBOX_NOW})::text`,
    })
    .from(sql`(select 1) as one`);
  const nowSeconds = Math.floor(Number(times!.now));
  if (quotedSeconds !== undefined && !seatQuoteHolds(quotedSeconds, nowSeconds)) return null;
  const atSeconds = quotedSeconds ?? nowSeconds;
  const proration = seatChangeProration({
    fromSeats: row.quantity,
    toSeats: quantity,
    periodStartSeconds: Math.floor(Number(times!.start)),
    periodEndSeconds: Math.floor(row.currentPeriodEnd.getTime() / 1000),
    atSeconds,
  });
  return { ...proration, atSeconds };
}

const changeable = (row: SubscriptionRow | undefined): row is SubscriptionRow & { currentPeriodEnd: Date } =>
  !!row && row.status === 'active' && row.currentPeriodEnd !== null;

/**
 * What moving the subscription to `quantity` seats would cost now; null for an unknown subscription or one whose
 * seats cannot change (not active).
 */
export async function previewSandboxSeatChange(db: Database, subscriptionId: string, quantity: number): Promise<SeatChangePreview | null> {
  const [row] = await db.select().from(sandboxSubscriptions).where(eq(sandboxSubscriptions.id, subscriptionId));
  if (!changeable(row)) return null;
  const proration = (await prorationAt(db, row, quantity))!;
  return previewOf(quantity, proration, row.currentPeriodEnd.toISOString(), row.taxRateMillionths);
}

/** A preview from a proration, taxed at `rateMillionths` (0 untaxed), as changeSandboxSeats charges it. */
function previewOf(
  quantity: number,
  proration: Pick<Proration, 'netCents'> & { atSeconds: number },
  nextChargeDate: string | null,
  rateMillionths: number,
): SeatChangePreview {
  const dueNowCents = Math.max(0, proration.netCents);
  const taxDueNowCents = taxCents(dueNowCents, rateMillionths);
  return {
    quantity,
    amountDueNowCents: dueNowCents + taxDueNowCents,
    taxDueNowCents,
    creditCents: Math.max(0, -proration.netCents),
    monthlyTotalCents: monthlyTotalCents(quantity),
    monthlyTaxCents: taxCents(monthlyTotalCents(quantity), rateMillionths),
    nextChargeDate,
    prorationDate: proration.atSeconds,
  };
}

/**
 * Moves an active subscription to `quantity` seats under its row lock; 'payment_declined' or 'quote_expired'
 * change nothing.
 */
export async function changeSandboxSeats(
  db: Database,
  subscriptionId: string,
  quantity: number,
  idempotencyKey: string,
  prorationDate?: number,
): Promise<OperationResult> {
  return db.transaction(async (tx): Promise<OperationResult> => {
    const [row] = await tx.select().from(sandboxSubscriptions).where(eq(sandboxSubscriptions.id, subscriptionId)).for('update');
    if (!changeable(row)) return refused('not_allowed');
    const subject = { subscriptionId: row.id, transactionId: row.transactionId };
    const proration = await prorationAt(tx, row, quantity, prorationDate);
    if (!proration) return refused('quote_expired');
    // A taxed subscription keeps its rate: the new monthly total and the proration are taxed as Stripe Tax would.
    const monthlyTax = taxCents(monthlyTotalCents(quantity), row.taxRateMillionths);
    const seats = { quantity, amountDueCents: monthlyTotalCents(quantity) + monthlyTax, updatedAt: new Date() };
    if (proration.netCents > 0) {
      if (!charges(row)) return refused('payment_declined');
      const invoiceId = newInvoiceId();
      const prorationTax = taxCents(proration.netCents, row.taxRateMillionths);
      await tx.insert(sandboxInvoices).values({
        id: invoiceId,
        subscriptionId: row.id,
        billingReason: 'subscription_update',
        amountCents: proration.netCents + prorationTax,
        taxCents: prorationTax,
        status: 'paid',
        periodStart: sql`${SANDBOX_NOW}`,
        periodEnd: row.currentPeriodEnd,
        createdAt: sql`${SANDBOX_NOW}`,
        paidAt: sql`${SANDBOX_NOW}`,
      });
      await tx.update(sandboxSubscriptions).set(seats).where(eq(sandboxSubscriptions.id, row.id));
      return { ok: true, events: [sandboxEvent.invoicePaid(subject, invoiceId)] };
    }
    await tx
      .update(sandboxSubscriptions)
      .set({ ...seats, creditCents: row.creditCents - proration.netCents })
      .where(eq(sandboxSubscriptions.id, row.id));
    return { ok: true, events: [sandboxEvent.updated(subject, idempotencyKey)] };
  });
}
