/**
 * The sandbox's billing after the first payment, on a clock tests can move, so a subscription's whole life runs
 * offline as at Stripe; answered as PaymentEvents for the one lifecycle. Money in integer cents.
 */
import { and, asc, desc, eq, inArray, lte, ne, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/client';
import { sandboxClock, sandboxDisputes, sandboxInvoices, sandboxRefunds, sandboxSubscriptions } from '../../db/schema';
import { randomAlphanumeric } from '../../security/randomText';
import { monthlyTotalCents } from '../../../src/domain/pricing';
import { taxCents } from '../../../src/domain/tax';
import { paidInvoiceStatus, type ListedInvoice } from '../provider';
import type { OperationRefusal, OperationResult, PaymentEvent, RefundedPayment, SubscriptionDetails } from '../provider';
import type { TestCardBehaviour } from './cards';

export const SANDBOX_NOW = sql`(now() + make_interval(secs => coalesce((select ${sandboxClock.offsetSeconds} from ${sandboxClock} where ${sandboxClock.id} = 1), 0)))`;

/** Charges of one renewal before the subscription ends unpaid (Stripe's default Smart Retries: a few tries). */
const RENEWAL_ATTEMPTS = 3;

type Subject = { subscriptionId: string; transactionId: string };

/** The sandbox's payment events, named like Stripe's (`sandbox.invoice.paid`); ids unique per occurrence. */
export const sandboxEvent = {
  invoicePaid: (subject: Subject, invoiceId: string): PaymentEvent => ({
    eventId: `sandbox:${invoiceId}:paid`,
    kind: 'invoice_paid',
    providerType: 'sandbox.invoice.paid',
    ...subject,
  }),
  paymentFailed: (subject: Subject, invoiceId: string, attempt: number): PaymentEvent => ({
    eventId: `sandbox:${invoiceId}:failed:${attempt}`,
    kind: 'invoice_payment_failed',
    providerType: 'sandbox.invoice.payment_failed',
    ...subject,
  }),
  deleted: (subject: Subject): PaymentEvent => ({
    eventId: `sandbox:${subject.subscriptionId}:deleted`,
    kind: 'subscription_deleted',
    providerType: 'sandbox.subscription.deleted',
    ...subject,
  }),
  updated: (subject: Subject, idempotencyKey: string): PaymentEvent => ({
    eventId: `sandbox:${subject.subscriptionId}:updated:${idempotencyKey}`,
    kind: 'subscription_updated',
    providerType: 'sandbox.subscription.updated',
    ...subject,
  }),
  refunded: (subject: Subject, refundId: string, paymentId: string): PaymentEvent => ({
    eventId: `sandbox:${refundId}:refunded`,
    kind: 'payment_refunded',
    providerType: 'sandbox.charge.refunded',
    paymentId,
    ...subject,
  }),
  /** Read as a refund is: its payment then reports less refunded (Stripe's `refund.failed`). */
  refundFailed: (subject: Subject, refundId: string, paymentId: string): PaymentEvent => ({
    eventId: `sandbox:${refundId}:failed`,
    kind: 'payment_refunded',
    providerType: 'sandbox.refund.failed',
    paymentId,
    ...subject,
  }),
};

/** What a refund row says happened: refunded, then, if it failed, the failure. */
const refundEvents = (subject: Subject, refund: { id: string; paymentId: string; status: 'succeeded' | 'failed' }) => [
  sandboxEvent.refunded(subject, refund.id, refund.paymentId),
  ...(refund.status === 'failed' ? [sandboxEvent.refundFailed(subject, refund.id, refund.paymentId)] : []),
];

/** Only refunds that went through count; a failed one gave the money back to the business. */
const refundWentThrough = eq(sandboxRefunds.status, 'succeeded');

/** How far ahead of today the sandbox clock may go: 50 years (its offset is a 32-bit count of seconds). */
export const SANDBOX_CLOCK_MAX_SECONDS = 50 * 365 * 24 * 60 * 60;

/**
 * Moves the sandbox clock forward by `seconds`; returns the new sandbox time, or null (nothing moved) when that
 * would take it more than SANDBOX_CLOCK_MAX_SECONDS ahead of today.
 */
export async function advanceSandboxClock(db: Database, seconds: number): Promise<Date | null> {
  if (seconds > SANDBOX_CLOCK_MAX_SECONDS) return null;
  const moved = await db
    .insert(sandboxClock)
    .values({ id: 1, offsetSeconds: seconds })
    .onConflictDoUpdate({
      target: sandboxClock.id,
      set: { offsetSeconds: sql`${sandboxClock.offsetSeconds} + ${seconds}` },
      where: sql`${sandboxClock.offsetSeconds} + ${seconds} <= ${SANDBOX_CLOCK_MAX_SECONDS}`,
    })
    .returning({ id: sandboxClock.id });
  if (moved.length === 0) return null;
  const [row] = await db.select({ now: sql<string>`${SANDBOX_NOW}::text` }).from(sql`(select 1) as one`);
  return new Date(row!.now);
}

export const newInvoiceId = () => `in_sbx_${randomAlphanumeric(24)}`;

/** The subscription's card and invoices (the first payment, then each renewal), or null for an unknown id. */
export async function sandboxSubscriptionDetails(db: Database, subscriptionId: string): Promise<SubscriptionDetails | null> {
  const [row] = await db.select().from(sandboxSubscriptions).where(eq(sandboxSubscriptions.id, subscriptionId));
  if (!row) return null;
  const later = await db
    .select()
    .from(sandboxInvoices)
    .where(eq(sandboxInvoices.subscriptionId, subscriptionId))
    .orderBy(asc(sandboxInvoices.createdAt));
  const refunds = await db
    .select({ paymentId: sandboxRefunds.paymentId, cents: sql<number>`sum(${sandboxRefunds.amountCents})::int` })
    .from(sandboxRefunds)
    .where(and(eq(sandboxRefunds.subscriptionId, subscriptionId), refundWentThrough))
    .groupBy(sandboxRefunds.paymentId);
  const refunded = new Map(refunds.map((refund) => [refund.paymentId, refund.cents]));
  /** A paid invoice with what was refunded on its payment (the first invoice's is its PaymentIntent). */
  const paid = (id: string, paymentId: string, amounts: { amountCents: number; taxCents: number }, date: Date): ListedInvoice => {
    const { amountCents } = amounts;
    const refundedCents = Math.min(amountCents, refunded.get(paymentId) ?? 0);
    return { id, ...amounts, status: paidInvoiceStatus(amountCents, refundedCents), refundedCents, date: date.toISOString() };
  };
  const firstAmounts = { amountCents: row.amountPaidCents, taxCents: row.taxCents };
  const first = row.amountPaidCents > 0 ? [paid(firstInvoiceId(row.id), row.paymentIntentId, firstAmounts, row.updatedAt)] : [];
  return {
    currentPeriodEnd: row.currentPeriodEnd?.toISOString() ?? null,
    cardLast4: row.cardLast4,
    invoices: [
      ...first,
      ...later.map((invoice): ListedInvoice =>
        invoice.status === 'paid'
          ? paid(invoice.id, invoice.id, invoice, invoice.createdAt)
          : {
              id: invoice.id,
              amountCents: invoice.amountCents,
              taxCents: invoice.taxCents,
              status: invoice.status,
              refundedCents: 0,
              date: invoice.createdAt.toISOString(),
            },
      ),
    ],
  };
}

export const firstInvoiceId = (subscriptionId: string) => subscriptionId.replace(/^sub_/, 'in_');

/** The newest invoice of a subscription after the first (a renewal or a seat increase's proration), or undefined. */
export async function latestRenewalInvoice(db: Database, subscriptionId: string) {
  const [invoice] = await db
    .select()
    .from(sandboxInvoices)
    .where(eq(sandboxInvoices.subscriptionId, subscriptionId))
    .orderBy(desc(sandboxInvoices.createdAt))
    .limit(1);
  return invoice;
}

export const refused = (refusal: OperationRefusal): OperationResult => ({ ok: false, refusal });

/** Sets or clears Stripe's `cancel_at_period_end`; refuses an unknown, unpaid or ended subscription. */
export async function setSandboxCancelAtPeriodEnd(
  db: Database,
  subscriptionId: string,
  cancel: boolean,
  idempotencyKey: string,
): Promise<OperationResult> {
  const [row] = await db
    .update(sandboxSubscriptions)
    .set({ cancelAtPeriodEnd: cancel, updatedAt: new Date() })
    .where(and(eq(sandboxSubscriptions.id, subscriptionId), inArray(sandboxSubscriptions.status, ['active', 'past_due'])))
    .returning({ subscriptionId: sandboxSubscriptions.id, transactionId: sandboxSubscriptions.transactionId });
  return row ? { ok: true, events: [sandboxEvent.updated(row, idempotencyKey)] } : refused('not_allowed');
}

/** Ends an active or past-due subscription now (Stripe: cancel a subscription); refuses an unknown, unpaid or ended one. */
export async function endSandboxSubscription(db: Database, subscriptionId: string): Promise<OperationResult> {
  const [row] = await db
    .update(sandboxSubscriptions)
    .set({ status: 'canceled', cancelAtPeriodEnd: false, updatedAt: new Date() })
    .where(and(eq(sandboxSubscriptions.id, subscriptionId), inArray(sandboxSubscriptions.status, ['active', 'past_due'])))
    .returning({ subscriptionId: sandboxSubscriptions.id, transactionId: sandboxSubscriptions.transactionId });
  return row ? { ok: true, events: [sandboxEvent.deleted(row)] } : refused('not_allowed');
}

/**
 * Puts a new card on the subscription and, if a renewal is open, charges it at once. Answers the events of that
 * charge (none when nothing was open), or null for a subscription that is not active or past due.
 */
export async function updateSandboxCard(
  db: Database,
  subscriptionId: string,
  card: { behaviour: TestCardBehaviour; last4: string },
): Promise<PaymentEvent[] | null> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(sandboxSubscriptions)
      .set({ cardLast4: card.last4, cardBehaviour: card.behaviour, updatedAt: new Date() })
      .where(and(eq(sandboxSubscriptions.id, subscriptionId), inArray(sandboxSubscriptions.status, ['active', 'past_due'])))
      .returning();
    if (!row) return null;
    if (row.status !== 'past_due') return [];
    const charged = await chargeOpenInvoice(tx, row);
    return charged ? [charged] : [];
  });
}

