/**
 * What a verified provider webhook event does to its order (architecture.md, "stripe": handlers re-fetch the
 * object, since events repeat and arrive out of order; docs/decisions/0005-orders-survive-closed-tabs.md).
 *
 * The event only says which subscription to look at. Its effect follows the subscription as the provider
 * reports it now (retrieveSubscriptionPayment), for the order's current subscription only:
 * - `invoice_paid`: first invoice paid in full for the order's seats (isPaidInFull) → completeOrder without
 *   credentials: the order is marked paid and its one account is created, so a closed tab loses no order.
 * - `invoice_paid` or `subscription_deleted`, subscription now canceled, order paid (here or at the provider)
 *   → the order is cancelled (status 'cancelled', cancelledAt).
 * - `invoice_payment_failed`, `subscription_updated` → logged; nothing changes. A replaced (seat change)
 *   subscription never touches the order.
 *
 * Each event id is recorded in webhook_events in the same transaction as its effect, so a repeat is processed
 * once, and a failure before the commit leaves it unrecorded for the provider to retry.
 */
import { and, eq, ne } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Transaction } from '../db/client';
import { orders, webhookEvents } from '../db/schema';
import { HttpError, WEBHOOK_ERRORS } from '../http/httpError';
import type { PaymentEvent } from '../payments/provider';
import { completeOrder } from './completeOrder';
import { isPaidInFull } from './finalizeCheckout';
import { findOrder, type Order, type OrderContext } from './orderContext';
import { buyerOfOrder, type Buyer } from './paymentBuyer';

/**
 * - `processed`: handled and recorded; `effect` says what changed ('none' when the order already was right).
 * - `duplicate`: this event id was processed before; nothing was done.
 * - `ignored`: not recorded, nothing done: the order is not in this database.
 */
export interface PaymentEventResult {
  outcome: 'processed' | 'duplicate' | 'ignored';
  effect: 'completed' | 'cancelled' | 'none';
}

type Plan = { kind: 'none' } | { kind: 'complete'; buyer: Buyer } | { kind: 'cancel' };

const NOTHING: Plan = { kind: 'none' };

/**
 * Applies `event` to its order.
 * @throws HttpError 500 when the provider cannot be asked (the event stays unrecorded, so it is retried);
 *   database errors propagate (also a 500, also retried).
 */
export async function applyPaymentEvent(context: OrderContext, event: PaymentEvent): Promise<PaymentEventResult> {
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
    log.warn('Webhook event for an order this database does not hold: ignored');
    return { outcome: 'ignored', effect: 'none' };
  }
  const plan = await planFor(context, log, order, event);
  return db.transaction(async (tx) => {
    const recorded = await tx
      .insert(webhookEvents)
      .values({ eventId: event.eventId, type: event.providerType })
      .onConflictDoNothing()
      .returning({ eventId: webhookEvents.eventId });
    if (recorded.length === 0) return { outcome: 'duplicate', effect: 'none' };
    return { outcome: 'processed', effect: await carryOut(tx, log, order, event, plan) };
  });
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
  if (event.kind === 'subscription_updated') {
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
  if (!payment || payment.transactionId !== order.transactionId) {
    log.warn({ found: !!payment }, 'The provider does not report this subscription as the order’s; unchanged');
    return NOTHING;
  }
  if (payment.state === 'canceled') {
    if (order.status === 'cancelled') return NOTHING;
    if (order.status === 'paid' || isPaidInFull(order, payment)) return { kind: 'cancel' };
    log.info('The unpaid checkout’s subscription has ended; the order is unchanged');
    return NOTHING;
  }
  if (event.kind === 'subscription_deleted') {
    log.warn({ state: payment.state }, 'Deleted event, but the subscription is not canceled; unchanged');
    return NOTHING;
  }
  if (!isPaidInFull(order, payment)) {
    log.warn({ invoice: payment.firstInvoice, quantity: payment.quantity }, 'Invoice paid, but not the first invoice in full for the order’s seats; unchanged');
    return NOTHING;
  }
  if (order.status === 'paid') return NOTHING;
  const buyer = await askProvider(log, () => buyerOfOrder(context, order));
  if (!buyer) {
    // Not transient: retrying would not help. Finalize from the browser still completes the order.
    log.error('Paid order without a billing name and email; left for finalize to complete');
    return NOTHING;
  }
  return { kind: 'complete', buyer };
}

/** Runs a provider read; a failure is logged and answered 500, so the provider retries the event. */
async function askProvider<T>(log: FastifyBaseLogger, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    log.error({ err: error }, 'Payment provider call failed while handling a webhook event');
    throw new HttpError(500, WEBHOOK_ERRORS.retryLater);
  }
}

async function carryOut(
  tx: Transaction,
  log: FastifyBaseLogger,
  order: Order,
  event: PaymentEvent,
  plan: Plan,
): Promise<PaymentEventResult['effect']> {
  switch (plan.kind) {
    case 'none':
      return 'none';
    case 'complete': {
      const result = await completeOrder(tx, { transactionId: order.transactionId, buyer: plan.buyer });
      if (result.kind !== 'completed') {
        log.info({ result: result.kind }, 'Paid invoice, but the order could not be completed; unchanged');
        return 'none';
      }
      log.info({ accountCreated: result.accountCreated }, 'Order completed from a webhook');
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
            eq(orders.subscriptionId, event.subscriptionId),
            ne(orders.status, 'cancelled'),
          ),
        )
        .returning({ transactionId: orders.transactionId });
      if (cancelled.length > 0) log.info('Order cancelled: its subscription was deleted');
      return cancelled.length > 0 ? 'cancelled' : 'none';
    }
  }
}
