/**
 * Finalize after a redirect return (issue 4 item 8; docs/decisions/0005-orders-survive-closed-tabs.md): 3-D
 * Secure sent the buyer away and back to /payment-success with `payment_intent` and
 * `payment_intent_client_secret` in the address, and the page holds no stored record. The order is found by its
 * current PaymentIntent, the client secret stored for it is the buyer's proof, the buyer's name and email come
 * from the payment's billing details, and the same finalize logic as call 3 runs (./finalizeCheckout.ts).
 */
import type { FinalizeReturnRequest, FinalizeReturnResponse } from '../../src/api/types';
import { centsToDollars } from '../../src/domain/pricing';
import { CHECKOUT_ERRORS, HttpError } from '../http/httpError';
import { secretsMatch } from '../security/secretCompare';
import { finalizeCheckout } from './finalizeCheckout';
import { findOrderByPaymentIntent, type OrderContext } from './orderContext';
import { buyerOfOrder } from './paymentBuyer';
import { callProvider } from './providerCall';

/**
 * Finalizes the order paid by `paymentIntentId` and returns the finalize response with the record's fields.
 * @throws HttpError 404 'Unknown checkout' (no order has this PaymentIntent, or the client secret differs);
 *   422 when the payment carries no usable billing name and email; 502 provider failure; and finalizeCheckout's
 *   402 (not paid), 409 (cancelled, or the hand-off token was redeemed).
 */
export async function finalizeReturn(context: OrderContext, input: FinalizeReturnRequest): Promise<FinalizeReturnResponse> {
  const order = await findOrderByPaymentIntent(context.db, input.paymentIntentId);
  if (!order || !secretsMatch(input.clientSecret, order.clientSecret)) throw new HttpError(404, CHECKOUT_ERRORS.unknownCheckout);
  const buyer = await callProvider(context.log, 'retrieve payment buyer', () => buyerOfOrder(context, order));
  if (!buyer) throw new HttpError(422, CHECKOUT_ERRORS.buyerUnknown);
  const finalized = await finalizeCheckout(context, {
    transactionId: order.transactionId,
    subscriptionId: order.subscriptionId,
    customerId: order.customerId,
    ...buyer,
  });
  return {
    ...finalized,
    seatCount: order.quantity,
    totalAmount: centsToDollars(order.amountCents),
    email: finalized.loginDetails.email,
    name: buyer.name,
    transactionId: order.transactionId,
  };
}
