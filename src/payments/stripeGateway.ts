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

/**
 * A gateway for the Payment Element in `elements`. The card is collected once, as a ConfirmationToken (Stripe docs,
 * "Build two-step confirmation"): its `payment_method_preview.billing_details.address` gives the buyer's location
 * for the tax step, and the token confirms whichever PaymentIntent the checkout then has, so a subscription
 * replaced for tax is paid without the card typed again (docs/decisions/0071).
 */
export function createStripeGateway(stripe: Stripe, elements: StripeElements): PaymentGateway {
  let confirmationToken: string | null = null;
  return {
    provider: 'stripe',
    focusCard() {
      elements.getElement('payment')?.focus();
    },
    async collectLocation({ billingDetails, returnUrl }) {
      confirmationToken = null;
      // The Payment Element checks its fields and shows its own errors under them (Stripe: `elements.submit()`).
      const submitted = await elements.submit();
      if (submitted.error) {
        return submitted.error.type === 'validation_error'
          ? { status: 'incomplete' }
          : { status: 'failed', message: submitted.error.message || DEFAULT_PAYMENT_ERROR };
      }
      const created = await stripe.createConfirmationToken({
        elements,
        params: {
          return_url: returnUrl,
          payment_method_data: { billing_details: { name: billingDetails.name, email: billingDetails.email } },
        },
      });
      if (created.error) return { status: 'failed', message: created.error.message || DEFAULT_PAYMENT_ERROR };
      confirmationToken = created.confirmationToken.id;
      const address = created.confirmationToken.payment_method_preview.billing_details.address;
      return { status: 'collected', location: { country: address?.country ?? '', postalCode: address?.postal_code ?? '' } };
    },
    async confirmPayment({ clientSecret, returnUrl }) {
      if (!confirmationToken) return { status: 'failed', message: PAYMENT_NOT_COMPLETED_MESSAGE };
      const result = await stripe.confirmPayment({
        clientSecret,
        confirmParams: { return_url: returnUrl, confirmation_token: confirmationToken },
        redirect: 'if_required',
      });
      return paymentConfirmationOf(result);
    },
  };
}
