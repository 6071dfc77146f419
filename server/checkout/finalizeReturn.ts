/**
 * Finalize after a redirect return (docs/decisions/0005-orders-survive-closed-tabs.md): 3-D
 * Secure sent the buyer away and back to /payment-success with `payment_intent` and
 * `payment_intent_client_secret` in the address, and the page holds no stored record. The order is found by its
 * current PaymentIntent; the client secret stored for it and the buyer's email (from the page's pending-payment
 * record) must both match, the buyer's name and email come from the payment's billing details, and the same
 * finalize logic as call 3 runs (./finalizeCheckout.ts).
 */
import type { FinalizeReturnRequest, FinalizeReturnResponse } from '../../src/contract/checkout';
import { centsToDollars } from '../../src/domain/pricing';
import { clientSecretMatches } from '../security/clientSecretAtRest';
import { finalizeOrRefuse } from './finalizeCheckout';
import { findOrderByPaymentIntent, type OrderContext } from './order';
import { outcomeOf, refuse, type Outcome } from './outcome';
import { buyerOfOrder, sameEmail } from './paymentBuyer';
import { callProvider } from './providerCall';

/**
 * Finalizes the order paid by `paymentIntentId` and answers the finalize response with the record's fields.
 * Refusals: 'unknown_checkout' (no order has this PaymentIntent, or the client secret or the email differs);
 * 'buyer_unknown' (the payment carries no usable billing name and email); and finalizeCheckout's.
 */
export function finalizeReturn(context: OrderContext, input: FinalizeReturnRequest): Promise<Outcome<FinalizeReturnResponse>> {
  return outcomeOf(() => finalizeReturnOrRefuse(context, input));
}

async function finalizeReturnOrRefuse(context: OrderContext, input: FinalizeReturnRequest): Promise<FinalizeReturnResponse> {
  const order = await findOrderByPaymentIntent(context.db, input.paymentIntentId);
  if (!order || !clientSecretMatches(input.clientSecret, order.clientSecret)) refuse('unknown_checkout');
  const buyer = await callProvider(context.log, 'retrieve payment buyer', () => buyerOfOrder(context, order));
  if (!buyer) refuse('buyer_unknown');
  // The client secret travels in an address (and so may be seen in a history or a log); it is proof only
  // together with the email the buyer paid with. A mismatch answers like an unknown checkout.
  if (!sameEmail(buyer.email, input.email)) refuse('unknown_checkout');
  const finalized = await finalizeOrRefuse(
    context,
    {
      transactionId: order.transactionId,
      subscriptionId: order.subscriptionId,
      customerId: order.customerId,
      ...buyer,
    },
    buyer,
  );
  return {
    ...finalized,
    seatCount: order.quantity,
    totalAmount: centsToDollars(order.amountCents),
    email: buyer.email,
    name: buyer.name,
    transactionId: order.transactionId,
  };
}