/** One payment the sandbox took: the first invoice's PaymentIntent or a paid renewal invoice, in cents. */
interface SandboxPayment {
  paymentId: string;
  amountCents: number;
  refundedCents: number;
}

/**
 * The subscription's refundable payments, newest first, with what was refunded on each. A payment under a dispute
 * that is open or lost is left out: the bank holds (or kept) its money, and a refund would pay the buyer twice
 * (Stripe refuses a refund of a disputed charge: `charge_disputed`); a won dispute gave the money back.
 */
async function paymentsOf(tx: Transaction, row: SubscriptionRow): Promise<SandboxPayment[]> {
  const renewals = await tx
    .select({ paymentId: sandboxInvoices.id, amountCents: sandboxInvoices.amountCents })
    .from(sandboxInvoices)
    .where(and(eq(sandboxInvoices.subscriptionId, row.id), eq(sandboxInvoices.status, 'paid')))
    .orderBy(desc(sandboxInvoices.createdAt));
  const first = row.amountPaidCents > 0 ? [{ paymentId: row.paymentIntentId, amountCents: row.amountPaidCents }] : [];
  const refunds = await tx
    .select({ paymentId: sandboxRefunds.paymentId, cents: sql<number>`sum(${sandboxRefunds.amountCents})::int` })
    .from(sandboxRefunds)
    .where(and(eq(sandboxRefunds.subscriptionId, row.id), refundWentThrough))
    .groupBy(sandboxRefunds.paymentId);
  const refunded = new Map(refunds.map((refund) => [refund.paymentId, refund.cents]));
  const disputes = await tx
    .select({ paymentId: sandboxDisputes.paymentId })
    .from(sandboxDisputes)
    .where(and(eq(sandboxDisputes.subscriptionId, row.id), ne(sandboxDisputes.status, 'won')));
  const disputed = new Set(disputes.map((dispute) => dispute.paymentId));
  return [...renewals, ...first]
    .filter((payment) => !disputed.has(payment.paymentId))
    .map((payment) => ({ ...payment, refundedCents: refunded.get(payment.paymentId) ?? 0 }));
}

