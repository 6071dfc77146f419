/**
 * The sandbox PaymentIntent's life (Stripe's statuses): requires_payment_method → succeeded, or →
 * requires_action → succeeded / back to requires_payment_method; canceled when its subscription is replaced.
 * Every change is one UPDATE guarded by the status it leaves, so concurrent confirmations cannot pay twice.
 * A checkout's refused confirmations are capped (MAX_FAILED_ATTEMPTS); then its intent is closed.
 * Paying marks the subscription active with amount_paid = amount_due (integer cents).
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

/**
 * Refused confirmations one checkout may have (all its subscriptions together, so a seat change does not reset
 * the count); then its intent is closed and the buyer must start a new checkout. Bounds card testing.
 */
const MAX_FAILED_ATTEMPTS = 3;

/** The refused confirmations of the checkout the updated row belongs to (SQL, for UPDATE … WHERE). */
const checkoutFailedAttempts = sql`(select coalesce(sum(attempts.failed_attempts), 0) from sandbox_subscriptions attempts where attempts.transaction_id = sandbox_subscriptions.transaction_id)`;

const payable = and(
  inArray(sandboxSubscriptions.paymentStatus, ['requires_payment_method', 'requires_action']),
  eq(sandboxSubscriptions.status, 'incomplete'),
  sql`${checkoutFailedAttempts} < ${MAX_FAILED_ATTEMPTS}`,
);

/**
 * Confirms the intent behind `clientSecret` with a test card of `behaviour` ending in `last4`, paid by
 * `billing` (kept with an accepted card, as Stripe keeps them on the payment method; cleared by a decline).
 * An intent that already succeeded answers succeeded again (idempotent); a cancelled one is not payable.
 */
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

/**
 * Completes or fails the authentication challenge of an intent in requires_action. Failing sends it back to
 * requires_payment_method, so the buyer can pay with another card; completing a succeeded one is idempotent.
 */
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

/** The checkout (our transactionId) whose intent has `clientSecret`, or undefined. */
export async function transactionOfClientSecret(db: Database, clientSecret: string): Promise<string | undefined> {
  const [row] = await db
    .select({ transactionId: sandboxSubscriptions.transactionId })
    .from(sandboxSubscriptions)
    .where(eq(sandboxSubscriptions.clientSecret, clientSecret));
  return row?.transactionId;
}
