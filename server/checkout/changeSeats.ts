/**
 * Call 2 (spec §7): an incomplete Stripe subscription cannot change its quantity, so a seat change creates a new
 * subscription, cancels the old one (only if unpaid), and moves the order onto it. One change per order at a time,
 * under a lease (docs/decisions/0009). Ids that are not the order's answer 'unknown_checkout', so a bare
 * transactionId learns nothing.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { UpdateIntentResponse } from '../../src/contract/checkout';
import { monthlyTotalCents } from '../../src/domain/pricing';
import { orders } from '../db/schema';
import { recordFunnelEvent } from '../funnel';
import { referrerSlugOf } from '../referrals';
import { findOrder, isPaidOrder, type Order, type OrderContext } from './order';
import { outcomeOf, refuse, type Outcome } from './outcome';
import { callProvider } from './providerCall';
import type { CreatedSubscription } from '../payments';

interface ChangeSeatsInput {
  transactionId: string;
  subscriptionId: string;
  subscriptionItemId: string;
  quantity: number;
}

/** Longer than its three provider calls with the SDK's retries. */
const LEASE_SECONDS = 120;

/** Refuses 'unknown_checkout', 'order_paid', 'order_cancelled', 'checkout_changed', 'seats_being_updated', 'provider_unavailable'. */
export function changeSeats(context: OrderContext, input: ChangeSeatsInput): Promise<Outcome<UpdateIntentResponse>> {
  return outcomeOf(() => replaceSubscription(context, input));
}

async function replaceSubscription(context: OrderContext, input: ChangeSeatsInput): Promise<UpdateIntentResponse> {
  const { db } = context;
  const order = await findOrder(db, input.transactionId);
  if (!order) refuse('unknown_checkout');
  const current = order.subscriptionId === input.subscriptionId && order.subscriptionItemId === input.subscriptionItemId;
  if (!current && !(await isReplacedSubscriptionOf(context, order, input.subscriptionId))) refuse('unknown_checkout');
  assertOpen(order);
  if (!current) refuse('checkout_changed');
  if (order.quantity === input.quantity) return sessionOf(order);
  // A checkout taxed for the buyer's location stays taxed for it: the new subscription's tax is Stripe's (or the sandbox's).
  const moved = await replaceUnpaidSubscription(context, order, { quantity: input.quantity, automaticTax: order.taxState !== null });
  return sessionOf(moved);
}

interface Replacement {
  quantity: number;
  automaticTax: boolean;
  tax?: { state: string | null; country: string; postalCode: string };
}

async function replaceUnpaidSubscription(context: OrderContext, order: Order, replacement: Replacement): Promise<Order> {
  return underSeatChangeLease(context, order, (leased, attempt) => replaceLeased(context, leased, attempt, replacement));
}

/** The location step decides under the lease too, so it never decides on a subscription being replaced. */
export async function underSeatChangeLease<T>(
  context: OrderContext,
  order: Order,
  step: (leased: Order, attempt: string) => Promise<T>,
): Promise<T> {
  const attempt = randomUUID();
  const leased = await takeLease(context, order, attempt);
  try {
    return await step(leased, attempt);
  } finally {
    await releaseLease(context, leased.transactionId, attempt);
  }
}

export async function replaceLeased(context: OrderContext, leased: Order, attempt: string, replacement: Replacement): Promise<Order> {
  const { db, provider, log } = context;
  const { transactionId, subscriptionId: oldSubscriptionId } = leased;
  // A card may have just paid the current subscription (finalize not called yet): never replace a paid one.
  const payment = await callProvider(log, 'retrieve subscription payment', () => provider.retrieveSubscriptionPayment(oldSubscriptionId));
  if (payment?.firstInvoice?.state === 'paid') refuse('order_paid');
  const referrer = await referrerSlugOf(context.db, leased.referrerId);
  const created = await callProvider(log, 'create replacement subscription', () =>
    provider.createSubscription({
      transactionId,
      customerId: leased.customerId,
      quantity: replacement.quantity,
      automaticTax: replacement.automaticTax,
      referrer,
      idempotencyKey: `${transactionId}:subscription:${attempt}`,
    }),
  );
  let cancelled: 'cancelled' | 'paid';
  try {
    cancelled = await provider.cancelUnpaidSubscription(oldSubscriptionId, `${transactionId}:cancel:${oldSubscriptionId}:${attempt}`);
  } catch (error) {
    log.error({ err: error, step: 'cancel replaced subscription' }, 'Payment provider call failed');
    await dropUnused(context, transactionId, created.subscriptionId, attempt);
    refuse('provider_unavailable');
  }
  if (cancelled === 'paid') {
    await dropUnused(context, transactionId, created.subscriptionId, attempt);
    refuse('order_paid');
  }
  const moved = await moveOnto(context, leased, attempt, replacement, created);
  if (moved) return moved;
  await dropUnused(context, transactionId, created.subscriptionId, attempt);
  const current = await findOrder(db, transactionId);
  if (current) assertOpen(current);
  refuse('checkout_changed');
}

