/**
 * What a payment event does to its order. Events repeat and arrive out of order, so the effect follows the
 * subscription as the provider reports it now, not the event (docs/decisions/0005).
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

/** `ignored`: not recorded, since the order is not in this database. */
interface PaymentEventResult {
  outcome: 'processed' | 'duplicate' | 'ignored';
  effect: PaymentEffect;
}

export type PaymentEffect = 'completed' | 'cancelled' | 'none';

type Plan = { kind: 'none' } | { kind: 'complete'; buyer: Buyer; verified: VerifiedPayment } | { kind: 'cancel'; subscriptionId: string };

const NOTHING: Plan = { kind: 'none' };

/** Refuses with 'provider_unavailable' (the event stays unrecorded, so the provider retries); database errors propagate. */
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

/** @throws Error when one is refused; the provider's webhook, or the next event, brings the order in line. */
export async function applyPaymentEvents(context: OrderContext, events: PaymentEvent[]): Promise<void> {
  for (const event of events) {
    const applied = await applyPaymentEvent(context, event);
    if (!applied.ok) throw new Error(`Payment event ${event.eventId} refused: ${applied.refusal}`);
  }
}

const IGNORED: Outcome<PaymentEventResult> = { ok: true, value: { outcome: 'ignored', effect: 'none' } };

function applyToOrderOf(
  context: OrderContext,
  order: Order,
  event: Pick<PaymentEvent, 'eventId' | 'kind' | 'providerType' | 'paymentId' | 'disputeId'>,
): Promise<Outcome<PaymentEventResult>> {
  return applyPaymentEvent(context, { ...event, subscriptionId: order.subscriptionId, transactionId: order.transactionId });
}

/** Stripe's `charge.refunded` (from our console or its Dashboard) names the customer, not the order. */
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

/** Stripe's `refund.failed`, `charge.refund.updated`: the lifecycle reads the payment again and gives back what the refund took. */
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

/** Stripe's `charge.dispute.*`: the order is found by the disputed payment's customer (one per checkout). */
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

/** Provider reads first, outside the transaction; then the event and its changes under the order's row lock. */
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

/** Stripe keeps an `unpaid` subscription open, which is not an end (docs/decisions/0040); nor is a lost dispute. */
function mustEnd(payment: SubscriptionPayment, dispute: ProviderDispute | null): boolean {
  const live = payment.state === 'active' || payment.state === 'past_due' || payment.state === 'unpaid' || payment.state === 'paused';
  return live && (payment.state === 'unpaid' || dispute?.outcome === 'lost');
}

/** False when recorded before (a repeat). */
async function recordEvent(tx: Transaction, event: PaymentEvent): Promise<boolean> {
  const recorded = await tx
    .insert(webhookEvents)
    .values({ eventId: event.eventId, type: event.providerType })
    .onConflictDoNothing()
    .returning({ eventId: webhookEvents.eventId });
  return recorded.length > 0;
}

/**
 * The reconciliation sweep's step: what `invoice_paid` would do, with no event to record. Refuses with
 * 'provider_unavailable' (the sweep tries again); a failure of the first read propagates.
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

/** Reads only, writes nothing. */
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

/** A failure refuses with 'provider_unavailable', so the event is retried. */
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