/**
 * Refunds `amountCents` of the subscription's payments, newest first (a refund per payment, as Stripe refunds a
 * charge), and ends the subscription at once when `endNow`. A repeat with the same idempotency key answers the
 * same refunds. Refuses an amount above what is left to refund, or a subscription never paid.
 */
export async function refundSandboxPayments(
  db: Database,
  input: { subscriptionId: string; amountCents: number | 'all'; endNow: boolean; idempotencyKey: string },
): Promise<OperationResult> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(sandboxSubscriptions).where(eq(sandboxSubscriptions.id, input.subscriptionId)).for('update');
    if (!row || row.amountPaidCents === 0) return refused('not_allowed');
    const subject = { subscriptionId: row.id, transactionId: row.transactionId };
    const prefix = `${input.idempotencyKey}:`;
    const repeated = await tx
      .select()
      .from(sandboxRefunds)
      .where(sql`left(${sandboxRefunds.idempotencyKey}, ${prefix.length}) = ${prefix}`);
    if (repeated.length > 0) return { ok: true, events: repeated.flatMap((refund) => refundEvents(subject, refund)) };
    const payments = await paymentsOf(tx, row);
    const refundable = payments.reduce((sum, payment) => sum + payment.amountCents - payment.refundedCents, 0);
    const amountCents = input.amountCents === 'all' ? refundable : input.amountCents;
    if (amountCents <= 0 || amountCents > refundable) return refused('amount_too_high');
    const events: PaymentEvent[] = [];
    let left = amountCents;
    for (const payment of payments) {
      const cents = Math.min(left, payment.amountCents - payment.refundedCents);
      if (cents <= 0) continue;
      const refund = { id: `re_sbx_${randomAlphanumeric(24)}`, paymentId: payment.paymentId, status: 'succeeded' as const };
      await tx.insert(sandboxRefunds).values({
        ...refund,
        subscriptionId: row.id,
        amountCents: cents,
        idempotencyKey: `${input.idempotencyKey}:${payment.paymentId}`,
      });
      events.push(...refundEvents(subject, refund));
      left -= cents;
      if (left === 0) break;
    }
    if (input.endNow) {
      await tx
        .update(sandboxSubscriptions)
        .set({ status: 'canceled', cancelAtPeriodEnd: false, updatedAt: new Date() })
        .where(and(eq(sandboxSubscriptions.id, row.id), ne(sandboxSubscriptions.status, 'canceled')));
    }
    return { ok: true, events };
  });
}

