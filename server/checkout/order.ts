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
  /** Run in the lifecycle's transaction (./orderListeners.ts). */
  listeners: OrderListeners;
  log: FastifyBaseLogger;
}

/** Amounts in integer cents. */
export type Order = typeof orders.$inferSelect;

/** 'past_due' still holds it while a renewal is unpaid. */
export function isPaidOrder(order: Pick<Order, 'status'>): boolean {
  return order.status === 'paid' || order.status === 'past_due';
}

export async function findOrder(db: Database, transactionId: string): Promise<Order | undefined> {
  const [order] = await db.select().from(orders).where(eq(orders.transactionId, transactionId));
  return order;
}

export async function findOrderByPaymentIntent(db: Database, paymentIntentId: string): Promise<Order | undefined> {
  const [order] = await db.select().from(orders).where(eq(orders.paymentIntentId, paymentIntentId));
  return order;
}

export type OrderServices = Omit<OrderContext, 'log'>;
