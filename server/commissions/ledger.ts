/**
 * The commission ledger's bookings (issue 24, docs/decisions/0035), called from the one lifecycle in the same
 * transaction as the change that causes them: the first payment at completion (server/orders/completeOrder.ts),
 * each paid renewal, refunds and the end of a subscription (server/orders/subscriptionLifecycle.ts).
 *
 * - Earned: one entry per paid invoice of an order with a referrer, keyed `earned:{invoiceId}` (a replay books
 *   nothing), by the referrer's rule in force (./rules.ts), rounded half up per invoice (src/domain/commissions.ts).
 *   A buyer whose email is the referrer's earns the referrer nothing: the entry is booked at 0 and flagged.
 * - Refund: the refunded share of the invoice's commission is taken back: a 'reversal' while the entry is in no
 *   payout batch (held or payable), a 'clawback' (counted against the next payout) once it is in one.
 * - Ended at once (refunded, or deleted): whatever is still held is reversed (the buyer left within the
 *   guarantee). A cancellation at the end of a paid period, or for unpaid renewals, reverses nothing.
 * Entries are append-only integer cents; nothing is ever updated (a database trigger refuses it).
 */
import type { SQL } from 'drizzle-orm';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { commissionCents, holdEndsAt, refundedShareCents } from '../../src/domain/commissions';
import type { Transaction } from '../db/client';
import { commissionEntries, payoutBatchEntries, payoutBatches, referrers } from '../db/schema';
import { ruleFor } from './rules';

/** The billing clock's now (the provider's `clock`, else the database's). */
export const billingNow = (clock: SQL | undefined): SQL => clock ?? sql`now()`;

type Entry = typeof commissionEntries.$inferSelect;

/** The paid order an entry is booked for. */
interface OrderForCommission {
  transactionId: string;
  referrerId: string | null;
  email: string | null;
  quantity: number;
}

/** One paid invoice: the provider's ids, its paid amount in cents and its seats. */
interface PaidInvoice {
  invoiceId: string;
  /** The payment a refund of it will name (Stripe: the PaymentIntent; sandbox: the PaymentIntent or the invoice). */
  paymentId: string | null;
  amountCents: number;
  seats: number;
  /**
   * A seat increase's proration (decision 0045): a share of the month already counted, so it does not start a
   * month of the rule, and a flat per-seat rule earns on it nothing (the renewal pays the new seats' month).
   */
  proration?: boolean;
}

/**
 * Books the commission earned on `invoice` of `order` (nothing without a referrer; once per invoice).
 * @throws database errors (the caller's transaction rolls back with it).
 */
export async function bookEarned(tx: Transaction, order: OrderForCommission, invoice: PaidInvoice, clock: SQL | undefined): Promise<void> {
  if (!order.referrerId) return;
  const [referrer] = await tx.select({ email: referrers.email }).from(referrers).where(eq(referrers.id, order.referrerId));
  if (!referrer) return;
  const inForce = await ruleFor(tx, order.referrerId);
  const [earlier] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(commissionEntries)
    .where(and(eq(commissionEntries.transactionId, order.transactionId), eq(commissionEntries.kind, 'earned')));
  const [prorations] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(commissionEntries)
    .where(
      and(
        eq(commissionEntries.transactionId, order.transactionId),
        eq(commissionEntries.kind, 'earned'),
        sql`${commissionEntries.ruleText} like ${`%${PRORATION_NOTE}`}`,
      ),
    );
  const monthsPaid = (earlier?.n ?? 0) - (prorations?.n ?? 0);
  const monthNumber = invoice.proration ? Math.max(1, monthsPaid) : monthsPaid + 1;
  const selfReferral = !!referrer.email && !!order.email && referrer.email.trim().toLowerCase() === order.email.trim().toLowerCase();
  const earns = !selfReferral && !(invoice.proration && inForce.rule.kind === 'flat');
  const amountCents = earns ? commissionCents(inForce.rule, invoice.amountCents, invoice.seats, monthNumber) : 0;
  await tx
    .insert(commissionEntries)
    .values({
      entryKey: `earned:${invoice.invoiceId}`,
      kind: 'earned',
      referrerId: order.referrerId,
      transactionId: order.transactionId,
      invoiceId: invoice.invoiceId,
      paymentId: invoice.paymentId,
      invoiceCents: invoice.amountCents,
      seats: invoice.seats,
      amountCents,
      ruleId: inForce.ruleId,
      ruleText: selfReferral
        ? `${inForce.text} (self-referral: nothing earned)`
        : `${inForce.text}, month ${monthNumber}${invoice.proration ? PRORATION_NOTE : ''}`,
      selfReferral,
      earnedAt: billingNow(clock),
    })
    .onConflictDoNothing({ target: commissionEntries.entryKey });
}

/** How a proration's entry reads (and is told from a month's). */
const PRORATION_NOTE = ', seats added';

/** The ends that reverse what is still held: refunded, or deleted at once (the buyer left within the guarantee). */
const ENDS_THAT_REVERSE = new Set(['refunded', 'deleted']);

/** What the lifecycle changed that concerns commissions (a subset of its LifecycleChanges). */
interface CommissionChanges {
  paidRenewal?: { invoiceId: string; amountCents: number };
  /** A seat increase's proration invoice: earns like any paid invoice, not a month of its own (decision 0045). */
  paidProration?: { invoiceId: string; amountCents: number; seats: number };
  seats?: { to: number };
  refund?: { paymentId: string; refundedCents: number };
  ended?: { reason: string };
}