/** Fails the refunds of card 4000 0000 0000 5126 (Stripe "Testing": asynchronous refund failure) on the billing clock. */
export async function failSandboxRefunds(db: Database): Promise<PaymentEvent[]> {
  const failed = await db
    .update(sandboxRefunds)
    .set({ status: 'failed' })
    .where(
      and(
        refundWentThrough,
        inArray(
          sandboxRefunds.subscriptionId,
          db
            .select({ id: sandboxSubscriptions.id })
            .from(sandboxSubscriptions)
            .where(eq(sandboxSubscriptions.cardBehaviour, 'refund_fails')),
        ),
      ),
    )
    .returning();
  if (failed.length === 0) return [];
  const subscriptions = await db
    .select({ id: sandboxSubscriptions.id, transactionId: sandboxSubscriptions.transactionId })
    .from(sandboxSubscriptions)
    .where(inArray(sandboxSubscriptions.id, [...new Set(failed.map((refund) => refund.subscriptionId))]));
  const transactionOf = new Map(subscriptions.map((row) => [row.id, row.transactionId]));
  return failed.map((refund) =>
    sandboxEvent.refundFailed(
      { subscriptionId: refund.subscriptionId, transactionId: transactionOf.get(refund.subscriptionId)! },
      refund.id,
      refund.paymentId,
    ),
  );
}

/** A payment the sandbox took (`paymentId`: PaymentIntent or renewal invoice) and its refunds; null when unknown. */
export async function sandboxRefundedPayment(db: Database, paymentId: string): Promise<RefundedPayment | null> {
  const [first] = await db
    .select({ amountCents: sandboxSubscriptions.amountPaidCents, taxCents: sandboxSubscriptions.taxCents })
    .from(sandboxSubscriptions)
    .where(eq(sandboxSubscriptions.paymentIntentId, paymentId));
  const [renewal] = first
    ? []
    : await db
        .select({ amountCents: sandboxInvoices.amountCents, taxCents: sandboxInvoices.taxCents })
        .from(sandboxInvoices)
        .where(eq(sandboxInvoices.id, paymentId));
  const paid = first ?? renewal;
  if (!paid) return null;
  const [refunded] = await db
    .select({ cents: sql<number>`coalesce(sum(${sandboxRefunds.amountCents}), 0)::int` })
    .from(sandboxRefunds)
    .where(and(eq(sandboxRefunds.paymentId, paymentId), refundWentThrough));
  const [holding] = await db
    .select({ id: sandboxDisputes.id })
    .from(sandboxDisputes)
    .where(and(eq(sandboxDisputes.paymentId, paymentId), ne(sandboxDisputes.status, 'won')));
  return {
    paymentId,
    amountCents: paid.amountCents,
    taxCents: paid.taxCents,
    refundedCents: refunded?.cents ?? 0,
    disputeHolds: holding !== undefined,
  };
}

export type SubscriptionRow = typeof sandboxSubscriptions.$inferSelect;

/** True when the card on file pays a charge after the first (0341 and the declining cards do not). */
export const charges = (row: SubscriptionRow) =>
  row.cardBehaviour !== 'fails_later' && row.cardBehaviour !== 'declined' && row.cardBehaviour !== 'insufficient_funds';

