/** The buyer of an order the browser did not finalize; the details recorded first are kept (docs/decisions/0003). */
import { EMAIL_PATTERN } from '../../src/domain/validation';
import type { PaymentBuyer } from '../payments';
import type { Order, OrderContext } from './order';

/** Spec §5. */
export interface Buyer {
  email: string;
  name: string;
}

const NAME_MAX = 200;

function buyerFromPayment(payment: PaymentBuyer | null): Buyer | null {
  const email = payment?.email?.trim() ?? '';
  const name = payment?.name?.trim().slice(0, NAME_MAX) ?? '';
  return EMAIL_PATTERN.test(email) && name ? { email, name } : null;
}

/** Provider failures are rethrown for the caller to answer. */
export async function buyerOfOrder(context: Pick<OrderContext, 'provider'>, order: Order): Promise<Buyer | null> {
  if (order.email && order.name) return { email: order.email, name: order.name };
  if (!order.paymentIntentId) return null;
  return buyerFromPayment(await context.provider.retrievePaymentBuyer(order.paymentIntentId));
}

/** Case-insensitive: the domain part is, and buyers vary. */
export function sameEmail(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}
