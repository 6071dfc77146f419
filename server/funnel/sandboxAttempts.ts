/**
 * The funnel events of the sandbox's card steps: each confirmation of a checkout's intent is 'payment_submitted';
 * a refusal (a decline, a failed authentication, too many attempts) is also 'payment_failed' with its code.
 */
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client';
import { sandboxSubscriptions } from '../db/schema';
import type { IntentOutcome } from '../payments/sandboxIntents';
import { recordOrderFunnelEvent } from './funnelEvents';

/** Records what `outcome` of a `step` on the intent of `clientSecret` means for the funnel; never throws. */
export async function recordSandboxAttempt(
  db: Database,
  clientSecret: string,
  outcome: IntentOutcome,
  step: 'confirmation' | 'authentication',
  log: FastifyBaseLogger,
): Promise<void> {
  if (outcome.kind === 'unknown' || outcome.kind === 'not_payable' || outcome.kind === 'not_awaiting_authentication') return;
  const [intent] = await db
    .select({ transactionId: sandboxSubscriptions.transactionId })
    .from(sandboxSubscriptions)
    .where(eq(sandboxSubscriptions.clientSecret, clientSecret))
    .catch(() => []);
  if (!intent) return;
  if (step === 'confirmation') await recordOrderFunnelEvent(db, intent.transactionId, { type: 'payment_submitted' }, log);
  if (outcome.kind === 'failed' || outcome.kind === 'too_many_failures') {
    // Stripe's decline_code for a declined card, else the error code (authentication failure, too many attempts).
    const declineCode = outcome.kind === 'failed' ? (outcome.declineCode ?? outcome.code) : 'too_many_attempts';
    await recordOrderFunnelEvent(db, intent.transactionId, { type: 'payment_failed', detail: { declineCode } }, log);
  }
}
