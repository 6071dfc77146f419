/**
 * A paid order's life after the purchase (issue: after the purchase): renewals paid or failed, past due and
 * recovery, cancellation at the end of the period and its undo, seat changes, new login credentials. Each change
 * happens under the order's row lock, with its funnel event and its outbox rows (mail, webhook) in the same
 * transaction. The provider operations are the sandbox's (server/payments/sandboxBilling.ts); Stripe mode manages
 * subscriptions in Stripe's Customer Portal.
 */
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Config } from '../config';
import type { Database, Transaction } from '../db/client';
import { accounts, handoffTokens, orders } from '../db/schema';
import { recordFunnelEvent } from '../funnel/funnelEvents';
import type { Order } from '../orders/order';
import { raiseOrderEvent } from '../outbox/orderEvents';
import type { RenewalEvent } from '../payments/sandboxBilling';
import { generatePassword, hashPassword } from '../security/password';

type LockedStep<T> = (tx: Transaction, order: Order) => Promise<T>;

/** Runs `step` on the order of `transactionId` under its row lock; undefined when there is no such order. */
function withLockedOrder<T>(db: Database, transactionId: string, step: LockedStep<T>): Promise<T | undefined> {
  return db.transaction(async (tx) => {
    const [order] = await tx.select().from(orders).where(eq(orders.transactionId, transactionId)).for('update');
    return order ? step(tx, order) : undefined;
  });
}

/** Applies what the provider's renewal run did to each order (only to an order still on that subscription). */
export async function applyRenewals(db: Database, config: Config, events: RenewalEvent[]): Promise<void> {
  for (const event of events) {
    await withLockedOrder(db, event.transactionId, async (tx, order) => {
      if (order.subscriptionId !== event.subscriptionId || order.status === 'cancelled') return;
      const now = new Date();
      switch (event.kind) {
        case 'renewal_paid':
          if (order.status === 'past_due') await tx.update(orders).set({ status: 'paid', updatedAt: now }).where(eq(orders.transactionId, order.transactionId));
          await raiseOrderEvent(tx, config, { kind: 'renewal_paid', transactionId: order.transactionId, invoiceId: event.invoiceId, amountCents: event.amountCents, recovered: event.recovered });
          return;
        case 'payment_failed':
          await tx.update(orders).set({ status: 'past_due', updatedAt: now }).where(eq(orders.transactionId, order.transactionId));
          await recordFunnelEvent(tx, { type: 'payment_failed', transactionId: order.transactionId, referrerId: order.referrerId, detail: { declineCode: 'card_declined', invoice: event.invoiceId } });
          await raiseOrderEvent(tx, config, { kind: 'payment_failed', transactionId: order.transactionId, invoiceId: event.invoiceId, amountCents: event.amountCents });
          return;
        case 'ended':
          await tx.update(orders).set({ status: 'cancelled', cancelledAt: now, updatedAt: now }).where(eq(orders.transactionId, order.transactionId));
          await recordFunnelEvent(tx, { type: 'cancelled', transactionId: order.transactionId, referrerId: order.referrerId, detail: { reason: event.reason } });
          await raiseOrderEvent(tx, config, { kind: 'cancelled', transactionId: order.transactionId, cancelledAt: now.toISOString() });
          return;
      }
    });
  }
}

/** Updates the locked order with `changes` and answers it as it now is. */
async function updateOrder(tx: Transaction, transactionId: string, changes: Partial<typeof orders.$inferInsert>): Promise<Order> {
  const [updated] = await tx.update(orders).set({ ...changes, updatedAt: new Date() }).where(eq(orders.transactionId, transactionId)).returning();
  if (!updated) throw new Error(`Order ${transactionId} vanished while locked`);
  return updated;
}

/**
 * Records a cancellation the provider scheduled for `cancelAt` (the end of the paid period), with its mail.
 * Answers the order as it now is.
 */
export function recordCancellation(db: Database, config: Config, order: Order, cancelAt: Date, reason: string | undefined): Promise<Order | undefined> {
  return withLockedOrder(db, order.transactionId, async (tx) => {
    const updated = await updateOrder(tx, order.transactionId, { cancelAt, cancellationReason: reason ?? null });
    await raiseOrderEvent(tx, config, { kind: 'cancel_scheduled', transactionId: order.transactionId, cancelAt: cancelAt.toISOString() });
    return updated;
  });
}

/** Records that the buyer undid a scheduled cancellation, with its mail. Answers the order as it now is. */
export function recordCancellationUndone(db: Database, config: Config, order: Order): Promise<Order | undefined> {
  return withLockedOrder(db, order.transactionId, async (tx) => {
    const updated = await updateOrder(tx, order.transactionId, { cancelAt: null, cancellationReason: null });
    await raiseOrderEvent(tx, config, { kind: 'cancel_undone', transactionId: order.transactionId, undoneAt: new Date().toISOString() });
    return updated;
  });
}

/**
 * Records a seat change made at the provider (`amountCents`: the new monthly total), with its mail and webhook.
 * Answers the order as it now is.
 */
export function recordSeatChange(db: Database, config: Config, order: Order, quantity: number, amountCents: number, changeId: string): Promise<Order | undefined> {
  return withLockedOrder(db, order.transactionId, async (tx, locked) => {
    const updated = await updateOrder(tx, order.transactionId, { quantity, amountCents });
    await recordFunnelEvent(tx, { type: 'seats_changed', transactionId: order.transactionId, referrerId: order.referrerId, detail: { from: locked.quantity, to: quantity } });
    await raiseOrderEvent(tx, config, { kind: 'seats_changed', transactionId: order.transactionId, changeId, from: locked.quantity, to: quantity, amountCents });
    return updated;
  });
}

/**
 * New login credentials for the order's account: a new generated password (shown once), whose hash replaces
 * the old one, so the old password stops working; any unredeemed hand-off token is revoked with it.
 * Returns the login email and the password, or undefined when the order has no account.
 */
export async function issueNewPassword(db: Database, transactionId: string): Promise<{ email: string; password: string } | undefined> {
  const password = generatePassword();
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx) => {
    const [account] = await tx
      .update(accounts)
      .set({ passwordHash, passwordCiphertext: null, credentialsIssuedAt: new Date() })
      .where(eq(accounts.transactionId, transactionId))
      .returning({ email: accounts.email });
    if (!account) return undefined;
    await tx
      .update(handoffTokens)
      .set({ revokedAt: sql`now()`, tokenCiphertext: null })
      .where(and(eq(handoffTokens.transactionId, transactionId), isNull(handoffTokens.redeemedAt), isNull(handoffTokens.revokedAt)));
    return { email: account.email, password };
  });
}
