/**
 * Disputes (chargebacks): the provider's dispute as it is now is compared with order_disputes, since events arrive
 * out of order (`charge.dispute.closed` may come before `.funds_withdrawn`). Seats stay while a dispute is open
 * (docs/decisions/0041). Money in cents.
 */
import { eq } from 'drizzle-orm';
import type { Transaction } from '../db/client';
import type { OrderListeners } from './orderListeners';
import { orderDisputes } from '../db/schema';
import { recordFunnelEvent } from '../funnel';
import type { ProviderDispute } from '../payments';

export interface DisputeChange {
  dispute: ProviderDispute;
  kind: 'opened' | 'updated' | 'won' | 'lost';
  moneyMoved: boolean;
}

type KnownDispute = typeof orderDisputes.$inferSelect;

export async function knownDispute(tx: Transaction, disputeId: string): Promise<KnownDispute | null> {
  const [row] = await tx.select().from(orderDisputes).where(eq(orderDisputes.disputeId, disputeId));
  return row ?? null;
}

/** Pure. A dispute first heard of already closed counts as opened and closed at once. */
export function disputeChangeOf(known: KnownDispute | null, dispute: ProviderDispute): DisputeChange | null {
  if (!known) {
    if (dispute.outcome === 'open') return { dispute, kind: 'opened', moneyMoved: true };
    return { dispute, kind: dispute.outcome, moneyMoved: dispute.outcome === 'lost' };
  }
  if (known.outcome !== dispute.outcome) {
    // Won after open: the money came back. Lost after open: it was already taken back when opened.
    if (dispute.outcome === 'won') return { dispute, kind: 'won', moneyMoved: true };
    if (dispute.outcome === 'lost') return { dispute, kind: 'lost', moneyMoved: known.outcome === 'won' };
    return { dispute, kind: 'updated', moneyMoved: true };
  }
  const due = dispute.evidenceDueBy ? new Date(dispute.evidenceDueBy).getTime() : null;
  if (
    known.providerStatus !== dispute.status ||
    (known.evidenceDueBy?.getTime() ?? null) !== due ||
    known.amountCents !== dispute.amountCents
  )
    return { dispute, kind: 'updated', moneyMoved: known.amountCents !== dispute.amountCents };
  return null;
}

export function disputeWords(change: DisputeChange): string {
  if (change.kind === 'won') return `dispute ${change.dispute.disputeId} won`;
  if (change.kind === 'lost') return `dispute ${change.dispute.disputeId} lost`;
  return `dispute ${change.dispute.disputeId} of ${change.dispute.amountCents} cents`;
}

/** The owners' mail is one per dispute and outcome, however often the event arrives. */
export async function applyDisputeChange(
  tx: Transaction,
  listeners: OrderListeners,
  order: { transactionId: string; referrerId: string | null },
  { dispute, kind }: DisputeChange,
): Promise<void> {
  const now = new Date();
  const values = {
    transactionId: order.transactionId,
    paymentId: dispute.paymentId,
    amountCents: dispute.amountCents,
    providerStatus: dispute.status,
    outcome: dispute.outcome,
    reason: dispute.reason,
    evidenceDueBy: dispute.evidenceDueBy ? new Date(dispute.evidenceDueBy) : null,
    updatedAt: now,
    closedAt: dispute.outcome === 'open' ? null : now,
  };
  await tx
    .insert(orderDisputes)
    .values({ disputeId: dispute.disputeId, ...values })
    .onConflictDoUpdate({ target: orderDisputes.disputeId, set: values });
  const { transactionId, referrerId } = order;
  if (kind === 'updated') return;
  if (kind === 'opened') {
    await recordFunnelEvent(tx, { type: 'disputed', transactionId, referrerId, detail: { amountCents: dispute.amountCents } });
  } else {
    await recordFunnelEvent(tx, {
      type: 'dispute_closed',
      transactionId,
      referrerId,
      detail: { amountCents: dispute.amountCents, outcome: kind },
    });
  }
  await listeners.announce(tx, 'ownerNotice', {
    kind: kind === 'opened' ? 'dispute_opened' : kind === 'won' ? 'dispute_won' : 'dispute_lost',
    transactionId,
    changeId: dispute.disputeId,
    amountCents: dispute.amountCents,
    evidenceDueBy: dispute.evidenceDueBy,
    reason: dispute.reason,
  });
}
