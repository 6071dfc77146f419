/**
 * Call 2 (spec §7, update-anon-subscription-intent): changes an open checkout's seat count. Like Stripe, an
 * incomplete subscription cannot change its quantity (architecture.md, "stripe"), so a change creates a new
 * subscription on the same customer, cancels the old one, and moves the order onto the new one.
 *
 * One change per order at a time (docs/decisions/0009): the change first takes the order's seat-change lease
 * (a guarded UPDATE; a crashed process's lease expires), and another change meanwhile is refused with 409. The
 * replacement is created under an idempotency key of this attempt, so a retry of one request reuses it and a
 * new attempt never does. The old subscription is cancelled only if unpaid: the provider voids its open first
 * invoice first, and refuses ('paid') when the card has just paid it. The move onto the new subscription happens
 * under the order's row lock, the same lock completeOrder takes, and only if this attempt still holds the lease.
 *
 * Every id of the call is checked before any answer tells one order from another: the ids must be the
 * order's current subscription and item, or a subscription the provider reports as this order's (a tab left on a
 * replaced one, answered 'checkout_changed'); any other combination is 'unknown_checkout', as for an unknown order,
 * so a bare transactionId learns nothing (not even that the order was paid).
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
  /** New seat count, an integer from 1 to MAX_SEATS (checked by the route schema). */
  quantity: number;
}

/** How long a seat change may hold the order: longer than its three provider calls with the SDK's retries. */
const LEASE_SECONDS = 120;

/**
 * Moves the checkout to `quantity` seats and answers the (possibly new) subscription's ids and client secret.
 * Same quantity → the current session, unchanged. Refusals: 'unknown_checkout' (no such order, or ids that are
 * not its own); 'order_paid' or 'order_cancelled'; 'checkout_changed' (the ids are a replaced subscription of the
 * order, or another change won);
 * 'seats_being_updated' (another change is in progress); 'order_paid' also when the card paid the old
 * subscription meanwhile; 'provider_unavailable' (the order stays on its old subscription).
 */
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

/** What the replacement subscription is: its seats, and whether it is taxed for the customer's placed location. */
interface Replacement {
  quantity: number;
  automaticTax: boolean;
  /** The state it is taxed for (with automaticTax), and the location the page sent, written to the order with it. */
  tax?: { state: string | null; country: string; postalCode: string };
}

/**
 * Replaces the open order's unpaid subscription with a new one made to `replacement` (a seat change, a location
 * that owes tax; architecture.md "stripe"), under the order's seat-change lease, and moves the order onto it.
 * Refusals as changeSeats's.
 */
async function replaceUnpaidSubscription(context: OrderContext, order: Order, replacement: Replacement): Promise<Order> {
  return underSeatChangeLease(context, order, (leased, attempt) => replaceLeased(context, leased, attempt, replacement));
}

/**
 * Runs `step` holding the order's seat-change lease (one change of the order's subscription at a time, decision
 * 0009), with the order as read when the lease was taken and the lease's attempt id; gives the lease back after,
 * whatever `step` did. The location step decides under it too, so it never decides on a subscription a seat change
 * is replacing. Refuses as takeLease when the lease is held or the order moved on.
 */
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

/**
 * The replacement itself, for the holder of the lease (`attempt`): create the new subscription, cancel the old one
 * only if unpaid, move the order onto the new one under its row lock. Refusals as changeSeats's.
 */
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

/**
 * Whether `subscriptionId` is one the order had before a seat change replaced it: not the current one, and the
 * provider reports it on the order's customer with the order's transactionId in its metadata.
 */
export async function isReplacedSubscriptionOf({ provider, log }: OrderContext, order: Order, subscriptionId: string): Promise<boolean> {
  if (subscriptionId === order.subscriptionId) return false;
  const payment = await callProvider(log, 'retrieve subscription payment', () => provider.retrieveSubscriptionPayment(subscriptionId));
  return payment?.transactionId === order.transactionId && payment.customerId === order.customerId;
}

/**
 * Takes the order's seat-change lease for `attempt`, only while the order is open, still on the subscription the
 * buyer changes, and no other change holds an unexpired lease.
 * Refuses when it cannot be taken, with the reason read back from the order.
 */
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

/**
 * Moves the order onto `created` under its row lock, if it is still open, on the old subscription and ours; the
 * order's tax becomes the new first invoice's.
 */
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

/** Gives the lease back if `attempt` still holds it (the move already cleared it on success). */
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

/** Cancels a replacement this attempt created but did not use; a failure is logged (it expires unpaid). */
async function dropUnused(context: OrderContext, transactionId: string, subscriptionId: string, attempt: string): Promise<void> {
  await context.provider
    .cancelUnpaidSubscription(subscriptionId, `${transactionId}:cancel:${subscriptionId}:${attempt}`)
    .catch((error: unknown) => context.log.error({ err: error }, 'Could not cancel an unused subscription'));
}
