/**
 * The sandbox PaymentIntent's life, in Stripe's statuses. Every change is one UPDATE guarded by the status it
 * leaves, so concurrent confirmations cannot pay twice. Integer cents.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { sandboxSubscriptions } from '../../db/schema';
import { SANDBOX_NOW } from './billing';
import { DECLINE_MESSAGES, type TestCardBehaviour } from './cards';

/** A first payment starts a month on the sandbox clock. */
const FIRST_PERIOD_END = sql`${SANDBOX_NOW} + interval '1 month'`;

/** The intent that was paid: its id, and the subscription and order it pays (for the payment event). */
export interface PaidIntent {
  paymentIntentId: string;
  subscriptionId: string;
  transactionId: string;
}

export type IntentOutcome =
  | ({ kind: 'succeeded' } & PaidIntent)
  | { kind: 'requires_action'; paymentIntentId: string }
  /** `declineCode` as Stripe's `last_payment_error.decline_code` for a declined card. */
  | {
      kind: 'failed';
      message: string;
      code: 'card_declined' | 'payment_intent_authentication_failure';
      declineCode?: 'generic_decline' | 'insufficient_funds';
    }
  | { kind: 'unknown' }
  | { kind: 'not_payable' }
  /** The checkout had MAX_FAILED_ATTEMPTS refused confirmations: its intent is closed. */
  | { kind: 'too_many_failures' }
  | { kind: 'not_awaiting_authentication' };

const paidIntentColumns = {
  paymentIntentId: sandboxSubscriptions.paymentIntentId,
  subscriptionId: sandboxSubscriptions.id,
  transactionId: sandboxSubscriptions.transactionId,
};

/** Bounds card testing; counted over all the checkout's subscriptions, so a seat change does not reset it. */
const MAX_FAILED_ATTEMPTS = 3;

/** The refused confirmations of the checkout the updated row belongs to (SQL, for UPDATE … WHERE). */
const checkoutFailedAttempts = sql`(select coalesce(sum(attempts.failed_attempts), 0) from sandbox_subscriptions attempts where attempts.transaction_id = sandbox_subscriptions.transaction_id)`;

const payable = and(
  inArray(sandboxSubscriptions.paymentStatus, ['requires_payment_method', 'requires_action']),
  eq(sandboxSubscriptions.status, 'incomplete'),
  sql`${checkoutFailedAttempts} < ${MAX_FAILED_ATTEMPTS}`,
);

/** Idempotent: an intent that already succeeded answers succeeded again; a cancelled one is not payable. */
export async function confirmSandboxIntent(
  db: Database,
  clientSecret: string,
  card: { behaviour: TestCardBehaviour; last4: string },
  billing: { name: string; email: string },
): Promise<IntentOutcome> {
  const bySecret = eq(sandboxSubscriptions.clientSecret, clientSecret);
  const accepted = { cardLast4: card.last4, billingName: billing.name, billingEmail: billing.email };
  const refused = {
    paymentStatus: 'requires_payment_method' as const,
    cardLast4: null,
    billingName: null,
    billingEmail: null,
    failedAttempts: sql`${sandboxSubscriptions.failedAttempts} + 1`,
  };
  const paid = {
    paymentStatus: 'succeeded' as const,
    status: 'active' as const,
    amountPaidCents: sql`${sandboxSubscriptions.amountDueCents}`,
    currentPeriodEnd: FIRST_PERIOD_END,
    ...accepted,
  };
  const changes = {
    succeeds: { ...paid, cardBehaviour: 'succeeds' },
    fails_later: { ...paid, cardBehaviour: 'fails_later' },
    disputed: { ...paid, cardBehaviour: 'disputed' },
    refund_fails: { ...paid, cardBehaviour: 'refund_fails' },
    requires_authentication: { paymentStatus: 'requires_action' as const, ...accepted, cardBehaviour: 'succeeds' },
    declined: refused,
    insufficient_funds: refused,
  }[card.behaviour];
  const [row] = await db
    .update(sandboxSubscriptions)
    .set({ ...changes, updatedAt: new Date() })
    .where(and(bySecret, payable))
    .returning(paidIntentColumns);
  if (!row) return settledOutcome(db, clientSecret);
  switch (card.behaviour) {
    case 'succeeds':
    case 'fails_later':
    case 'disputed':
    case 'refund_fails':
      return { kind: 'succeeded', ...row };
    case 'requires_authentication':
      return { kind: 'requires_action', paymentIntentId: row.paymentIntentId };
    case 'declined':
      await closeAfterTooManyFailures(db, row.transactionId);
      return { kind: 'failed', message: DECLINE_MESSAGES.declined, code: 'card_declined', declineCode: 'generic_decline' };
    case 'insufficient_funds':
      await closeAfterTooManyFailures(db, row.transactionId);
      return { kind: 'failed', message: DECLINE_MESSAGES.insufficient_funds, code: 'card_declined', declineCode: 'insufficient_funds' };
  }
}

