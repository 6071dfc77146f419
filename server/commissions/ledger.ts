/**
 * The ledger's bookings (docs/decisions/0035), in the transaction of the change that causes them. Earned: one entry
 * per paid invoice, keyed `earned:{invoiceId}` (a replay books nothing), by the rule in force, rounded half up; a
 * self-referral books 0, flagged. Money going back takes back its share: a 'reversal' while the entry is in no payout
 * batch, a 'clawback' against the next payout once it is; a failed refund or won dispute gives back with the opposite
 * sign. A cancellation without money going back reverses nothing: the buyer paid. Append-only cents (a trigger
 * refuses updates).
 */
import type { SQL } from 'drizzle-orm';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { commissionCents, commissionPayableFrom, refundedShareCents } from '../../src/domain/commissions';
import type { Transaction } from '../db/client';
import { commissionEntries, orderDisputes, orderRefunds, outbox, payoutBatchEntries, payoutBatches, referrers } from '../db/schema';
import { ruleFor } from './rules';

export const billingNow = (clock: SQL | undefined): SQL => clock ?? sql`now()`;

type Entry = typeof commissionEntries.$inferSelect;

interface OrderForCommission {
  transactionId: string;
  referrerId: string | null;
  email: string | null;
  quantity: number;
}

interface PaidInvoice {
  invoiceId: string;
  /** Stripe: the PaymentIntent; sandbox: the PaymentIntent or the invoice. */
  paymentId: string | null;
  amountCents: number;
  seats: number;
  /**
   * docs/decisions/0045: a share of a month already counted, so it starts no month of the rule, and a flat per-seat
   * rule earns nothing on it.
   */
  proration?: boolean;
}

/** Nothing without a referrer; once per invoice. @throws database errors (the caller's transaction rolls back). */
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
  // The referrer hears of each commission as it is earned.
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

/** It tells a proration's entry from a month's. */
const PRORATION_NOTE = ', seats added';

interface CommissionChanges {
  /** Commissions are on the amount before tax (docs/decisions/0071). */
  paidRenewal?: { invoiceId: string; paymentId: string | null; amountCents: number; taxCents?: number };
  paidProration?: { invoiceId: string; paymentId: string | null; amountCents: number; taxCents?: number; seats: number };
  seats?: { to: number };
  moneyMoved?: { paymentId: string; why: string }[];
}

/**
 * A paid renewal earns; a payment whose money went back or came back has its commission brought in line with what the
 * buyer kept. `changeKey` (the provider's event) keeps each booking's key unique. Under the order's row lock, in the
 * caller's transaction.
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

/** Nothing for a payment that earned nothing or that no entry names. */
async function settlePayment(
  tx: Transaction,
  transactionId: string,
  paymentId: string,
  why: string,
  changeKey: string,
  clock: SQL | undefined,
): Promise<void> {
  const earned = await earnedWithTaken(tx, transactionId);
  // Entries booked before renewals carried their PaymentIntent name the invoice.
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

/** cents > 0 */
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

/** A negative `cents` gives back what was taken, with the same kinds. */
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
