/**
 * The funnel events of the sandbox's card steps: each confirmation of a checkout's intent is 'payment_submitted';
 * a refusal (a decline, a failed authentication, too many attempts) is also 'payment_failed' with its code.
 */
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client';
import { orders, sandboxSubscriptions } from '../db/schema';
import type { IntentOutcome } from '../payments/sandboxIntents';
import { recordFunnelEventSafely } from './funnelEvents';

/** Records what `outcome` of a `step` on the intent of `clientSecret` means for the funnel; never throws. */
export async function recordSandboxAttempt(
  db: Database,
  clientSecret: string,
  outcome: IntentOutcome,
  step: 'confirmation' | 'authentication',
  log: FastifyBaseLogger,
): Promise<void> {
  if (outcome.kind === 'unknown' || outcome.kind === 'not_payable' || outcome.kind === 'not_awaiting_authentication') return;
  // The checkout's order (and its referrer) behind the intent, in one read; nothing for an intent without one.
  const [order] = await db
    .select({ transactionId: orders.transactionId, referrerId: orders.referrerId })
    .from(sandboxSubscriptions)
    .innerJoin(orders, eq(orders.transactionId, sandboxSubscriptions.transactionId))
    .where(eq(sandboxSubscriptions.clientSecret, clientSecret))
    .catch(() => []);
  if (!order) return;
  if (step === 'confirmation') await recordFunnelEventSafely(db, { type: 'payment_submitted', ...order }, log);
  if (outcome.kind === 'failed' || outcome.kind === 'too_many_failures') {
    // Stripe's decline_code for a declined card, else the error code (authentication failure, too many attempts).
    const declineCode = outcome.kind === 'failed' ? (outcome.declineCode ?? outcome.code) : 'too_many_attempts';
    await recordFunnelEventSafely(db, { type: 'payment_failed', ...order, detail: { declineCode } }, log);
  }
}
