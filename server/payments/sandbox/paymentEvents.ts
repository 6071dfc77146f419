/**
 * The sandbox's webhooks: what its card steps and its billing clock did, run through the same code path as
 * Stripe's events (server/orders/applyPaymentEvent.ts: completion, then the one lifecycle). An accepted
 * confirmation (or authentication) is the sandbox's `invoice.paid`, applied before the browser hears "succeeded",
 * so the order is paid and its account exists even if the tab closes right after the charge. Its event id is the
 * PaymentIntent's, so a repeated confirmation is processed once.
 */
import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { sandboxSubscriptions } from '../../db/schema';
import { recordPaymentAttempt } from '../../funnel/paymentAttempts';
import { applyPaymentEvents } from '../../orders/applyPaymentEvent';
import type { OrderContext } from '../../orders/order';
import type { PaymentEvent } from '../provider';
import type { IntentOutcome, PaidIntent } from './intents';

/**
 * Applies the payment event of `paid`. Never throws: the payment is taken whatever happens here, so a failure is
 * logged and left to the reconciliation sweep (server/orders/reconcileOrders.ts).
 */
export async function raiseSandboxPayment(context: OrderContext, paid: PaidIntent): Promise<void> {
  await applySandboxEvents(context, [
    {
      eventId: `sandbox:${paid.paymentIntentId}:paid`,
      kind: 'invoice_paid',
      providerType: 'sandbox.invoice.paid',
      subscriptionId: paid.subscriptionId,
      transactionId: paid.transactionId,
    },
  ]);
}

/**
 * Applies each of `events` (renewals, retries, cancellations, card and seat changes, refunds), in order. Never
 * throws: the sandbox already did what they report; a failure is logged (the next event or the sweep catches up).
 */
export async function applySandboxEvents(context: OrderContext, events: PaymentEvent[]): Promise<void> {
  for (const event of events) {
    try {
      await applyPaymentEvents(context, [event]);
    } catch (error) {
      context.log.error({ err: error, eventId: event.eventId, transactionId: event.transactionId }, 'Sandbox payment event failed');
    }
  }
}

/** Records a card step's funnel events for the checkout behind `clientSecret`; never throws. */
export async function recordSandboxAttempt(
  context: OrderContext,
  clientSecret: string,
  outcome: IntentOutcome,
  step: 'confirmation' | 'authentication',
): Promise<void> {
  if (outcome.kind === 'unknown' || outcome.kind === 'not_payable' || outcome.kind === 'not_awaiting_authentication') return;
  const transactionId = await transactionOfClientSecret(context.db, clientSecret).catch(() => undefined);
  if (!transactionId) return;
  const declineCode = outcome.kind === 'failed' ? (outcome.declineCode ?? outcome.code) : outcome.kind === 'too_many_failures' ? 'too_many_attempts' : undefined;
  await recordPaymentAttempt(context.db, transactionId, { step, ...(declineCode ? { declineCode } : {}) }, context.log);
}

async function transactionOfClientSecret(db: Database, clientSecret: string): Promise<string | undefined> {
  const [row] = await db
    .select({ transactionId: sandboxSubscriptions.transactionId })
    .from(sandboxSubscriptions)
    .where(eq(sandboxSubscriptions.clientSecret, clientSecret));
  return row?.transactionId;
}
