/**
 * The one lifecycle of a paid subscription: the only code that turns the provider's report into the order's state,
 * funnel events and outbox rows. It compares the subscription as the provider reports it now with the order read
 * under its row lock, so two racing events change the order once.
 *
 * Outbox rows are keyed by the provider event (renewals and failures by their invoice), so each change mails once,
 * however often the same event arrives. Commissions move only with money: a cancellation without a refund reverses
 * nothing.
 */
import { and, eq, sql, type SQL } from 'drizzle-orm';
import { formatDollars, monthlyTotalCents } from '../../src/domain/pricing';
import { refundedTaxCents } from '../../src/domain/tax';
import type { Transaction } from '../db/client';
import { funnelEvents, orderRefunds, orders } from '../db/schema';
import { applyDisputeChange, disputeWords, type DisputeChange } from './disputes';
import { recordFunnelEvent } from '../funnel';
import type { PaymentEvent, RefundedPayment, SubscriptionPayment } from '../payments';
import type { Order } from './order';
import type { OrderListeners } from './orderListeners';

type EndReason = 'cancelled_at_period_end' | 'unpaid' | 'refunded' | 'deleted' | 'dispute_lost';

interface LifecycleChanges {
  ended?: { reason: EndReason };
  status?: 'paid' | 'past_due';
  /** Cents, tax included. */
  failedInvoice?: { invoiceId: string; amountCents: number; taxCents: number };
  /** `amountCents` is Stripe's `amount_paid`, tax included (commissions are on the rest). */
  paidRenewal?: { invoiceId: string; paymentId: string | null; amountCents: number; taxCents: number; recovered: boolean };
  /** See docs/decisions/0045. */
  paidProration?: { invoiceId: string; paymentId: string | null; amountCents: number; taxCents: number; seats: number };
  seats?: { from: number; to: number };
  /** Cents. */
  monthlyTaxCents?: number;
  cancelAt?: Date | null;
  cancelReason?: string;
  /**
   * Cents: `refundedCents` and its `taxRefundedCents` so far on the payment, `addedCents` and its `taxAddedCents` by
   * this refund; the tax share follows docs/decisions/0074.
   */
  refund?: { paymentId: string; refundedCents: number; taxRefundedCents: number; addedCents: number; taxAddedCents: number };
  refundFailed?: { paymentId: string; refundedCents: number; taxRefundedCents: number; givenBackCents: number };
  dispute?: DisputeChange;
}

/** Pure. `knownRefundedCents` in cents. */
export function lifecycleChanges(
  order: Order,
  payment: SubscriptionPayment,
  event: PaymentEvent,
  refunded: RefundedPayment | null,
  knownRefundedCents: number,
  dispute: DisputeChange | null = null,
): LifecycleChanges {
  const changes: LifecycleChanges = {};
  if (refunded && refunded.refundedCents > knownRefundedCents) {
    const taxRefunded = taxShareOf(refunded);
    changes.refund = {
      paymentId: refunded.paymentId,
      refundedCents: refunded.refundedCents,
      taxRefundedCents: taxRefunded,
      addedCents: refunded.refundedCents - knownRefundedCents,
      // The share is taken on the payment's refunds so far, so refunds in parts add up to its whole tax.
      taxAddedCents: taxRefunded - taxShareOf({ ...refunded, refundedCents: knownRefundedCents }),
    };
  } else if (refunded && refunded.refundedCents < knownRefundedCents) {
    changes.refundFailed = {
      paymentId: refunded.paymentId,
      refundedCents: refunded.refundedCents,
      taxRefundedCents: taxShareOf(refunded),
      givenBackCents: knownRefundedCents - refunded.refundedCents,
    };
  }
  if (dispute) changes.dispute = dispute;
  if (order.status === 'cancelled') return changes;
  if (payment.state === 'canceled' || payment.state === 'unpaid') {
    changes.ended = { reason: endReason(order, payment, event, changes) };
    return changes;
  }
  const life = payment.lifecycle;
  const invoice = life.latestInvoice;
  if ((payment.state === 'past_due' || payment.state === 'paused') && order.status === 'paid') {
    changes.status = 'past_due';
    if (invoice) changes.failedInvoice = { invoiceId: invoice.invoiceId, amountCents: invoice.amountDueCents, taxCents: invoice.taxCents };
  } else if (payment.state === 'active' && order.status === 'past_due') {
    changes.status = 'paid';
    if (invoice?.state === 'paid') changes.paidRenewal = paidRenewalOf(invoice, true);
  } else if (event.kind === 'invoice_paid' && invoice?.renewal && invoice.state === 'paid') {
    changes.paidRenewal = paidRenewalOf(invoice, false);
  } else if (event.kind === 'invoice_paid' && invoice?.proration && invoice.state === 'paid' && invoice.amountPaidCents > 0) {
    const { invoiceId, paymentId, amountPaidCents, taxCents } = invoice;
    changes.paidProration = { invoiceId, paymentId, amountCents: amountPaidCents, taxCents, seats: payment.quantity };
  }
  if (payment.quantity !== order.quantity) changes.seats = { from: order.quantity, to: payment.quantity };
  if (life.monthlyTaxCents !== order.taxCents) changes.monthlyTaxCents = life.monthlyTaxCents;
  const cancelAt = life.cancelAt ? new Date(life.cancelAt) : null;
  if (cancelAt && cancelAt.getTime() !== order.cancelAt?.getTime()) {
    changes.cancelAt = cancelAt;
    const reason = event.reason ?? life.cancellationReason ?? undefined;
    if (reason) changes.cancelReason = reason;
  }
  if (!cancelAt && order.cancelAt) changes.cancelAt = null;
  return changes;
}

