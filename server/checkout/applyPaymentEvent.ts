/**
 * What a payment event does to its order (architecture.md, "The server owns an order's completion"; handlers
 * re-fetch the object, since events repeat and arrive out of order; docs/decisions/0005). One code path for every
 * provider: Stripe's verified webhooks, the sandbox's accepted confirmation, and the reconciliation sweep
 * (./reconcileOrders.ts), which asks the same question without an event.
 *
 * The event only says which subscription to look at. Its effect follows the subscription as the provider
 * reports it now (retrieveSubscriptionPayment), for the order's current subscription only:
 * - `invoice_paid`: subscription active and first invoice paid in full for the order's seats (verifiedPayment)
 *   → completeOrder without credentials: the order is marked paid and its one account is created, so a closed
 *   tab loses no order; then the buyer is recorded on the provider's customer.
 * - `invoice_paid` or `subscription_deleted` on an open order whose first invoice was paid and whose subscription
 *   is now canceled → the order is cancelled.
 * - `invoice_payment_failed`, `subscription_updated` on an unpaid order → logged; nothing changes. A replaced
 *   (seat change) subscription never touches the order.
 * - Any event on a paid (past-due, or ended) order's current subscription → the one lifecycle
 *   (./subscriptionLifecycle.ts), under the order's row lock: past due, recovered, a renewal paid, seats changed,
 *   a cancellation scheduled or undone, ended, refunded, each with its mail and webhook.
 *
 * Each event id is recorded in webhook_events in the same transaction as its effect, so a repeat is processed
 * once, and a failure before the commit leaves it unrecorded for the provider to retry.
 */
import { and, eq, ne } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Transaction } from '../db/client';
import { orderRefunds, orders, webhookEvents } from '../db/schema';
import type { PaymentEvent, PaymentEventRunner, ProviderDispute, RefundedPayment, SubscriptionPayment } from '../payments';
import { disputeChangeOf, knownDispute } from './disputes';
import { completeOrder, type VerifiedPayment } from './completeOrder';
import { isFirstInvoicePaid, verifiedPayment } from './finalizeCheckout';
import { findOrder, isPaidOrder, type Order, type OrderContext, type OrderServices } from './order';
import { outcomeOf, refuse, type Outcome } from './outcome';
import { buyerOfOrder, type Buyer } from './paymentBuyer';
import { recordFunnelEvent } from '../funnel';
import { recordBuyerOnCustomer } from './recordBuyer';
import { applyLifecycleChanges, changesAnything, knownRefundedCents, lifecycleChanges } from './subscriptionLifecycle';

/**
 * - `processed`: handled and recorded; `effect` says what changed ('none' when the order already was right).
 * - `duplicate`: this event id was processed before; nothing was done.
 * - `ignored`: not recorded, nothing done: the order is not in this database.
 */
interface PaymentEventResult {
  outcome: 'processed' | 'duplicate' | 'ignored';
  effect: PaymentEffect;
}

/** What an event (or the sweep) changed on the order. */
export type PaymentEffect = 'completed' | 'cancelled' | 'none';

type Plan = { kind: 'none' } | { kind: 'complete'; buyer: Buyer; verified: VerifiedPayment } | { kind: 'cancel'; subscriptionId: string };

const NOTHING: Plan = { kind: 'none' };

/**
 * Applies `event` to its order. Refuses with 'provider_unavailable' when the provider cannot be asked (the event
 * stays unrecorded, so the provider retries it); database errors propagate (also retried).
 */
export function applyPaymentEvent(context: OrderContext, event: PaymentEvent): Promise<Outcome<PaymentEventResult>> {
  return outcomeOf(() => apply(context, event));
}