/** Cancels the checkout's unpaid intents once its refused confirmations reach MAX_FAILED_ATTEMPTS. */
async function closeAfterTooManyFailures(db: Database, transactionId: string): Promise<void> {
  await db
    .update(sandboxSubscriptions)
    .set({ status: 'canceled', paymentStatus: 'canceled', updatedAt: new Date() })
    .where(
      and(
        eq(sandboxSubscriptions.transactionId, transactionId),
        eq(sandboxSubscriptions.status, 'incomplete'),
        sql`${checkoutFailedAttempts} >= ${MAX_FAILED_ATTEMPTS}`,
      ),
    );
}

/** A failed authentication goes back to requires_payment_method, so the buyer can try another card. */
export async function authenticateSandboxIntent(
  db: Database,
  clientSecret: string,
  outcome: 'completed' | 'failed',
): Promise<IntentOutcome> {
  const changes =
    outcome === 'completed'
      ? {
          paymentStatus: 'succeeded' as const,
          status: 'active' as const,
          amountPaidCents: sql`${sandboxSubscriptions.amountDueCents}`,
          currentPeriodEnd: FIRST_PERIOD_END,
        }
      : {
          paymentStatus: 'requires_payment_method' as const,
          cardLast4: null,
          billingName: null,
          billingEmail: null,
          failedAttempts: sql`${sandboxSubscriptions.failedAttempts} + 1`,
        };
  const [row] = await db
    .update(sandboxSubscriptions)
    .set({ ...changes, updatedAt: new Date() })
    .where(
      and(
        eq(sandboxSubscriptions.clientSecret, clientSecret),
        eq(sandboxSubscriptions.paymentStatus, 'requires_action'),
        eq(sandboxSubscriptions.status, 'incomplete'),
      ),
    )
    .returning(paidIntentColumns);
  if (row && outcome === 'completed') return { kind: 'succeeded', ...row };
  if (row) {
    await closeAfterTooManyFailures(db, row.transactionId);
    return { kind: 'failed', message: DECLINE_MESSAGES.authentication, code: 'payment_intent_authentication_failure' };
  }
  const settled = await settledOutcome(db, clientSecret);
  if (settled.kind === 'succeeded' && outcome === 'completed') return settled;
  return settled.kind === 'unknown' ? settled : { kind: 'not_awaiting_authentication' };
}

/** The outcome for an intent no guarded UPDATE could change: unknown, already succeeded, or not payable. */
async function settledOutcome(db: Database, clientSecret: string): Promise<IntentOutcome> {
  const [row] = await db
    .select({
      ...paidIntentColumns,
      paymentStatus: sandboxSubscriptions.paymentStatus,
      failedAttempts: sql<number>`${checkoutFailedAttempts}::int`,
    })
    .from(sandboxSubscriptions)
    .where(eq(sandboxSubscriptions.clientSecret, clientSecret));
  if (!row) return { kind: 'unknown' };
  const { paymentStatus, failedAttempts, ...paid } = row;
  if (paymentStatus === 'succeeded') return { kind: 'succeeded', ...paid };
  return failedAttempts >= MAX_FAILED_ATTEMPTS ? { kind: 'too_many_failures' } : { kind: 'not_payable' };
}

export async function transactionOfClientSecret(db: Database, clientSecret: string): Promise<string | undefined> {
  const [row] = await db
    .select({ transactionId: sandboxSubscriptions.transactionId })
    .from(sandboxSubscriptions)
    .where(eq(sandboxSubscriptions.clientSecret, clientSecret));
  return row?.transactionId;
}
