/**
 * Disputes (chargebacks) of an order's payments, in the one lifecycle (./subscriptionLifecycle.ts): the provider's
 * dispute as it is now (events repeat and arrive out of order: `charge.dispute.closed` may come before
 * `.funds_withdrawn`) is compared with the order's record of it (order_disputes), and only what differs is applied.
 *
 * - Opened: recorded with its evidence deadline; the owner is mailed at once; the disputed payment's commission is
 *   taken back (the money is gone while the dispute is open). Seats stay while it is open (docs/decisions/0041).
 * - Won: the money came back: the commission is given back; the owner is mailed.
 * - Lost: the owner is mailed; the caller ends the subscription (the provider's cancel, then the order ended and
 *   its seats revoked through the lifecycle).
 * Money in integer cents.
 */
import { eq } from 'drizzle-orm';
import type { Transaction } from '../db/client';
import type { OrderListeners } from './orderListeners';
import { orderDisputes } from '../db/schema';
import { recordFunnelEvent } from '../funnel';
import type { ProviderDispute } from '../payments';

/** What changed about one dispute. `moneyMoved`: the disputed money went (opened) or came back (won). */
export interface DisputeChange {
  dispute: ProviderDispute;
  kind: 'opened' | 'updated' | 'won' | 'lost';
  moneyMoved: boolean;
}

type KnownDispute = typeof orderDisputes.$inferSelect;

/** The order's record of `disputeId`, or null. */
export async function knownDispute(tx: Transaction, disputeId: string): Promise<KnownDispute | null> {
  const [row] = await tx.select().from(orderDisputes).where(eq(orderDisputes.disputeId, disputeId));
  return row ?? null;
}

/**
 * What differs between the order's record (`known`, null when first heard of) and the provider's dispute. Pure.
 * A dispute first heard of already closed counts as opened and closed at once: its money went and, if won, came
 * back (net nothing); if lost, it stays gone.
 */
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

/** The commission entry's words for a dispute's change. */
export function disputeWords(change: DisputeChange): string {
  if (change.kind === 'won') return `dispute ${change.dispute.disputeId} won`;
  if (change.kind === 'lost') return `dispute ${change.dispute.disputeId} lost`;
  return `dispute ${change.dispute.disputeId} of ${change.dispute.amountCents} cents`;
}

/**
 * Records `change` for `order` in `tx`: the order_disputes row, a funnel event, and the owners' notice to
 * `listeners` (their mail: one per dispute and outcome, however often the event arrives). The commission is booked by the lifecycle's caller.
 */
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