export async function isReplacedSubscriptionOf({ provider, log }: OrderContext, order: Order, subscriptionId: string): Promise<boolean> {
  if (subscriptionId === order.subscriptionId) return false;
  const payment = await callProvider(log, 'retrieve subscription payment', () => provider.retrieveSubscriptionPayment(subscriptionId));
  return payment?.transactionId === order.transactionId && payment.customerId === order.customerId;
}

async function takeLease({ db }: OrderContext, order: Order, attempt: string): Promise<Order> {
  const [leased] = await db
    .update(orders)
    .set({ seatChangeLockedUntil: sql`now() + make_interval(secs => ${LEASE_SECONDS})`, seatChangeAttempt: attempt })
    .where(
      and(
        eq(orders.transactionId, order.transactionId),
        eq(orders.status, 'open'),
        eq(orders.subscriptionId, order.subscriptionId),
        or(isNull(orders.seatChangeLockedUntil), lt(orders.seatChangeLockedUntil, sql`now()`)),
      ),
    )
    .returning();
  if (leased) return leased;
  const current = await findOrder(db, order.transactionId);
  if (current) assertOpen(current);
  if (current && current.subscriptionId !== order.subscriptionId) refuse('checkout_changed');
  refuse('seats_being_updated');
}

/** Under the order's row lock, the same lock completeOrder takes. */
async function moveOnto(
  { db }: OrderContext,
  order: Order,
  attempt: string,
  { quantity, automaticTax, tax }: Replacement,
  created: CreatedSubscription,
): Promise<Order | undefined> {
  return db.transaction(async (tx) => {
    const [locked] = await tx.select().from(orders).where(eq(orders.transactionId, order.transactionId)).for('update');
    if (!locked || locked.status !== 'open' || locked.subscriptionId !== order.subscriptionId || locked.seatChangeAttempt !== attempt) {
      return undefined;
    }
    const [moved] = await tx
      .update(orders)
      .set({
        quantity,
        amountCents: monthlyTotalCents(quantity),
        taxCents: created.taxCents,
        ...(tax ? { taxState: automaticTax ? tax.state : null, taxCountry: tax.country, taxPostalCode: tax.postalCode } : {}),
        subscriptionId: created.subscriptionId,
        subscriptionItemId: created.subscriptionItemId,
        paymentIntentId: created.paymentIntentId,
        clientSecret: created.clientSecret,
        revision: sql`${orders.revision} + 1`,
        seatChangeLockedUntil: null,
        seatChangeAttempt: null,
        updatedAt: new Date(),
      })
      .where(eq(orders.transactionId, order.transactionId))
      .returning();
    if (locked.quantity !== quantity) {
      await recordFunnelEvent(tx, {
        type: 'seats_changed',
        transactionId: order.transactionId,
        referrerId: order.referrerId,
        detail: { from: locked.quantity, to: quantity },
      });
    }
    return moved;
  });
}

/** The move already cleared it on success. */
async function releaseLease({ db, log }: OrderContext, transactionId: string, attempt: string): Promise<void> {
  await db
    .update(orders)
    .set({ seatChangeLockedUntil: null, seatChangeAttempt: null })
    .where(and(eq(orders.transactionId, transactionId), eq(orders.seatChangeAttempt, attempt)))
    .catch((error: unknown) => log.error({ err: error, transactionId }, 'Could not release the seat-change lease; it expires'));
}

export function assertOpen(order: Order): void {
  if (isPaidOrder(order)) refuse('order_paid');
  if (order.status === 'cancelled') refuse('order_cancelled');
}

function sessionOf(order: Order): UpdateIntentResponse {
  return {
    clientSecret: order.clientSecret,
    subscriptionId: order.subscriptionId,
    subscriptionItemId: order.subscriptionItemId,
    taxCents: order.taxCents,
  };
}

/** A failure is logged (it expires unpaid). */
async function dropUnused(context: OrderContext, transactionId: string, subscriptionId: string, attempt: string): Promise<void> {
  await context.provider
    .cancelUnpaidSubscription(subscriptionId, `${transactionId}:cancel:${subscriptionId}:${attempt}`)
    .catch((error: unknown) => context.log.error({ err: error }, 'Could not cancel an unused subscription'));
}
