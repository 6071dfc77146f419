/**
 * The sandbox's billing after the first payment, so the whole life of a subscription runs offline as it would at
 * Stripe: a clock that tests can move forward (`POST /api/sandbox/clock/advance`), a monthly period, renewals
 * charged to the card on file (4000 0000 0000 0341 pays the first invoice and declines every later charge, as
 * Stripe's "decline after attaching" card), past-due retries on each clock advance, the end of the subscription
 * after RENEWAL_ATTEMPTS failed charges, cancellation at period end and its undo, and a card update that charges
 * the open invoice at once. Money in integer cents.
 */
import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import { monthlyTotalCents } from '../../src/domain/pricing';
import type { Database, Transaction } from '../db/client';
import { sandboxClock, sandboxInvoices, sandboxSubscriptions } from '../db/schema';
import { randomAlphanumeric } from '../security/randomText';
import type { TestCardBehaviour } from './sandboxCards';

/** The sandbox clock: the database's now() plus the offset tests moved it by. */
export const SANDBOX_NOW = sql`(now() + make_interval(secs => coalesce((select ${sandboxClock.offsetSeconds} from ${sandboxClock} where ${sandboxClock.id} = 1), 0)))`;

/** Charges of one renewal before the subscription ends unpaid (Stripe's default Smart Retries: a few tries). */
const RENEWAL_ATTEMPTS = 3;

/** What a renewal run did to one subscription; the order steps turn it into order changes and mail. */
export type RenewalEvent =
  | { kind: 'renewal_paid'; subscriptionId: string; transactionId: string; invoiceId: string; amountCents: number; recovered: boolean }
  | { kind: 'payment_failed'; subscriptionId: string; transactionId: string; invoiceId: string; amountCents: number }
  | { kind: 'ended'; subscriptionId: string; transactionId: string; reason: 'cancelled_at_period_end' | 'unpaid' };

/** A subscription's state as the manage page shows it. */
interface SubscriptionDetails {
  status: 'incomplete' | 'active' | 'past_due' | 'canceled';
  quantity: number;
  /** The end of the paid period (the next charge date), ISO 8601; null before the first payment. */
  currentPeriodEnd: string | null;
  cancelAtPeriodEnd: boolean;
  cardLast4: string | null;
  invoices: { id: string; amountCents: number; status: 'paid' | 'open' | 'uncollectible'; date: string }[];
}

/** Moves the sandbox clock forward by `seconds`; returns the new sandbox time. */
export async function advanceSandboxClock(db: Database, seconds: number): Promise<Date> {
  await db
    .insert(sandboxClock)
    .values({ id: 1, offsetSeconds: seconds })
    .onConflictDoUpdate({ target: sandboxClock.id, set: { offsetSeconds: sql`${sandboxClock.offsetSeconds} + ${seconds}` } });
  const [row] = await db.select({ now: sql<string>`${SANDBOX_NOW}::text` }).from(sql`(select 1) as one`);
  return new Date(row!.now);
}

const newInvoiceId = () => `in_sbx_${randomAlphanumeric(24)}`;

/** The subscription's details, or null for an unknown id. */
export async function sandboxSubscriptionDetails(db: Database, subscriptionId: string): Promise<SubscriptionDetails | null> {
  const [row] = await db.select().from(sandboxSubscriptions).where(eq(sandboxSubscriptions.id, subscriptionId));
  if (!row) return null;
  const later = await db.select().from(sandboxInvoices).where(eq(sandboxInvoices.subscriptionId, subscriptionId)).orderBy(asc(sandboxInvoices.createdAt));
  const first = row.amountPaidCents > 0 ? [{ id: `in_sbx_first_${row.id}`, amountCents: row.amountPaidCents, status: 'paid' as const, date: row.updatedAt.toISOString() }] : [];
  return {
    status: row.status,
    quantity: row.quantity,
    currentPeriodEnd: row.currentPeriodEnd?.toISOString() ?? null,
    cancelAtPeriodEnd: row.cancelAtPeriodEnd,
    cardLast4: row.cardLast4,
    invoices: [...first, ...later.map((invoice) => ({ id: invoice.id, amountCents: invoice.amountCents, status: invoice.status, date: invoice.createdAt.toISOString() }))],
  };
}

/**
 * Sets or clears cancellation at the end of the paid period of an active or past-due subscription; returns the
 * period's end, or null when the subscription is not one that can be (unknown, unpaid or already ended).
 */
export async function setSandboxCancelAtPeriodEnd(db: Database, subscriptionId: string, cancel: boolean): Promise<Date | null> {
  const [row] = await db
    .update(sandboxSubscriptions)
    .set({ cancelAtPeriodEnd: cancel, updatedAt: new Date() })
    .where(and(eq(sandboxSubscriptions.id, subscriptionId), inArray(sandboxSubscriptions.status, ['active', 'past_due'])))
    .returning({ currentPeriodEnd: sandboxSubscriptions.currentPeriodEnd });
  return row?.currentPeriodEnd ?? null;
}

/**
 * Changes the seats of an active subscription now; the difference for the rest of the period is charged (or
 * credited) at the next renewal, as Stripe's proration does by default. Returns the new monthly total in cents,
 * or null when the subscription is not active.
 */
export async function setSandboxQuantity(db: Database, subscriptionId: string, quantity: number): Promise<number | null> {
  const [row] = await db
    .update(sandboxSubscriptions)
    .set({ quantity, amountDueCents: monthlyTotalCents(quantity), updatedAt: new Date() })
    .where(and(eq(sandboxSubscriptions.id, subscriptionId), eq(sandboxSubscriptions.status, 'active')))
    .returning({ amountDueCents: sandboxSubscriptions.amountDueCents });
  return row?.amountDueCents ?? null;
}