async function apply(context: OrderContext, event: PaymentEvent): Promise<PaymentEventResult> {
  const { db } = context;
  const log = context.log.child({
    eventId: event.eventId,
    eventType: event.providerType,
    transactionId: event.transactionId,
    subscriptionId: event.subscriptionId,
  });
  if (await wasRecorded(context, event.eventId)) return { outcome: 'duplicate', effect: 'none' };
  const order = await findOrder(db, event.transactionId);
  if (!order) {
    log.warn('Payment event for an order this database does not hold: ignored');
    return { outcome: 'ignored', effect: 'none' };
  }
  if (order.status !== 'open' && order.subscriptionId === event.subscriptionId) return applyToPaidOrder(context, log, order, event);
  const plan = await planFor(context, log, order, event);
  const result = await db.transaction(async (tx): Promise<PaymentEventResult> => {
    if (!(await recordEvent(tx, event))) return { outcome: 'duplicate', effect: 'none' };
    if (event.kind === 'invoice_payment_failed' && order.status === 'open') {
      // A declined first payment (Stripe confirms the card in the browser; this event is how the server hears).
      await recordFunnelEvent(tx, {
        type: 'payment_failed',
        transactionId: order.transactionId,
        referrerId: order.referrerId,
        detail: { source: event.providerType },
      });
    }
    return { outcome: 'processed', effect: await carryOut(tx, context, log, order, plan) };
  });
  if (result.effect === 'completed' && plan.kind === 'complete') await recordBuyerOnCustomer({ ...context, log }, order, plan.buyer);
  return result;
}

/**
 * Applies each of `events` in order: what an after-purchase operation answered (a cancellation, a seat change, a
 * card that paid a renewal, a refund).
 * @throws Error when one is refused (the provider could not be asked): the provider made the change; its webhook,
 * or the next event, brings the order in line.
 */
export async function applyPaymentEvents(context: OrderContext, events: PaymentEvent[]): Promise<void> {
  for (const event of events) {
    const applied = await applyPaymentEvent(context, event);
    if (!applied.ok) throw new Error(`Payment event ${event.eventId} refused: ${applied.refusal}`);
  }
}

/** A provider notice about something of no order of ours: acknowledged, nothing changes. */
const IGNORED: Outcome<PaymentEventResult> = { ok: true, value: { outcome: 'ignored', effect: 'none' } };

/** A notice the provider sent by payment, customer or dispute, run through the one lifecycle as `order`'s event. */
function applyToOrderOf(
  context: OrderContext,
  order: Order,
  event: Pick<PaymentEvent, 'eventId' | 'kind' | 'providerType' | 'paymentId' | 'disputeId'>,
): Promise<Outcome<PaymentEventResult>> {
  return applyPaymentEvent(context, { ...event, subscriptionId: order.subscriptionId, transactionId: order.transactionId });
}

/**
 * A refund the provider reports by customer and payment (Stripe's `charge.refunded`, from our console or its
 * Dashboard): the order of that customer, then the one lifecycle as for any event. 'ignored' when no order of
 * ours has that customer.
 */
async function applyRefundNotice(
  context: OrderContext,
  notice: { eventId: string; providerType: string; customerId: string; paymentId: string },
): Promise<Outcome<PaymentEventResult>> {
  const [order] = await context.db.select().from(orders).where(eq(orders.customerId, notice.customerId)).limit(1);
  if (!order) {
    context.log.info({ eventId: notice.eventId }, 'Refund of a customer this database does not hold: ignored');
    return IGNORED;
  }
  const { eventId, providerType, paymentId } = notice;
  return applyToOrderOf(context, order, { eventId, kind: 'payment_refunded', providerType, paymentId });
}

/**
 * A refund that failed (Stripe's `refund.failed`, `charge.refund.updated`): the order whose refunds name the
 * payment (or whose first payment it is), then the one lifecycle, which reads the payment again and gives back
 * what the refund took. 'ignored', with one warning line, when no order of ours has that payment.
 */
async function applyFailedRefundNotice(
  context: OrderContext,
  notice: { eventId: string; providerType: string; paymentId: string },
): Promise<Outcome<PaymentEventResult>> {
  const [refunded] = await context.db
    .select({ transactionId: orderRefunds.transactionId })
    .from(orderRefunds)
    .where(eq(orderRefunds.paymentId, notice.paymentId))
    .limit(1);
  const [order] = refunded
    ? await context.db.select().from(orders).where(eq(orders.transactionId, refunded.transactionId))
    : await context.db.select().from(orders).where(eq(orders.paymentIntentId, notice.paymentId));
  if (!order || order.status === 'open') {
    context.log.warn(
      { eventId: notice.eventId, paymentId: notice.paymentId },
      'Failed refund of a payment this database does not hold: ignored',
    );
    return IGNORED;
  }
  return applyToOrderOf(context, order, { ...notice, kind: 'payment_refunded' });
}

