/**
 * The commission ledger's bookings (docs/decisions/0035), heard from the one lifecycle's announcements in the same
 * transaction as the change that causes them (./index.ts): the first payment at completion, each paid renewal,
 * refunds and disputes.
 *
 * - Earned: one entry per paid invoice of an order with a referrer, keyed `earned:{invoiceId}` (a replay books
 *   nothing), by the referrer's rule in force (./rules.ts), rounded half up per invoice (src/domain/commissions.ts).
 *   A buyer whose email is the referrer's earns the referrer nothing: the entry is booked at 0 and flagged.
 * - Money going back: the share of a payment refunded, or disputed and not won, is taken back from the entry that
 *   payment earned (keyed by the payment Stripe's refunds and disputes name): a 'reversal' while the entry is in
 *   no payout batch (held or payable), a 'clawback' (counted against the next payout) once it is in one. A failed
 *   refund or a won dispute gives it back the same way, with the opposite sign.
 * - A cancellation, now or at the period's end, without money going back reverses nothing: the buyer paid.
 * Entries are append-only integer cents; nothing is ever updated (a database trigger refuses it).
 */
import type { SQL } from 'drizzle-orm';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { commissionCents, commissionPayableFrom, refundedShareCents } from '../../src/domain/commissions';
import type { Transaction } from '../db/client';
import { commissionEntries, orderDisputes, orderRefunds, outbox, payoutBatchEntries, payoutBatches, referrers } from '../db/schema';
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
  const [referrer] = await tx
    .select({ email: referrers.email, status: referrers.status })
    .from(referrers)
    .where(eq(referrers.id, order.referrerId));
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
  const [booked] = await tx
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
    .onConflictDoNothing({ target: commissionEntries.entryKey })
    .returning({ earnedAt: commissionEntries.earnedAt });
  // The referrer hears of each commission as it is earned, with the day it becomes payable (./partnerMail.ts).
  if (booked && amountCents > 0 && referrer.email && referrer.status === 'active') {
    await tx
      .insert(outbox)
      .values({
        kind: 'mail',
        topic: 'partner_commission_earned',
        dedupeKey: `mail:partner_commission_earned:${invoice.invoiceId}`,
        transactionId: order.transactionId,
        payload: {
          referrerId: order.referrerId,
          transactionId: order.transactionId,
          amountCents,
          invoiceCents: invoice.amountCents,
          payableFrom: commissionPayableFrom(booked.earnedAt).toISOString(),
        },
      })
      .onConflictDoNothing();
  }
}

/** How a proration's entry reads (and is told from a month's). */
const PRORATION_NOTE = ', seats added';

/** What the lifecycle changed that concerns commissions (a subset of its LifecycleChanges). */
interface CommissionChanges {
  /** What was paid, tax included, and the tax in it: commissions are on the amount before tax (decision 0071). */
  paidRenewal?: { invoiceId: string; paymentId: string | null; amountCents: number; taxCents?: number };
  /** A seat increase's proration invoice: earns like any paid invoice, not a month of its own (decision 0045). */
  paidProration?: { invoiceId: string; paymentId: string | null; amountCents: number; taxCents?: number; seats: number };
  seats?: { to: number };
  /** Payments whose money went back or came back (a refund, a failed refund, a dispute opened, won or lost). */
  moneyMoved?: { paymentId: string; why: string }[];
}

/**
 * Books what the one lifecycle's `changes` to `order` mean for its referrer's commission: a paid renewal earns
 * (on what was paid, keyed by the payment a refund or dispute will name); a payment whose money went back (a
 * refund, a dispute) or came back (a failed refund, a won dispute) has its commission brought in line with what
 * the buyer kept of it. A cancellation without money going back reverses nothing (docs/decisions/0035).
 * `changeKey` names the change (the provider's event), so each booking's key is unique. Within the caller's
 * transaction, under the order's row lock.
 */