/**
 * Puts a new card on the subscription and, if a renewal is open, charges it at once. Returns what that charge
 * did (null: nothing was open), or 'unknown' for a subscription that is not active or past due.
 */
export async function updateSandboxCard(
  db: Database,
  subscriptionId: string,
  card: { behaviour: TestCardBehaviour; last4: string },
): Promise<RenewalEvent | null | 'unknown'> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(sandboxSubscriptions)
      .set({ cardLast4: card.last4, cardBehaviour: card.behaviour, updatedAt: new Date() })
      .where(and(eq(sandboxSubscriptions.id, subscriptionId), inArray(sandboxSubscriptions.status, ['active', 'past_due'])))
      .returning();
    if (!row) return 'unknown';
    if (row.status !== 'past_due') return null;
    return chargeOpenInvoice(tx, row);
  });
}

type SubscriptionRow = typeof sandboxSubscriptions.$inferSelect;

const charges = (row: SubscriptionRow) => row.cardBehaviour !== 'fails_later' && row.cardBehaviour !== 'declined' && row.cardBehaviour !== 'insufficient_funds';

/** Charges the open renewal of a past-due subscription again (a retry, or after a card update). */
async function chargeOpenInvoice(tx: Transaction, row: SubscriptionRow): Promise<RenewalEvent | null> {
  const [invoice] = await tx
    .select()
    .from(sandboxInvoices)
    .where(and(eq(sandboxInvoices.subscriptionId, row.id), eq(sandboxInvoices.status, 'open')))
    .for('update');
  if (!invoice) return null;
  const base = { subscriptionId: row.id, transactionId: row.transactionId, invoiceId: invoice.id, amountCents: invoice.amountCents };
  if (charges(row)) {
    await tx.update(sandboxInvoices).set({ status: 'paid', paidAt: sql`${SANDBOX_NOW}`, attempts: invoice.attempts + 1 }).where(eq(sandboxInvoices.id, invoice.id));
    await tx
      .update(sandboxSubscriptions)
      .set({ status: 'active', currentPeriodEnd: invoice.periodEnd, updatedAt: new Date() })
      .where(eq(sandboxSubscriptions.id, row.id));
    return { kind: 'renewal_paid', ...base, recovered: true };
  }
  const attempts = invoice.attempts + 1;
  if (attempts >= RENEWAL_ATTEMPTS) {
    await tx.update(sandboxInvoices).set({ status: 'uncollectible', attempts }).where(eq(sandboxInvoices.id, invoice.id));
    await tx.update(sandboxSubscriptions).set({ status: 'canceled', updatedAt: new Date() }).where(eq(sandboxSubscriptions.id, row.id));
    return { kind: 'ended', subscriptionId: row.id, transactionId: row.transactionId, reason: 'unpaid' };
  }
  await tx.update(sandboxInvoices).set({ attempts }).where(eq(sandboxInvoices.id, invoice.id));
  return { kind: 'payment_failed', ...base };
}

/**
 * Renews every subscription whose period has ended on the sandbox clock: ends it when cancelled at period end,
 * charges a new month otherwise (past due when the card declines), and retries an open renewal. Returns what
 * happened to each, for the order steps.
 */
export async function renewDueSandboxSubscriptions(db: Database): Promise<RenewalEvent[]> {
  const due = await db
    .select({ id: sandboxSubscriptions.id })
    .from(sandboxSubscriptions)
    .where(and(inArray(sandboxSubscriptions.status, ['active', 'past_due']), lte(sandboxSubscriptions.currentPeriodEnd, SANDBOX_NOW)));
  const events: RenewalEvent[] = [];
  for (const { id } of due) {
    const event = await db.transaction(async (tx): Promise<RenewalEvent | null> => {
      const [row] = await tx.select().from(sandboxSubscriptions).where(eq(sandboxSubscriptions.id, id)).for('update');
      if (!row?.currentPeriodEnd || (row.status !== 'active' && row.status !== 'past_due')) return null;
      if (row.cancelAtPeriodEnd) {
        await tx.update(sandboxSubscriptions).set({ status: 'canceled', updatedAt: new Date() }).where(eq(sandboxSubscriptions.id, id));
        return { kind: 'ended', subscriptionId: id, transactionId: row.transactionId, reason: 'cancelled_at_period_end' };
      }
      if (row.status === 'past_due') return chargeOpenInvoice(tx, row);
      const periodEnd = sql`${row.currentPeriodEnd.toISOString()}::timestamptz + interval '1 month'`;
      const invoiceId = newInvoiceId();
      const amountCents = row.amountDueCents;
      const paid = charges(row);
      await tx.insert(sandboxInvoices).values({
        id: invoiceId,
        subscriptionId: id,
        amountCents,
        status: paid ? 'paid' : 'open',
        periodStart: row.currentPeriodEnd,
        periodEnd,
        createdAt: sql`${SANDBOX_NOW}`,
        paidAt: paid ? sql`${SANDBOX_NOW}` : null,
      });
      await tx
        .update(sandboxSubscriptions)
        .set(paid ? { currentPeriodEnd: periodEnd, updatedAt: new Date() } : { status: 'past_due', updatedAt: new Date() })
        .where(eq(sandboxSubscriptions.id, id));
      const base = { subscriptionId: id, transactionId: row.transactionId, invoiceId, amountCents };
      return paid ? { kind: 'renewal_paid', ...base, recovered: false } : { kind: 'payment_failed', ...base };
    });
    if (event) events.push(event);
  }
  return events;
}