/**
 * A dispute the provider reports (Stripe's `charge.dispute.*`): read now, its order found by the disputed
 * payment's customer (one per checkout), then the one lifecycle as for any event. 'ignored', with one warning
 * line, when the provider does not know the dispute or no order of ours has its customer.
 */
async function applyDisputeNotice(
  context: OrderContext,
  notice: { eventId: string; providerType: string; disputeId: string },
): Promise<Outcome<PaymentEventResult>> {
  let dispute: ProviderDispute | null;
  try {
    dispute = await context.provider.retrieveDispute(notice.disputeId);
  } catch (error) {
    context.log.error({ err: error, eventId: notice.eventId }, 'Payment provider call failed while reading a dispute');
    return { ok: false, refusal: 'provider_unavailable' };
  }
  const [order] = dispute?.customerId
    ? await context.db.select().from(orders).where(eq(orders.customerId, dispute.customerId)).limit(1)
    : [];
  if (!dispute || !order || order.status === 'open') {
    context.log.warn({ eventId: notice.eventId, disputeId: notice.disputeId }, 'Dispute of a payment this database does not hold: ignored');
    return IGNORED;
  }
  return applyToOrderOf(context, order, { ...notice, kind: 'payment_disputed' });
}

/**
 * After the purchase: reads the subscription (and a refunded payment) as the provider reports it now, then, in one
 * transaction under the order's row lock, records the event and applies what the one lifecycle finds changed.
 */
async function applyToPaidOrder(
  context: OrderContext,
  log: FastifyBaseLogger,
  order: Order,
  event: PaymentEvent,
): Promise<PaymentEventResult> {
  if (order.status === 'cancelled' && !event.paymentId && !event.disputeId) {
    // An ended order changes only by a refund or a dispute: record the event, ask the provider nothing.
    const recorded = await context.db.transaction((tx) => recordEvent(tx, event));
    return { outcome: recorded ? 'processed' : 'duplicate', effect: 'none' };
  }
  const dispute = event.disputeId ? await askProvider(log, () => context.provider.retrieveDispute(event.disputeId!)) : null;
  if (event.disputeId && !dispute) log.warn({ disputeId: event.disputeId }, 'The provider does not know this dispute; unchanged');
  let payment = await askProvider(log, () => context.provider.retrieveSubscriptionPayment(event.subscriptionId));
  if (payment && payment.transactionId === order.transactionId && mustEnd(payment, dispute)) {
    // Before the order's transaction, so a provider failure leaves the event unrecorded for the provider to retry.
    await askProvider(log, () => context.provider.endNow(event.subscriptionId, `${order.transactionId}:end:${event.subscriptionId}`));
    log.info({ state: payment.state, dispute: dispute?.outcome }, 'Subscription ended at the provider: unpaid, or a dispute lost');
    payment = await askProvider(log, () => context.provider.retrieveSubscriptionPayment(event.subscriptionId));
  }
  const refunded: RefundedPayment | null = event.paymentId
    ? await askProvider(log, () => context.provider.retrieveRefundedPayment(event.paymentId!))
    : null;
  return context.db.transaction(async (tx): Promise<PaymentEventResult> => {
    if (!(await recordEvent(tx, event))) return { outcome: 'duplicate', effect: 'none' };
    const [locked] = await tx.select().from(orders).where(eq(orders.transactionId, order.transactionId)).for('update');
    if (!locked || locked.subscriptionId !== event.subscriptionId) return { outcome: 'processed', effect: 'none' };
    if (!payment || payment.transactionId !== locked.transactionId) {
      log.warn({ found: !!payment }, 'The provider does not report this subscription as the order’s; unchanged');
      return { outcome: 'processed', effect: 'none' };
    }
    const known = await knownRefundedCents(tx, locked.transactionId, refunded?.paymentId);
    const disputeChange = dispute ? disputeChangeOf(await knownDispute(tx, dispute.disputeId), dispute) : null;
    const changes = lifecycleChanges(locked, payment, event, refunded, known, disputeChange);
    if (!changesAnything(changes)) return { outcome: 'processed', effect: 'none' };
    await applyLifecycleChanges(tx, context.listeners, locked, event, changes, context.provider.clock);
    log.info({ changes: Object.keys(changes) }, 'Paid order updated from its subscription');
    return { outcome: 'processed', effect: changes.ended ? 'cancelled' : 'none' };
  });
}