/** Cents. */
function taxShareOf(refunded: RefundedPayment): number {
  return refundedTaxCents(refunded.refundedCents, refunded.amountCents, refunded.taxCents);
}

type LatestInvoice = NonNullable<SubscriptionPayment['lifecycle']['latestInvoice']>;

/** A paid renewal: its receipt and commission use what was paid (`amount_paid`), not what was due. */
function paidRenewalOf(invoice: LatestInvoice, recovered: boolean): NonNullable<LifecycleChanges['paidRenewal']> {
  return {
    invoiceId: invoice.invoiceId,
    paymentId: invoice.paymentId,
    amountCents: invoice.amountPaidCents,
    taxCents: invoice.taxCents,
    recovered,
  };
}

function endReason(order: Order, payment: SubscriptionPayment, event: PaymentEvent, changes: LifecycleChanges): EndReason {
  if (changes.refund || event.kind === 'payment_refunded') return 'refunded';
  if (changes.dispute?.dispute.outcome === 'lost') return 'dispute_lost';
  if (payment.state === 'unpaid' || order.status === 'past_due') return 'unpaid';
  return order.cancelAt ? 'cancelled_at_period_end' : 'deleted';
}

/**
 * Announces in `tx`; `clock` is the provider's billing clock, on which commissions are booked.
 * @throws database errors and listeners' errors: the caller's transaction rolls back with everything they wrote.
 */