export async function bookLifecycleCommissions(
  tx: Transaction,
  order: OrderForCommission,
  changes: CommissionChanges,
  clock: SQL | undefined,
  changeKey = 'change',
): Promise<void> {
  if (!order.referrerId) return;
  if (changes.paidRenewal) {
    const { invoiceId, paymentId, amountCents, taxCents = 0 } = changes.paidRenewal;
    await bookEarned(
      tx,
      order,
      { invoiceId, paymentId: paymentId ?? invoiceId, amountCents: amountCents - taxCents, seats: changes.seats?.to ?? order.quantity },
      clock,
    );
  }
  if (changes.paidProration) {
    const { invoiceId, paymentId, amountCents, taxCents = 0, seats } = changes.paidProration;
    await bookEarned(
      tx,
      order,
      { invoiceId, paymentId: paymentId ?? invoiceId, amountCents: amountCents - taxCents, seats, proration: true },
      clock,
    );
  }
  for (const moved of changes.moneyMoved ?? []) await settlePayment(tx, order.transactionId, moved.paymentId, moved.why, changeKey, clock);
}

/**
 * Brings the commission earned on `paymentId` in line with what the buyer kept of it: the share of the payment
 * refunded (order_refunds) or disputed and not won (order_disputes) is taken back; what a failed refund or a won
 * dispute gave back is booked back, as an entry of the same kind with the opposite sign. Nothing for a payment
 * that earned nothing or that no entry names (a warning for the caller's log is not needed: the ledger has none).
 */
async function settlePayment(
  tx: Transaction,
  transactionId: string,
  paymentId: string,
  why: string,
  changeKey: string,
  clock: SQL | undefined,
): Promise<void> {
  const earned = await earnedWithTaken(tx, transactionId);
  // Entries booked before renewals carried their PaymentIntent name the invoice instead.
  const target = earned.find(({ entry }) => entry.paymentId === paymentId) ?? earned.find(({ entry }) => entry.invoiceId === paymentId);
  if (!target || target.entry.amountCents === 0) return;
  // The commission is on the amount before tax (decision 0071), so only the part of a refund before tax takes it
  // back: the tax share went back to the buyer, not out of the seats' price (docs/decisions/0074).
  const [refunded] = await tx
    .select({ cents: sql<number>`${orderRefunds.refundedCents} - ${orderRefunds.taxCents}` })
    .from(orderRefunds)
    .where(and(eq(orderRefunds.transactionId, transactionId), eq(orderRefunds.paymentId, paymentId)));
  const [disputed] = await tx
    .select({ cents: sql<number>`coalesce(sum(${orderDisputes.amountCents}), 0)::int` })
    .from(orderDisputes)
    .where(
      and(
        eq(orderDisputes.transactionId, transactionId),
        eq(orderDisputes.paymentId, paymentId),
        inArray(orderDisputes.outcome, ['open', 'lost']),
      ),
    );
  const goneCents = Math.min(target.entry.invoiceCents, (refunded?.cents ?? 0) + (disputed?.cents ?? 0));
  const share = goneCents > 0 ? refundedShareCents(target.entry.amountCents, target.entry.invoiceCents, goneCents) : 0;
  const cents = share - target.takenCents;
  if (cents === 0) return;
  await takeBack(tx, target.entry, cents, why, `${target.entry.invoiceId}:${changeKey}`, clock);
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

/**
 * Books an entry of -`cents` against `entry`: a 'reversal' while the entry is in no payout batch, a 'clawback'
 * (counted against the next payout) once it is. A negative `cents` gives back what was taken (a failed refund, a
 * won dispute), with the same kinds and the opposite sign.
 */
async function takeBack(tx: Transaction, entry: Entry, cents: number, why: string, key: string, clock: SQL | undefined): Promise<void> {
  const kind = (await liveBatchOf(tx, entry.id)) ? 'clawback' : 'reversal';
  const label = kind === 'clawback' ? 'Clawback' : 'Reversal';
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
      ruleText: cents > 0 ? `${label}: ${why}` : `${label} given back: ${why}`,
      reverses: entry.id,
      earnedAt: billingNow(clock),
    })
    .onConflictDoNothing({ target: commissionEntries.entryKey });
}
