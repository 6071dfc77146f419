/**
 * Finalize after a 3-D Secure redirect return (docs/decisions/0005-orders-survive-closed-tabs.md): the page holds
 * no stored record, so the order is found by its PaymentIntent.
 */
import type { FinalizeReturnRequest, FinalizeReturnResponse } from '../../src/contract/checkout';
import { centsToDollars } from '../../src/domain/pricing';
import { clientSecretMatches } from '../security/clientSecretAtRest';
import { finalizeOrRefuse } from './finalizeCheckout';
import { findOrderByPaymentIntent, type OrderContext } from './order';
import { outcomeOf, refuse, type Outcome } from './outcome';
import { buyerOfOrder, sameEmail } from './paymentBuyer';
import { callProvider } from './providerCall';

/** Refuses 'unknown_checkout', 'buyer_unknown', and as finalizeCheckout. */
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
