/**
 * Call 3 (spec §7, finalize-anon-subscription; spec §6 "generated credentials"): after the card payment, checks
 * with the provider that the first invoice is paid in full for the order's seats, completes the order
 * (./completeOrder.ts) and hands the buyer a password and a hand-off token. A repeat re-issues both, until the
 * token has been redeemed (docs/decisions/0003-finalize-is-repeatable.md).
 */
import type { FinalizeResponse } from '../../src/api/types';
import { monthlyTotalCents } from '../../src/domain/pricing';
import { PRODUCT_NAME } from '../../src/domain/product';
import { CHECKOUT_ERRORS, HttpError } from '../http/httpError';
import type { SubscriptionPayment } from '../payments/provider';
import { newHandoffToken } from '../security/handoffToken';
import { generatePassword, hashPassword } from '../security/password';
import { completeOrder } from './completeOrder';
import { findOrder, type Order, type OrderContext } from './orderContext';
import { callProvider } from './providerCall';

export interface FinalizeInput {
  transactionId: string;
  subscriptionId: string;
  customerId: string;
  /** Trimmed and matching EMAIL_PATTERN (checked by the route). */
  email: string;
  /** Trimmed, 1–200 characters (checked by the route). */
  name: string;
}

/**
 * Finalizes the checkout and returns `{ success: true, token, loginDetails }`.
 * @throws HttpError 404 'Unknown checkout' (no order with these ids); 402 when the payment is not complete
 *   (nothing written); 409 when the order is cancelled or its hand-off token was redeemed; 502 provider failure.
 */
export async function finalizeCheckout(context: OrderContext, input: FinalizeInput): Promise<FinalizeResponse> {
  const { config, db, provider, log } = context;
  const order = await findOrder(db, input.transactionId);
  if (!order || order.subscriptionId !== input.subscriptionId || order.customerId !== input.customerId) {
    throw new HttpError(404, CHECKOUT_ERRORS.unknownCheckout);
  }
  const payment = await callProvider(log, 'retrieve subscription payment', () =>
    provider.retrieveSubscriptionPayment(order.subscriptionId),
  );
  if (!isPaidInFull(order, payment)) throw new HttpError(402, CHECKOUT_ERRORS.paymentIncomplete);

  const password = generatePassword();
  const passwordHash = await hashPassword(password);
  const handoff = newHandoffToken();
  const result = await completeOrder(db, {
    transactionId: order.transactionId,
    buyer: { email: input.email, name: input.name },
    issue: { passwordHash, handoffTokenHash: handoff.tokenHash, handoffTtlMinutes: config.HANDOFF_TTL_MINUTES },
  });
  switch (result.kind) {
    case 'unknown':
      throw new HttpError(404, CHECKOUT_ERRORS.unknownCheckout);
    case 'cancelled':
      throw new HttpError(409, CHECKOUT_ERRORS.orderCancelled);
    case 'already_complete':
      throw new HttpError(409, CHECKOUT_ERRORS.orderComplete);
  }
  log.info({ transactionId: order.transactionId, accountCreated: result.accountCreated }, 'Checkout finalized');

  // The account is committed; recording the buyer on the provider's customer is best effort. The details are
  // the account's (first recorded), so a repeat sends the same request under the same idempotency key.
  await provider
    .updateCustomer(order.customerId, result.account, `${order.transactionId}:customer-details`)
    .catch((error: unknown) => log.warn({ err: error }, 'Could not record the buyer on the provider customer'));

  return {
    success: true,
    token: handoff.token,
    loginDetails: { email: result.account.email, password, productPurchased: PRODUCT_NAME },
  };
}

/**
 * True when `payment` is this order's subscription with its first invoice paid: state 'paid', amount paid equal
 * to monthlyTotalCents(order.quantity) in 'usd', and the order's seat count (the server is the price authority).
 */
export function isPaidInFull(order: Order, payment: SubscriptionPayment | null): boolean {
  const invoice = payment?.firstInvoice;
  return (
    !!payment &&
    !!invoice &&
    payment.subscriptionId === order.subscriptionId &&
    payment.customerId === order.customerId &&
    payment.quantity === order.quantity &&
    invoice.state === 'paid' &&
    invoice.currency === 'usd' &&
    invoice.amountPaidCents === monthlyTotalCents(order.quantity)
  );
}