/**
 * Books what the one lifecycle's `changes` to `order` mean for its referrer's commission: a paid renewal earns,
 * a refund takes back its share, an end reverses what is still held. Within the caller's transaction.
 */
export async function bookLifecycleCommissions(
  tx: Transaction,
  order: OrderForCommission,
  changes: CommissionChanges,
  clock: SQL | undefined,
): Promise<void> {
  if (!order.referrerId) return;
  if (changes.paidRenewal) {
    const { invoiceId, amountCents } = changes.paidRenewal;
    await bookEarned(tx, order, { invoiceId, paymentId: invoiceId, amountCents, seats: changes.seats?.to ?? order.quantity }, clock);
  }
  if (changes.paidProration) {
    const { invoiceId, amountCents, seats } = changes.paidProration;
    await bookEarned(tx, order, { invoiceId, paymentId: invoiceId, amountCents, seats, proration: true }, clock);
  }
  if (changes.refund) await bookRefund(tx, order.transactionId, changes.refund, clock);
  // Ended at the end of a paid period, or for unpaid renewals, the buyer kept what they paid for: nothing reverses.
  if (changes.ended && ENDS_THAT_REVERSE.has(changes.ended.reason)) await reverseHeld(tx, order.transactionId, clock);
}

/** The earned entries of an order, newest first, with what reversals already took back of each (cents > 0). */
async function earnedWithTaken(tx: Transaction, transactionId: string): Promise<{ entry: Entry; takenCents: number }[]> {
  const rows = await tx
    .select()
    .from(commissionEntries)
    .where(eq(commissionEntries.transactionId, transactionId))
    .orderBy(desc(commissionEntries.id));
  const taken = new Map<number, number>();
  for (const row of rows) if (row.reverses !== null) taken.set(row.reverses, (taken.get(row.reverses) ?? 0) - row.amountCents);
  return rows.filter((row) => row.kind === 'earned').map((entry) => ({ entry, takenCents: taken.get(entry.id) ?? 0 }));
}

/** The status of the live payout batch holding entry `entryId`, or null. */
async function liveBatchOf(tx: Transaction, entryId: number): Promise<'created' | 'paid' | null> {
  const [row] = await tx
    .select({ status: payoutBatches.status })
    .from(payoutBatchEntries)
    .innerJoin(payoutBatches, eq(payoutBatches.id, payoutBatchEntries.batchId))
    .where(
      and(
        eq(payoutBatchEntries.entryId, entryId),
        eq(payoutBatchEntries.released, false),
        inArray(payoutBatches.status, ['created', 'paid']),
      ),
    );
  return row?.status === 'created' || row?.status === 'paid' ? row.status : null;
}

async function bookRefund(
  tx: Transaction,
  transactionId: string,
  refund: { paymentId: string; refundedCents: number },
  clock: SQL | undefined,
): Promise<void> {
  const earned = await earnedWithTaken(tx, transactionId);
  // The entry of the refunded payment; a payment we cannot match (a Stripe renewal's PaymentIntent) is the newest.
  const target = earned.find(({ entry }) => entry.paymentId === refund.paymentId) ?? earned[0];
  if (!target || target.entry.amountCents === 0) return;
  const share = refundedShareCents(target.entry.amountCents, target.entry.invoiceCents, refund.refundedCents);
  const cents = share - target.takenCents;
  if (cents <= 0) return;
  await takeBack(
    tx,
    target.entry,
    cents,
    `refund of ${refund.refundedCents} cents`,
    `${target.entry.invoiceId}:${refund.refundedCents}`,
    clock,
  );
}

async function reverseHeld(tx: Transaction, transactionId: string, clock: SQL | undefined): Promise<void> {
  const [row] = await tx.select({ now: sql<string>`(${billingNow(clock)})::text` }).from(sql`(select 1) as one`);
  const now = new Date(row!.now);
  for (const { entry, takenCents } of await earnedWithTaken(tx, transactionId)) {
    const left = entry.amountCents - takenCents;
    if (left <= 0 || holdEndsAt(entry.earnedAt) <= now) continue;
    await takeBack(tx, entry, left, 'the subscription ended within the guarantee', `ended:${entry.invoiceId}`, clock);
  }
}

/** Books a negative entry of `cents` against `entry`: a reversal, or a clawback once the entry is in a payout. */
async function takeBack(tx: Transaction, entry: Entry, cents: number, why: string, key: string, clock: SQL | undefined): Promise<void> {
  const kind = (await liveBatchOf(tx, entry.id)) ? 'clawback' : 'reversal';
  await tx
    .insert(commissionEntries)
    .values({
      entryKey: `${kind}:${key}`,
      kind,
      referrerId: entry.referrerId,
      transactionId: entry.transactionId,
      invoiceId: entry.invoiceId,
      paymentId: entry.paymentId,
      invoiceCents: entry.invoiceCents,
      seats: entry.seats,
      amountCents: -cents,
      ruleId: entry.ruleId,
      ruleText: `${kind === 'clawback' ? 'Clawback' : 'Reversal'}: ${why}`,
      reverses: entry.id,
      earnedAt: billingNow(clock),
    })
    .onConflictDoNothing({ target: commissionEntries.entryKey });
}
