/**
 * The funnel events of a buyer's card steps, for any provider that sees them (the sandbox does; with Stripe the
 * card is confirmed in the browser): each confirmation is 'payment_submitted'; a refusal (a decline, a failed
 * authentication, too many attempts) is also 'payment_failed' with its code.
 */
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client';
import { orders } from '../db/schema';
import { recordFunnelEventSafely } from './funnelEvents';

/** One card step of the checkout `transactionId`: submitted, and refused with `declineCode` when it was. */
interface PaymentAttempt {
  step: 'confirmation' | 'authentication';
  /** Stripe's decline_code for a declined card, else the error code; absent when the step was not refused. */
  declineCode?: string;
}

/** Records what `attempt` means for the funnel of the order `transactionId`; never throws. */
export async function recordPaymentAttempt(
  db: Database,
  transactionId: string,
  attempt: PaymentAttempt,
  log: FastifyBaseLogger,
): Promise<void> {
  const [order] = await db
    .select({ transactionId: orders.transactionId, referrerId: orders.referrerId })
    .from(orders)
    .where(eq(orders.transactionId, transactionId))
    .catch(() => []);
  if (!order) return;
  if (attempt.step === 'confirmation') await recordFunnelEventSafely(db, { type: 'payment_submitted', ...order }, log);
  if (attempt.declineCode)
    await recordFunnelEventSafely(db, { type: 'payment_failed', ...order, detail: { declineCode: attempt.declineCode } }, log);
}