export async function applyLifecycleChanges(
  tx: Transaction,
  listeners: OrderListeners,
  order: Order,
  event: PaymentEvent,
  changes: LifecycleChanges,
  clock?: SQL,
): Promise<void> {
  const { transactionId, referrerId } = order;
  const now = new Date();
  const changeKey = event.eventId;
  await tx
    .update(orders)
    .set({
      ...(changes.status ? { status: changes.status, pastDueSince: changes.status === 'past_due' ? now : null } : {}),
      ...(changes.ended ? { status: 'cancelled' as const, cancelledAt: now } : {}),
      ...(changes.seats ? { quantity: changes.seats.to, amountCents: monthlyTotalCents(changes.seats.to) } : {}),
      ...(changes.monthlyTaxCents !== undefined ? { taxCents: changes.monthlyTaxCents } : {}),
      ...(changes.cancelAt !== undefined
        ? { cancelAt: changes.cancelAt, cancellationReason: changes.cancelAt ? (changes.cancelReason ?? null) : null }
        : {}),
      ...(changes.refund ? { refundedCents: sql`${orders.refundedCents} + ${changes.refund.addedCents}`, refundedAt: now } : {}),
      updatedAt: now,
    })
    .where(eq(orders.transactionId, transactionId));
  if (changes.refund) {
    const { paymentId, refundedCents, taxRefundedCents: taxCents, addedCents, taxAddedCents } = changes.refund;
    await tx
      .insert(orderRefunds)
      .values({ transactionId, paymentId, refundedCents, taxCents })
      .onConflictDoUpdate({
        target: [orderRefunds.transactionId, orderRefunds.paymentId],
        set: { refundedCents, taxCents, updatedAt: now },
      });
    await recordFunnelEvent(tx, { type: 'refunded', transactionId, referrerId, detail: { amountCents: addedCents } });
    const subscription = changes.ended || order.status === 'cancelled' ? 'ended' : 'continues';
    await listeners.announce(tx, 'orderEvent', {
      kind: 'refunded',
      transactionId,
      changeId: changeKey,
      amountCents: addedCents,
      taxCents: taxAddedCents,
      subscription,
    });
  }
  if (changes.refundFailed) {
    const { paymentId, refundedCents, taxRefundedCents: taxCents, givenBackCents } = changes.refundFailed;
    await tx
      .update(orders)
      .set({ refundedCents: sql`greatest(${orders.refundedCents} - ${givenBackCents}, 0)`, updatedAt: now })
      .where(eq(orders.transactionId, transactionId));
    await tx
      .update(orderRefunds)
      .set({ refundedCents, taxCents, updatedAt: now })
      .where(and(eq(orderRefunds.transactionId, transactionId), eq(orderRefunds.paymentId, paymentId)));
    await recordFunnelEvent(tx, { type: 'refund_failed', transactionId, referrerId, detail: { amountCents: givenBackCents } });
    await listeners.announce(tx, 'ownerNotice', { kind: 'refund_failed', transactionId, changeId: changeKey, amountCents: givenBackCents });
  }
  if (changes.dispute) await applyDisputeChange(tx, listeners, order, changes.dispute);
  if (changes.failedInvoice) {
    await recordFunnelEvent(tx, {
      type: 'payment_failed',
      transactionId,
      referrerId,
      detail: { invoice: changes.failedInvoice.invoiceId },
    });
    await listeners.announce(tx, 'orderEvent', { kind: 'payment_failed', transactionId, ...changes.failedInvoice });
  }
  if (changes.paidRenewal) {
    // A recovered renewal is reported twice (the subscription active again, then its invoice.paid, in either
    // order or repeated under a new event id): money collected counts each invoice once.
    if (!(await invoiceBooked(tx, transactionId, 'renewal_paid', changes.paidRenewal.invoiceId)))
      await recordFunnelEvent(tx, {
        type: 'renewal_paid',
        transactionId,
        referrerId,
        detail: { amountCents: changes.paidRenewal.amountCents, invoice: changes.paidRenewal.invoiceId },
      });
    await listeners.announce(tx, 'orderEvent', { kind: 'renewal_paid', transactionId, ...changes.paidRenewal });
  }
  if (changes.paidProration) {
    const { invoiceId, amountCents } = changes.paidProration;
    if (!(await invoiceBooked(tx, transactionId, 'proration_paid', invoiceId)))
      await recordFunnelEvent(tx, { type: 'proration_paid', transactionId, referrerId, detail: { amountCents, invoice: invoiceId } });
    await listeners.announce(tx, 'orderEvent', { kind: 'proration_paid', transactionId, ...changes.paidProration });
  }
  if (changes.seats) {
    await recordFunnelEvent(tx, { type: 'seats_changed', transactionId, referrerId, detail: changes.seats });
    await listeners.announce(tx, 'orderEvent', {
      kind: 'seats_changed',
      transactionId,
      changeId: changeKey,
      ...changes.seats,
      amountCents: monthlyTotalCents(changes.seats.to),
      taxCents: changes.monthlyTaxCents ?? order.taxCents,
    });
  }
  if (changes.cancelAt) {
    const cancelAt = changes.cancelAt.toISOString();
    await recordFunnelEvent(tx, {
      type: 'cancel_scheduled',
      transactionId,
      referrerId,
      detail: changes.cancelReason ? { cancelAt, reason: changes.cancelReason } : { cancelAt },
    });
    await listeners.announce(tx, 'orderEvent', { kind: 'cancel_scheduled', transactionId, changeId: changeKey, cancelAt });
  }
  if (changes.cancelAt === null) {
    await recordFunnelEvent(tx, { type: 'cancel_undone', transactionId, referrerId });
    await listeners.announce(tx, 'orderEvent', { kind: 'cancel_undone', transactionId, changeId: changeKey, undoneAt: now.toISOString() });
  }
  // The team: ended → every seat revoked; fewer seats → the latest invited suspended; more → restored.
  if (changes.ended || changes.seats)
    await listeners.announce(tx, 'teamChanged', { order, ended: !!changes.ended, seats: changes.seats, changeId: changeKey });
  if (changes.ended) {
    await recordFunnelEvent(tx, { type: 'cancelled', transactionId, referrerId, detail: { reason: changes.ended.reason } });
    await listeners.announce(tx, 'orderEvent', { kind: 'cancelled', transactionId, cancelledAt: now.toISOString() });
  }
  const moneyMoved = [
    ...(changes.refund
      ? [{ paymentId: changes.refund.paymentId, why: `the practice was refunded ${formatDollars(changes.refund.refundedCents)}` }]
      : []),
    ...(changes.refundFailed ? [{ paymentId: changes.refundFailed.paymentId, why: 'the refund failed' }] : []),
    ...(changes.dispute?.moneyMoved ? [{ paymentId: changes.dispute.dispute.paymentId, why: disputeWords(changes.dispute) }] : []),
  ];
  const { paidRenewal, paidProration, seats } = changes;
  await listeners.announce(tx, 'moneyChanged', {
    order,
    changes: { paidRenewal, paidProration, seats, moneyMoved },
    clock,
    changeId: changeKey,
  });
}

/** Read under the order's row lock, so two reports of one invoice cannot both miss it. */
async function invoiceBooked(
  tx: Transaction,
  transactionId: string,
  type: 'renewal_paid' | 'proration_paid',
  invoiceId: string,
): Promise<boolean> {
  const [row] = await tx
    .select({ id: funnelEvents.id })
    .from(funnelEvents)
    .where(
      and(
        eq(funnelEvents.transactionId, transactionId),
        eq(funnelEvents.type, type),
        sql`${funnelEvents.detail}->>'invoice' = ${invoiceId}`,
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** Cents. */
export async function knownRefundedCents(tx: Transaction, transactionId: string, paymentId: string | undefined): Promise<number> {
  if (!paymentId) return 0;
  const [row] = await tx
    .select({ refundedCents: orderRefunds.refundedCents })
    .from(orderRefunds)
    .where(and(eq(orderRefunds.transactionId, transactionId), eq(orderRefunds.paymentId, paymentId)));
  return row?.refundedCents ?? 0;
}

export function changesAnything(changes: LifecycleChanges): boolean {
  return Object.keys(changes).length > 0;
}
