/**
 * Records the buyer's email and name on the provider's customer once an order is complete, whichever path
 * completed it (finalize, a payment event, the sweep), so the provider's receipts and payment emails reach the
 * buyer. The details are the account's (first recorded), and the idempotency key is the order's, so every path
 * sends the same request and a repeat replays it.
 */
import type { Order, OrderContext } from './order';

/** Best effort: the order is already committed; a failure is logged, and the next completion path retries it. */
export async function recordBuyerOnCustomer(
  context: Pick<OrderContext, 'provider' | 'log'>,
  order: Pick<Order, 'transactionId' | 'customerId'>,
  buyer: { email: string; name: string },
): Promise<void> {
  await context.provider
    .updateCustomer(order.customerId, buyer, `${order.transactionId}:customer-details`)
    .catch((error: unknown) =>
      context.log.warn({ err: error, transactionId: order.transactionId }, 'Could not record the buyer on the provider customer'),
    );
}
