/** A card step's funnel events, where the provider sees it (Stripe confirms in the browser). */
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client';
import { orders } from '../db/schema';
import { recordFunnelEventSafely } from './funnelEvents';

interface PaymentAttempt {
  step: 'confirmation' | 'authentication';
  /** Stripe's decline_code, else the error code. */
  declineCode?: string;
}

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
