/**
 * The order the checkout pays and finalizes, and the spec §3 record the success page reads, built from the
 * statechart's context (src/machines/checkoutMachine.ts). Money: `totalAmount` is dollars per month (spec §3).
 */
import type { PaymentSuccessRecord } from '../api/paymentRecord';
import type { RememberedOrder } from '../api/pendingPayment';
import type { FinalizeResponse, SubscriptionSession } from '../contract/checkout';
import { centsToDollars, monthlyTotalCents } from '../domain/pricing';
import { fullName, type CheckoutForm } from '../domain/validation';
import type { BillingDetails } from '../payments/gateway';
import type { QuotedTax } from './checkoutTax';

/** What of the checkout's context the order is read from. */
interface OrderSource {
  pendingPayment: RememberedOrder | null;
  session: SubscriptionSession | null;
  confirmedSeats: number;
  form: CheckoutForm;
  taxQuote: QuotedTax | null;
}

/** The monthly tax of `seats` seats from the server's quote, in cents; 0 without a quote for these seats. */
function quotedTaxCents(taxQuote: QuotedTax | null, seats: number): number {
  return taxQuote?.seats === seats ? taxQuote.taxCents : 0;
}

/**
 * The order being paid: the resumed one, else the session's, with the seats confirmed and the buyer typed.
 * @throws TypeError when there is neither: the statechart reads the order only once a checkout exists or resumes.
 */
export function orderOf(context: OrderSource): RememberedOrder {
  if (context.pendingPayment) return context.pendingPayment;
  // The chart reads the order only once a checkout exists (its session) or resumes (its pending payment).
  const session = context.session!;
  const taxCents = quotedTaxCents(context.taxQuote, context.confirmedSeats);
  return {
    transactionId: session.transactionId,
    subscriptionId: session.subscriptionId,
    customerId: session.customerId,
    seats: context.confirmedSeats,
    totalAmount: centsToDollars(monthlyTotalCents(context.confirmedSeats) + taxCents),
    ...(taxCents > 0 ? { taxAmount: centsToDollars(taxCents) } : {}),
    name: fullName(context.form),
    email: context.form.email.trim(),
  };
}

/** The spec §3 record stored for the success page: the finalize response plus the order's own fields. */
export function paymentRecord(context: OrderSource, response: FinalizeResponse): PaymentSuccessRecord {
  const order = orderOf(context);
  return {
    ...response,
    seatCount: order.seats,
    totalAmount: order.totalAmount,
    ...(order.taxAmount ? { taxAmount: order.taxAmount } : {}),
    email: order.email,
    name: order.name,
    transactionId: order.transactionId,
  };
}

/** Input of the finalizeSubscription actor: the order's ids and the buyer. */
export interface FinalizeActorInput {
  order: Pick<RememberedOrder, 'subscriptionId' | 'customerId' | 'transactionId'>;
  billingDetails: BillingDetails;
}

/** What finalize is called with: the order's ids, and the buyer who paid. */
export function finalizeInput(context: OrderSource): FinalizeActorInput {
  const order = orderOf(context);
  return { order, billingDetails: { name: order.name, email: order.email } };
}
