/**
 * Call 2 (spec §7, update-anon-subscription-intent): changes an open checkout's seat count. Like Stripe, an
 * incomplete subscription cannot change its quantity (architecture.md, "stripe"), so a change creates a new
 * subscription on the same customer, cancels the old one, then moves the order onto the new one in a single
 * UPDATE guarded by the old subscription id (optimistic: a concurrent change that won makes this one a 409).
 * A subscription the provider reports paid is never replaced (409), even before finalize marks the order paid.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { UpdateIntentResponse } from '../../src/api/types';
import { monthlyTotalCents } from '../../src/domain/pricing';
import { orders } from '../db/schema';
import { CHECKOUT_ERRORS, HttpError } from '../http/httpError';
import { findOrder, type Order, type OrderContext } from './orderContext';
import { callProvider } from './providerCall';

export interface ChangeSeatsInput {
  transactionId: string;
  subscriptionId: string;
  subscriptionItemId: string;
  /** New seat count, an integer from 1 to MAX_SEATS (checked by the route schema). */
  quantity: number;
}

/**
 * Moves the checkout to `quantity` seats and returns the (possibly new) subscription's ids and client secret.
 * Same quantity → the current session, unchanged.
 * @throws HttpError 404 unknown transaction; 409 when the order is paid or cancelled, or the ids are not the
 *   order's current ones, or another change won the race; 502 when the provider fails.
 */
export async function changeSeats(context: OrderContext, input: ChangeSeatsInput): Promise<UpdateIntentResponse> {
  const { db, provider, log } = context;
  const order = await findOrder(db, input.transactionId);
  if (!order) throw new HttpError(404, CHECKOUT_ERRORS.unknownCheckout);
  assertOpen(order);
  if (order.subscriptionId !== input.subscriptionId || order.subscriptionItemId !== input.subscriptionItemId) {
    throw new HttpError(409, CHECKOUT_ERRORS.checkoutChanged);
  }
  if (order.quantity === input.quantity) return sessionOf(order);

  const { transactionId, subscriptionId: oldSubscriptionId } = order;
  // A card may have just paid the current subscription (finalize not called yet): never replace a paid one.
  // The check narrows the race; the sandbox's cancel also refuses a paid subscription atomically.
  const payment = await callProvider(log, 'retrieve subscription payment', () =>
    provider.retrieveSubscriptionPayment(oldSubscriptionId),
  );
  if (payment?.firstInvoice?.state === 'paid') throw new HttpError(409, CHECKOUT_ERRORS.orderPaid);
  const created = await callProvider(log, 'create replacement subscription', () =>
    provider.createSubscription({
      transactionId,
      customerId: order.customerId,
      quantity: input.quantity,
      idempotencyKey: `${transactionId}:subscription:${order.revision + 1}`,
    }),
  ).catch((error: unknown) => raceAwareError(context, order, error));

  try {
    await provider.cancelSubscription(oldSubscriptionId, `${transactionId}:cancel:${oldSubscriptionId}`);
  } catch (error) {
    log.error({ err: error, step: 'cancel replaced subscription' }, 'Payment provider call failed');
    await cancelQuietly(context, transactionId, created.subscriptionId);
    const payment = await provider.retrieveSubscriptionPayment(oldSubscriptionId).catch(() => null);
    if (payment?.firstInvoice?.state === 'paid') throw new HttpError(409, CHECKOUT_ERRORS.orderPaid);
    throw new HttpError(502, CHECKOUT_ERRORS.providerUnavailable);
  }

  const [moved] = await db
    .update(orders)
    .set({
      quantity: input.quantity,
      amountCents: monthlyTotalCents(input.quantity),
      subscriptionId: created.subscriptionId,
      subscriptionItemId: created.subscriptionItemId,
      paymentIntentId: created.paymentIntentId,
      clientSecret: created.clientSecret,
      revision: sql`${orders.revision} + 1`,
      updatedAt: new Date(),
    })
    .where(
      and(
        eq(orders.transactionId, transactionId),
        eq(orders.subscriptionId, oldSubscriptionId),
        eq(orders.status, 'open'),
      ),
    )
    .returning();
  if (moved) return sessionOf(moved);

  // Another change won: keep the winner's subscription, cancel ours unless it is the very same one.
  const current = await findOrder(db, transactionId);
  if (current && current.subscriptionId !== created.subscriptionId) {
    await cancelQuietly(context, transactionId, created.subscriptionId);
  }
  if (current) assertOpen(current);
  throw new HttpError(409, CHECKOUT_ERRORS.checkoutChanged);
}

function assertOpen(order: Order): void {
  if (order.status === 'paid') throw new HttpError(409, CHECKOUT_ERRORS.orderPaid);
  if (order.status === 'cancelled') throw new HttpError(409, CHECKOUT_ERRORS.orderCancelled);
}

function sessionOf(order: Order): UpdateIntentResponse {
  return {
    clientSecret: order.clientSecret,
    subscriptionId: order.subscriptionId,
    subscriptionItemId: order.subscriptionItemId,
  };
}

/** A provider failure while a concurrent change moved the order is that change's win (409), not a 502. */
async function raceAwareError(context: OrderContext, order: Order, error: unknown): Promise<never> {
  const current = await findOrder(context.db, order.transactionId);
  if (current && current.subscriptionId !== order.subscriptionId) throw new HttpError(409, CHECKOUT_ERRORS.checkoutChanged);
  throw error;
}

async function cancelQuietly(context: OrderContext, transactionId: string, subscriptionId: string): Promise<void> {
  await context.provider
    .cancelSubscription(subscriptionId, `${transactionId}:cancel:${subscriptionId}`)
    .catch((error: unknown) => context.log.error({ err: error }, 'Could not cancel an unused subscription'));
}
