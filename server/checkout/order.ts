/**
 * An order (its row, found by transaction or PaymentIntent), and what the order steps work with: the
 * configuration, the database, the payment provider, the cipher that keeps issued credentials until the
 * hand-off, and a logger.
 */
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import type { Database } from '../db/client';
import { orders } from '../db/schema';
import type { PaymentProvider } from '../payments';
import type { CredentialsCipher } from '../security/credentialsCipher';
import type { OrderListeners } from './orderListeners';

export interface OrderContext {
  config: Config;
  db: Database;
  provider: PaymentProvider;
  cipher: CredentialsCipher;
  /** Hear what the lifecycle changes, in its transaction (./orderListeners.ts): the outbox, seats, commissions. */
  listeners: OrderListeners;
  log: FastifyBaseLogger;
}

/** One row of `orders`: quantity in seats, amountCents the monthly total in integer cents. */
export type Order = typeof orders.$inferSelect;

/** True for an order the buyer has paid for and still holds: 'paid', or 'past_due' while a renewal is unpaid. */
export function isPaidOrder(order: Pick<Order, 'status'>): boolean {
  return order.status === 'paid' || order.status === 'past_due';
}

/** The order of `transactionId`, or undefined. */
export async function findOrder(db: Database, transactionId: string): Promise<Order | undefined> {
  const [order] = await db.select().from(orders).where(eq(orders.transactionId, transactionId));
  return order;
}

/** The order whose current first invoice is paid by PaymentIntent `paymentIntentId`, or undefined. */
export async function findOrderByPaymentIntent(db: Database, paymentIntentId: string): Promise<Order | undefined> {
  const [order] = await db.select().from(orders).where(eq(orders.paymentIntentId, paymentIntentId));
  return order;
}

/** The long-lived part of an OrderContext, given to the routes; each request adds its own logger. */
export type OrderServices = Omit<OrderContext, 'log'>;
