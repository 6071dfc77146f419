/**
 * The sandbox PaymentIntent's life (Stripe's statuses): requires_payment_method → succeeded, or →
 * requires_action → succeeded / back to requires_payment_method; canceled when its subscription is replaced.
 * Every change is one UPDATE guarded by the status it leaves, so concurrent confirmations cannot pay twice.
 * Paying marks the subscription active with amount_paid = amount_due (integer cents).
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { sandboxSubscriptions } from '../db/schema';
import type { TestCardBehaviour } from './sandboxCards';

export type IntentOutcome =
  | { kind: 'succeeded'; paymentIntentId: string }
  | { kind: 'requires_action'; paymentIntentId: string }
  | { kind: 'failed'; message: string; code: 'card_declined' | 'payment_intent_authentication_failure' }
  | { kind: 'unknown' }
  | { kind: 'not_payable' }
  | { kind: 'not_awaiting_authentication' };

/** Stripe's decline messages for the sandbox's failing cards. */
export const DECLINES = {
  declined: 'Your card was declined.',
  insufficient_funds: 'Your card has insufficient funds.',
  authentication:
    'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
} as const;

const payable = and(
  inArray(sandboxSubscriptions.paymentStatus, ['requires_payment_method', 'requires_action']),
  eq(sandboxSubscriptions.status, 'incomplete'),
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
  const refused = { paymentStatus: 'requires_payment_method' as const, cardLast4: null, billingName: null, billingEmail: null };
  const changes = {
    succeeds: {
      paymentStatus: 'succeeded' as const,
      status: 'active' as const,
      amountPaidCents: sql`${sandboxSubscriptions.amountDueCents}`,
      ...accepted,
    },
    requires_authentication: { paymentStatus: 'requires_action' as const, ...accepted },
    declined: refused,
    insufficient_funds: refused,
  }[card.behaviour];
  const [row] = await db
    .update(sandboxSubscriptions)
    .set({ ...changes, updatedAt: new Date() })
    .where(and(bySecret, payable))
    .returning({ paymentIntentId: sandboxSubscriptions.paymentIntentId });
  if (!row) return settledOutcome(db, clientSecret);
  switch (card.behaviour) {
    case 'succeeds':
      return { kind: 'succeeded', paymentIntentId: row.paymentIntentId };
    case 'requires_authentication':
      return { kind: 'requires_action', paymentIntentId: row.paymentIntentId };
    case 'declined':
      return { kind: 'failed', message: DECLINES.declined, code: 'card_declined' };
    case 'insufficient_funds':
      return { kind: 'failed', message: DECLINES.insufficient_funds, code: 'card_declined' };
  }
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
        }
      : { paymentStatus: 'requires_payment_method' as const, cardLast4: null, billingName: null, billingEmail: null };
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
    .returning({ paymentIntentId: sandboxSubscriptions.paymentIntentId });
  if (row && outcome === 'completed') return { kind: 'succeeded', paymentIntentId: row.paymentIntentId };
  if (row) return { kind: 'failed', message: DECLINES.authentication, code: 'payment_intent_authentication_failure' };
  const settled = await settledOutcome(db, clientSecret);
  if (settled.kind === 'succeeded' && outcome === 'completed') return settled;
  return settled.kind === 'unknown' ? settled : { kind: 'not_awaiting_authentication' };
}

/** The outcome for an intent no guarded UPDATE could change: unknown, already succeeded, or not payable. */
async function settledOutcome(db: Database, clientSecret: string): Promise<IntentOutcome> {
  const [row] = await db
    .select({ paymentIntentId: sandboxSubscriptions.paymentIntentId, paymentStatus: sandboxSubscriptions.paymentStatus })
    .from(sandboxSubscriptions)
    .where(eq(sandboxSubscriptions.clientSecret, clientSecret));
  if (!row) return { kind: 'unknown' };
  if (row.paymentStatus === 'succeeded') return { kind: 'succeeded', paymentIntentId: row.paymentIntentId };
  return { kind: 'not_payable' };
}