/**
 * True when the provider's subscription must be ended with the order (docs/decisions/0040): it is `unpaid` (Stripe
 * keeps an unpaid subscription open, which is not an end), or a dispute of its payment was lost.
 */
function mustEnd(payment: SubscriptionPayment, dispute: ProviderDispute | null): boolean {
  const live = payment.state === 'active' || payment.state === 'past_due' || payment.state === 'unpaid' || payment.state === 'paused';
  return live && (payment.state === 'unpaid' || dispute?.outcome === 'lost');
}

/** Records the event's id in `tx`; false when it was recorded before (a repeat). */
async function recordEvent(tx: Transaction, event: PaymentEvent): Promise<boolean> {
  const recorded = await tx
    .insert(webhookEvents)
    .values({ eventId: event.eventId, type: event.providerType })
    .onConflictDoNothing()
    .returning({ eventId: webhookEvents.eventId });
  return recorded.length > 0;
}

/**
 * What an `invoice_paid` event would do to `order` now, without an event to record: the reconciliation sweep's
 * step. Refuses with 'provider_unavailable' when the provider cannot be asked (the sweep tries again next time);
 * a failure of the first read propagates.
 */
export function settleWithProvider(context: OrderContext, order: Order): Promise<Outcome<PaymentEffect>> {
  return outcomeOf(() => settle(context, order));
}

async function settle(context: OrderContext, order: Order): Promise<PaymentEffect> {
  const log = context.log.child({ transactionId: order.transactionId, subscriptionId: order.subscriptionId });
  const payment = await context.provider.retrieveSubscriptionPayment(order.subscriptionId);
  if (payment?.state !== 'canceled' && !verifiedPayment(order, payment)) return 'none';
  const plan = await planFromPayment(context, log, order, 'invoice_paid', payment);
  const effect = await context.db.transaction((tx) => carryOut(tx, context, log, order, plan));
  if (effect === 'completed' && plan.kind === 'complete') await recordBuyerOnCustomer({ ...context, log }, order, plan.buyer);
  return effect;
}

async function wasRecorded({ db }: OrderContext, eventId: string): Promise<boolean> {
  const rows = await db.select({ eventId: webhookEvents.eventId }).from(webhookEvents).where(eq(webhookEvents.eventId, eventId));
  return rows.length > 0;
}

/** Decides the effect from the provider's current view of the subscription; reads only, writes nothing. */
async function planFor(context: OrderContext, log: FastifyBaseLogger, order: Order, event: PaymentEvent): Promise<Plan> {
  if (event.kind === 'invoice_payment_failed') {
    log.warn({ orderStatus: order.status }, 'A payment attempt failed; the order is unchanged');
    return NOTHING;
  }
  if (event.kind === 'subscription_updated' || event.kind === 'payment_refunded' || event.kind === 'payment_disputed') {
    log.info({ orderStatus: order.status }, 'Subscription updated; the order is unchanged');
    return NOTHING;
  }
  if (order.subscriptionId !== event.subscriptionId) {
    // A seat change replaced (and cancelled) this subscription; money taken on it is for an operator to see.
    const level = event.kind === 'invoice_paid' ? 'error' : 'info';
    log[level]({ currentSubscriptionId: order.subscriptionId }, 'Event for a replaced subscription; the order is unchanged');
    return NOTHING;
  }
  const payment = await askProvider(log, () => context.provider.retrieveSubscriptionPayment(event.subscriptionId));
  return planFromPayment(context, log, order, event.kind, payment);
}