/** Charges the open renewal of a past-due subscription again (a retry, or after a card update). */
async function chargeOpenInvoice(tx: Transaction, row: SubscriptionRow): Promise<PaymentEvent | null> {
  const [invoice] = await tx
    .select()
    .from(sandboxInvoices)
    .where(and(eq(sandboxInvoices.subscriptionId, row.id), eq(sandboxInvoices.status, 'open')))
    .for('update');
  if (!invoice) return null;
  const subject = { subscriptionId: row.id, transactionId: row.transactionId };
  if (charges(row)) {
    await tx
      .update(sandboxInvoices)
      .set({ status: 'paid', paidAt: sql`${SANDBOX_NOW}`, attempts: invoice.attempts + 1 })
      .where(eq(sandboxInvoices.id, invoice.id));
    await tx
      .update(sandboxSubscriptions)
      .set({ status: 'active', currentPeriodEnd: invoice.periodEnd, updatedAt: new Date() })
      .where(eq(sandboxSubscriptions.id, row.id));
    return sandboxEvent.invoicePaid(subject, invoice.id);
  }
  const attempts = invoice.attempts + 1;
  if (attempts >= RENEWAL_ATTEMPTS) {
    await tx.update(sandboxInvoices).set({ status: 'uncollectible', attempts }).where(eq(sandboxInvoices.id, invoice.id));
    await tx.update(sandboxSubscriptions).set({ status: 'canceled', updatedAt: new Date() }).where(eq(sandboxSubscriptions.id, row.id));
    return sandboxEvent.deleted(subject);
  }
  await tx.update(sandboxInvoices).set({ attempts }).where(eq(sandboxInvoices.id, invoice.id));
  return sandboxEvent.paymentFailed(subject, invoice.id, attempts);
}

/** Renews, retries or ends every subscription whose period has ended on the sandbox clock; answers the events. */
export async function renewDueSandboxSubscriptions(db: Database): Promise<PaymentEvent[]> {
  const due = await db
    .select({ id: sandboxSubscriptions.id })
    .from(sandboxSubscriptions)
    .where(and(inArray(sandboxSubscriptions.status, ['active', 'past_due']), lte(sandboxSubscriptions.currentPeriodEnd, SANDBOX_NOW)));
  const events: PaymentEvent[] = [];
  for (const { id } of due) {
    const event = await db.transaction(async (tx): Promise<PaymentEvent | null> => {
      const [row] = await tx.select().from(sandboxSubscriptions).where(eq(sandboxSubscriptions.id, id)).for('update');
      if (!row?.currentPeriodEnd || (row.status !== 'active' && row.status !== 'past_due')) return null;
      const subject = { subscriptionId: id, transactionId: row.transactionId };
      if (row.cancelAtPeriodEnd) {
        await tx.update(sandboxSubscriptions).set({ status: 'canceled', updatedAt: new Date() }).where(eq(sandboxSubscriptions.id, id));
        return sandboxEvent.deleted(subject);
      }
      if (row.status === 'past_due') return chargeOpenInvoice(tx, row);
      const periodEnd = sql`${row.currentPeriodEnd.toISOString()}::timestamptz + interval '1 month'`;
      const invoiceId = newInvoiceId();
      // Credit from seats taken away comes off this invoice first (Stripe applies the customer's balance). The
      // credit is before tax and carries its tax with it, as Stripe's credit line does: the month is taxed on the
      // seats less the credit, so a buyer is never taxed twice on the month a decrease handed back.
      const seatsCents = monthlyTotalCents(row.quantity);
      const creditUsed = Math.min(row.creditCents, seatsCents);
      const invoiceTaxCents = taxCents(seatsCents - creditUsed, row.taxRateMillionths);
      const amountCents = seatsCents - creditUsed + invoiceTaxCents;
      const paid = amountCents === 0 || charges(row);
      await tx.insert(sandboxInvoices).values({
        id: invoiceId,
        subscriptionId: id,
        amountCents,
        taxCents: invoiceTaxCents,
        status: paid ? 'paid' : 'open',
        periodStart: row.currentPeriodEnd,
        periodEnd,
        createdAt: sql`${SANDBOX_NOW}`,
        paidAt: paid ? sql`${SANDBOX_NOW}` : null,
      });
      await tx
        .update(sandboxSubscriptions)
        .set({
          ...(paid ? { currentPeriodEnd: periodEnd } : { status: 'past_due' as const }),
          creditCents: row.creditCents - creditUsed,
          updatedAt: new Date(),
        })
        .where(eq(sandboxSubscriptions.id, id));
      return paid ? sandboxEvent.invoicePaid(subject, invoiceId) : sandboxEvent.paymentFailed(subject, invoiceId, 1);
    });
    if (event) events.push(event);
  }
  return events;
}
