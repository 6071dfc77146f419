/**
 * The buyer of an order the browser did not finalize (a webhook, a 3-D Secure redirect return): the details
 * recorded on the order when there are any (docs/decisions/0003: the details recorded first are kept), else the
 * billing name and email sent with the card confirmation, read back from the provider.
 */
import { EMAIL_PATTERN } from '../../src/domain/validation';
import type { PaymentBuyer } from '../payments';
import type { Order, OrderContext } from './order';

/** A buyer usable for an account: a trimmed email matching EMAIL_PATTERN (spec §5) and a non-blank name. */
export interface Buyer {
  email: string;
  /** Trimmed, at most 200 characters (the finalize call's limit). */
  name: string;
}

/** The limit of the finalize call's `name` (server/checkout/routes/finalize.ts). */
const NAME_MAX = 200;

/** `payment`'s billing details as a Buyer; null when the email is missing or invalid or the name is blank. */
function buyerFromPayment(payment: PaymentBuyer | null): Buyer | null {
  const email = payment?.email?.trim() ?? '';
  const name = payment?.name?.trim().slice(0, NAME_MAX) ?? '';
  return EMAIL_PATTERN.test(email) && name ? { email, name } : null;
}

/**
 * The order's recorded buyer, or the provider's billing details of its current PaymentIntent.
 * Null when neither gives a usable buyer. Provider failures are rethrown for the caller to answer.
 */
export async function buyerOfOrder(context: Pick<OrderContext, 'provider'>, order: Order): Promise<Buyer | null> {
  if (order.email && order.name) return { email: order.email, name: order.name };
  if (!order.paymentIntentId) return null;
  return buyerFromPayment(await context.provider.retrievePaymentBuyer(order.paymentIntentId));
}

/** Emails compare trimmed and without regard to case (the domain part is case-insensitive, and buyers vary). */
export function sameEmail(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}