async function planFromPayment(
  context: OrderContext,
  log: FastifyBaseLogger,
  order: Order,
  kind: 'invoice_paid' | 'subscription_deleted',
  payment: SubscriptionPayment | null,
): Promise<Plan> {
  if (!payment || payment.transactionId !== order.transactionId) {
    log.warn({ found: !!payment }, 'The provider does not report this subscription as the order’s; unchanged');
    return NOTHING;
  }
  if (payment.state === 'canceled') {
    if (order.status === 'cancelled') return NOTHING;
    if (isPaidOrder(order) || isFirstInvoicePaid(order, payment)) return { kind: 'cancel', subscriptionId: payment.subscriptionId };
    log.info('The unpaid checkout’s subscription has ended; the order is unchanged');
    return NOTHING;
  }
  if (kind === 'subscription_deleted') {
    log.warn({ state: payment.state }, 'Deleted event, but the subscription is not canceled; unchanged');
    return NOTHING;
  }
  const verified = verifiedPayment(order, payment);
  if (!verified) {
    log.warn(
      { state: payment.state, invoice: payment.firstInvoice, quantity: payment.quantity },
      'Invoice paid, but the subscription is not active with its first invoice paid in full for the order’s seats; unchanged',
    );
    return NOTHING;
  }
  if (isPaidOrder(order)) return NOTHING;
  const buyer = await askProvider(log, () => buyerOfOrder(context, order));
  if (!buyer) {
    // Not transient: retrying would not help. Finalize from the browser still completes the order.
    log.error('Paid order without a billing name and email; left for finalize to complete');
    return NOTHING;
  }
  return { kind: 'complete', buyer, verified };
}

/** Runs a provider read; a failure is logged and refuses with 'provider_unavailable' (the event is retried). */
async function askProvider<T>(log: FastifyBaseLogger, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    log.error({ err: error }, 'Payment provider call failed while handling a payment event');
    return refuse('provider_unavailable');
  }
}

async function carryOut(
  tx: Transaction,
  { listeners, provider }: Pick<OrderContext, 'listeners' | 'provider'>,
  log: FastifyBaseLogger,
  order: Order,
  plan: Plan,
): Promise<PaymentEffect> {
  switch (plan.kind) {
    case 'none':
      return 'none';
    case 'complete': {
      const result = await completeOrder(tx, {
        transactionId: order.transactionId,
        buyer: plan.buyer,
        verified: plan.verified,
        listeners,
        clock: provider.clock,
      });
      if (result.kind !== 'completed') {
        log.info({ result: result.kind }, 'Paid invoice, but the order could not be completed; unchanged');
        return 'none';
      }
      log.info({ accountCreated: result.accountCreated }, 'Order completed by a payment event');
      return result.accountCreated ? 'completed' : 'none';
    }
    case 'cancel': {
      const now = new Date();
      const cancelled = await tx
        .update(orders)
        .set({ status: 'cancelled', cancelledAt: now, updatedAt: now })
        .where(
          and(
            eq(orders.transactionId, order.transactionId),
            eq(orders.subscriptionId, plan.subscriptionId),
            ne(orders.status, 'cancelled'),
          ),
        )
        .returning({ transactionId: orders.transactionId });
      if (cancelled.length > 0) {
        await recordFunnelEvent(tx, { type: 'cancelled', transactionId: order.transactionId, referrerId: order.referrerId });
        await listeners.announce(tx, 'orderEvent', {
          kind: 'cancelled',
          transactionId: order.transactionId,
          cancelledAt: now.toISOString(),
        });
        log.info('Order cancelled: its subscription was deleted');
      }
      return cancelled.length > 0 ? 'cancelled' : 'none';
    }
  }
}

/**
 * The one lifecycle as the providers' routes reach it (server/payments/provider.ts, PaymentEventRunner): each
 * event or notice on `services`, with the request's logger.
 */
export function paymentEventRunner(services: OrderServices): PaymentEventRunner {
  const on = (log: FastifyBaseLogger): OrderContext => ({ ...services, log });
  return {
    event: (log, event) => applyPaymentEvent(on(log), event),
    events: (log, events) => applyPaymentEvents(on(log), events),
    refundNotice: (log, notice) => applyRefundNotice(on(log), notice),
    failedRefundNotice: (log, notice) => applyFailedRefundNotice(on(log), notice),
    disputeNotice: (log, notice) => applyDisputeNotice(on(log), notice),
  };
}
