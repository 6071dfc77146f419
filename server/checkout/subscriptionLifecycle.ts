/**
 * The one lifecycle of a paid subscription: the only code that turns a provider's
 * report about a paid order's subscription into the order's state, its funnel events and its outbox rows (mail,
 * the agreement site's webhooks). Stripe's webhooks, the sandbox's billing clock and the after-purchase operations
 * of the manage page and the console all reach it through applyPaymentEvent (./applyPaymentEvent.ts).
 *
 * The report is the subscription as the provider describes it now (SubscriptionPayment), not the event's copy:
 * events repeat and arrive out of order. `lifecycleChanges` compares it with the order, read under its row lock,
 * so two events racing each other change the order once: the second finds nothing left to change.
 *
 * What is compared (each change with its funnel event and outbox rows):
 * - ended: the subscription is canceled (or `unpaid`: retries exhausted) → 'cancelled', webhook.
 * - past due: the subscription is past due (or paused) on a paid order → 'past_due', 'payment failed' mail and webhook.
 * - recovered: active again on a past-due order → 'paid', receipt when the open renewal was paid.
 * - renewal paid: an `invoice_paid` event for a paid renewal → receipt.
 * - proration paid: an `invoice_paid` event for a seat increase's proration invoice → receipt (decision 0045).
 * - seats: the quantity differs → the order's seats and monthly total, mail and webhook.
 * - monthly tax: the provider's tax on the next month differs from the order's (seats changed, a rate changed) →
 *   the order's `taxCents`, which the manage page, the console and the mails show beside the seats' amount.
 * - cancel scheduled (Stripe `cancel_at`, or `cancel_at_period_end`) or undone → mail (and a funnel event, so the
 *   console counts a cancellation when it is asked for, not only when it takes effect).
 * - refunded: a refund event whose payment reports more refunded than the order knew → 'refunded' mail and webhook;
 *   less (a refund failed) → the difference back on the order and its commission, the owner's mail.
 * - disputed: a dispute opened, changed or closed (./disputes.ts) → recorded, the owner's mail, the payment's
 *   commission taken back (given back when won). A lost dispute's subscription is ended by the caller.
 * Commissions move only with money (server/commissions/ledger.ts hears 'moneyChanged'): a cancellation without a refund reverses nothing.
 * Outbox rows are keyed by the provider event (renewals and failures by their invoice), so every cancellation,
 * undo and seat change mails once, however often the same event arrives.
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

/** Why an order ended, for the funnel and the console. */
type EndReason = 'cancelled_at_period_end' | 'unpaid' | 'refunded' | 'deleted' | 'dispute_lost';

/** What the provider's report changes on a paid (or past-due, or ended and now refunded) order. */
interface LifecycleChanges {
  ended?: { reason: EndReason };
  status?: 'paid' | 'past_due';
  /** `amountCents` what was due, tax included; `taxCents` the tax in it. */
  failedInvoice?: { invoiceId: string; amountCents: number; taxCents: number };
  /** `amountCents` is what was paid (Stripe's `amount_paid`); `paymentId` the payment a refund or dispute will name. */
  /** `amountCents` what was paid, tax included; `taxCents` the tax in it (commissions are on the rest). */
  paidRenewal?: { invoiceId: string; paymentId: string | null; amountCents: number; taxCents: number; recovered: boolean };
  /** A seat increase's proration invoice, paid for `seats` (the seats change with it). */
  paidProration?: { invoiceId: string; paymentId: string | null; amountCents: number; taxCents: number; seats: number };
  seats?: { from: number; to: number };
  /** The monthly tax at the subscription's seats now, in cents, when it differs from the order's. */
  monthlyTaxCents?: number;
  /** A cancellation scheduled for this date, or undone (null). */
  cancelAt?: Date | null;
  /** The buyer's reason for the scheduled cancellation: given on /account (the event's), or in the provider's page. */
  cancelReason?: string;
  /**
   * `refundedCents` refunded on the payment so far, `taxRefundedCents` the tax share of it (src/domain/tax.ts
   * refundedTaxCents, docs/decisions/0074); `addedCents` what this change refunded.
   */
  refund?: { paymentId: string; refundedCents: number; taxRefundedCents: number; addedCents: number };
  /** A refund that failed: its payment reports less refunded than the order knew; the difference comes back. */
  refundFailed?: { paymentId: string; refundedCents: number; taxRefundedCents: number; givenBackCents: number };
  /** A dispute opened, or its status, deadline or outcome changed (./disputes.ts). */
  dispute?: DisputeChange;
}

/**
 * Compares the order (read under its row lock) with the provider's report. Pure.
 * @param refunded the refunded payment a `payment_refunded` event names, as the provider reports it now.
 * @param knownRefundedCents what the order already recorded as refunded on that payment, in cents.
 */
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
    changes.refund = {
      paymentId: refunded.paymentId,
      refundedCents: refunded.refundedCents,
      taxRefundedCents: taxShareOf(refunded),
      addedCents: refunded.refundedCents - knownRefundedCents,
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

/** The tax share of what the payment has refunded so far, in cents (0 for an untaxed payment). */
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
 * Applies `changes` to the locked `order` inside `tx`, with their funnel events, and announces each to `listeners`
 * in `tx` (./orderListeners.ts: the outbox's mail and webhooks, the team, the referrer's commission); the event's
 * id keys the announcements of changes that have no invoice of their own; `clock` is the provider's billing clock
 * (the referrer's commission on a renewal or refund is booked on it).
 * @throws database errors and listeners' errors: the caller's transaction is rolled back with everything they wrote.
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
    const { paymentId, refundedCents, taxRefundedCents: taxCents, addedCents } = changes.refund;
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
    // A seat increase's proration invoice is money collected too, once per invoice.
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

/**
 * Whether the order's paid `invoiceId` is already in money collected (its `type` funnel event). Read under the
 * order's row lock, so two reports of one invoice cannot both miss it.
 */
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

/** What the order already recorded as refunded on `paymentId`, in cents (0 when nothing was). */
export async function knownRefundedCents(tx: Transaction, transactionId: string, paymentId: string | undefined): Promise<number> {
  if (!paymentId) return 0;
  const [row] = await tx
    .select({ refundedCents: orderRefunds.refundedCents })
    .from(orderRefunds)
    .where(and(eq(orderRefunds.transactionId, transactionId), eq(orderRefunds.paymentId, paymentId)));
  return row?.refundedCents ?? 0;
}

/** True when anything changes. */
export function changesAnything(changes: LifecycleChanges): boolean {
  return Object.keys(changes).length > 0;
}
