/**
 * The Stripe provider's browser gateway: confirms the Payment Element's PaymentIntent with
 * `stripe.confirmPayment` (Stripe.js reference, "Confirm a payment", docs.stripe.com/js/payment_intents/confirm_payment)
 * and maps the result onto our PaymentConfirmation (gateway.ts).
 *
 * `redirect: 'if_required'`: a card completes in the page (3-D Secure in Stripe's own modal) and resolves with
 * the PaymentIntent; only a redirect-based authentication leaves for `return_url` (/payment-success), where the
 * page finalizes from the address (src/api/paymentReturn.ts). The buyer's name and email go with the card as
 * `payment_method_data.billing_details` (spec §7: "confirms the payment with billing name and email"); the server
 * reads them back when the browser never finalizes.
 */
import type { PaymentIntentResult, Stripe, StripeElements } from '@stripe/stripe-js';
import { DEFAULT_PAYMENT_ERROR, type PaymentConfirmation, type PaymentGateway } from './gateway';

/** Shown when Stripe answers a status other than succeeded or processing (e.g. requires_payment_method). */
export const PAYMENT_NOT_COMPLETED_MESSAGE = 'Your payment was not completed. Please try again or use another card.';

/**
 * `result` in our terms: an error → failed with Stripe's message (written for the buyer: a decline, a failed
 * authentication, an incomplete card); status succeeded → succeeded; processing → processing; anything else →
 * failed with PAYMENT_NOT_COMPLETED_MESSAGE.
 */
function paymentConfirmationOf(result: PaymentIntentResult): PaymentConfirmation {
  // The Payment Element shows its own validation errors under its fields (Stripe: error.type 'validation_error').
  if (result.error?.type === 'validation_error') return { status: 'incomplete' };
  if (result.error) return { status: 'failed', message: result.error.message || DEFAULT_PAYMENT_ERROR };
  const intent = result.paymentIntent;
  if (intent.status === 'succeeded') return { status: 'succeeded', paymentIntentId: intent.id };
  if (intent.status === 'processing') return { status: 'processing', paymentIntentId: intent.id };
  return { status: 'failed', message: PAYMENT_NOT_COMPLETED_MESSAGE };
}

/** A gateway confirming the PaymentIntent that `elements` was created for (its `clientSecret`). */
export function createStripeGateway(stripe: Stripe, elements: StripeElements): PaymentGateway {
  return {
    provider: 'stripe',
    focusCard() {
      elements.getElement('payment')?.focus();
    },
    async confirmPayment({ billingDetails, returnUrl }) {
      const result = await stripe.confirmPayment({
        elements,
        confirmParams: {
          return_url: returnUrl,
          payment_method_data: { billing_details: { name: billingDetails.name, email: billingDetails.email } },
        },
        redirect: 'if_required',
      });
      return paymentConfirmationOf(result);
    },
  };
}
