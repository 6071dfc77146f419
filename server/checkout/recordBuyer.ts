/**
 * Puts the buyer on the provider's customer so its receipts reach them. The idempotency key is the order's, so
 * every completion path sends the same request.
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
