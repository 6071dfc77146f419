/**
 * Disputes as Stripe's test card 4000 0000 0000 0259 makes them (Stripe docs, "Testing"); one past its evidence
 * deadline is lost, as one answered with no evidence is (Stripe docs, "Respond to disputes").
 */
import { and, eq, lte, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { sandboxDisputes, sandboxSubscriptions } from '../../db/schema';
import { randomAlphanumeric } from '../../security/randomText';
import type { PaymentEvent, ProviderDispute } from '../provider';
import { SANDBOX_NOW } from './billing';

/** Stripe gives about 7 to 21 days to answer a dispute; the sandbox takes the shortest. */
const EVIDENCE_DAYS = 7;

const disputeEvent = (row: { id: string; subscriptionId: string }, transactionId: string, what: string): PaymentEvent => ({
  eventId: `sandbox:${row.id}:${what}`,
  kind: 'payment_disputed',
  providerType: `sandbox.charge.dispute.${what}`,
  subscriptionId: row.subscriptionId,
  transactionId,
  disputeId: row.id,
});

/** Opens a dispute of the first payment when its card is the disputing test card; at most one per payment. */
export async function openSandboxDisputeIfAny(db: Database, subscriptionId: string): Promise<PaymentEvent[]> {
  const [row] = await db.select().from(sandboxSubscriptions).where(eq(sandboxSubscriptions.id, subscriptionId));
  if (!row || row.cardBehaviour !== 'disputed' || row.amountPaidCents === 0) return [];
  const [existing] = await db.select().from(sandboxDisputes).where(eq(sandboxDisputes.paymentId, row.paymentIntentId));
  if (existing) return [];
  const [dispute] = await db
    .insert(sandboxDisputes)
    .values({
      id: `du_sbx_${randomAlphanumeric(24)}`,
      subscriptionId: row.id,
      paymentId: row.paymentIntentId,
      amountCents: row.amountPaidCents,
      status: 'needs_response',
      reason: 'fraudulent',
      evidenceDueBy: sql`${SANDBOX_NOW} + make_interval(days => ${EVIDENCE_DAYS})`,
    })
    .returning();
  return [disputeEvent(dispute!, row.transactionId, 'created')];
}

/** 'unknown' for no such dispute, 'closed' for one already closed (nothing changes). */
export async function closeSandboxDispute(
  db: Database,
  disputeId: string,
  outcome: 'won' | 'lost',
): Promise<{ ok: true; event: PaymentEvent } | { ok: false; refusal: 'unknown' | 'closed' }> {
  const [closed] = await db
    .update(sandboxDisputes)
    .set({ status: outcome })
    .where(and(eq(sandboxDisputes.id, disputeId), eq(sandboxDisputes.status, 'needs_response')))
    .returning();
  if (!closed) {
    const [row] = await db.select({ id: sandboxDisputes.id }).from(sandboxDisputes).where(eq(sandboxDisputes.id, disputeId));
    return { ok: false, refusal: row ? 'closed' : 'unknown' };
  }
  const [subscription] = await db
    .select({ transactionId: sandboxSubscriptions.transactionId })
    .from(sandboxSubscriptions)
    .where(eq(sandboxSubscriptions.id, closed.subscriptionId));
  return { ok: true, event: disputeEvent(closed, subscription!.transactionId, 'closed') };
}

/** Closes `lost` every open dispute past its evidence deadline: the sandbox has no evidence form. */
export async function closeOverdueSandboxDisputes(db: Database): Promise<PaymentEvent[]> {
  const overdue = await db
    .select({ id: sandboxDisputes.id })
    .from(sandboxDisputes)
    .where(and(eq(sandboxDisputes.status, 'needs_response'), lte(sandboxDisputes.evidenceDueBy, SANDBOX_NOW)))
    .orderBy(sandboxDisputes.evidenceDueBy);
  const events: PaymentEvent[] = [];
  for (const { id } of overdue) {
    const closed = await closeSandboxDispute(db, id, 'lost');
    if (closed.ok) events.push(closed.event);
  }
  return events;
}

/** A sandbox dispute as the provider interface reads it; null for an unknown id. */
export async function sandboxDispute(db: Database, disputeId: string): Promise<ProviderDispute | null> {
  const [row] = await db
    .select({ dispute: sandboxDisputes, customerId: sandboxSubscriptions.customerId })
    .from(sandboxDisputes)
    .innerJoin(sandboxSubscriptions, eq(sandboxSubscriptions.id, sandboxDisputes.subscriptionId))
    .where(eq(sandboxDisputes.id, disputeId));
  if (!row) return null;
  const { dispute } = row;
  return {
    disputeId: dispute.id,
    paymentId: dispute.paymentId,
    customerId: row.customerId,
    amountCents: dispute.amountCents,
    status: dispute.status,
    outcome: dispute.status === 'needs_response' ? 'open' : dispute.status,
    reason: dispute.reason,
    evidenceDueBy: dispute.evidenceDueBy.toISOString(),
  };
}
