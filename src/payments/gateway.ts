/**
 * The browser payment gateway: what the checkout statechart needs from whichever payment form is on the page
 * (Stripe's Payment Element, or the sandbox card form). The form registers a gateway with the machine
 * (PAYMENT_FORM_READY) once it can confirm a payment for the current client secret.
 */
import type { TaxLocation } from '../domain/tax';

/** Billing details sent with the confirmation (spec §7: "billing name and email"). */
export interface BillingDetails {
  name: string;
  email: string;
}

export interface ConfirmPaymentInput {
  /**
   * The PaymentIntent to confirm: the checkout's current one, which the location step may have replaced since the
   * form was made (a taxed subscription; docs/decisions/0071). The card typed in the form pays it.
   */
  clientSecret: string;
  billingDetails: BillingDetails;
  /** Absolute URL of /payment-success: where a redirect-based authentication returns (spec §4). */
  returnUrl: string;
}

/**
 * Outcome of a confirmation, in Stripe's PaymentIntent terms. `failed` carries the message for the
 * 'Payment Failed' toast (a decline, a failed authentication, a card form error).
 */
export type PaymentConfirmation =
  | { status: 'succeeded'; paymentIntentId: string }
  | { status: 'processing'; paymentIntentId: string }
  | { status: 'failed'; message: string }
  /** The card form shows under its own fields what is missing or wrong; nothing was sent (no toast). */
  | { status: 'incomplete' };

/**
 * The buyer's location read from the card form before anything is charged (Stripe: `elements.submit()` and a
 * ConfirmationToken's `payment_method_preview.billing_details.address`; the sandbox: its country and ZIP fields).
 * `incomplete`: the form shows under its own fields what is missing; `failed`: why, for the pay button.
 */
export type LocationCollection =
  { status: 'collected'; location: TaxLocation } | { status: 'incomplete' } | { status: 'failed'; message: string };

export interface PaymentGateway {
  /** Which implementation this is: 'stripe' or 'sandbox'. */
  readonly provider: 'stripe' | 'sandbox';
  /** Checks the card form and reads the buyer's country and ZIP from it, with the buyer's billing details. */
  collectLocation(input: { billingDetails: BillingDetails; returnUrl: string }): Promise<LocationCollection>;
  /**
   * Confirms the payment of `clientSecret` with the card collected by collectLocation, without a forced redirect. Resolves with the outcome;
   * rejects only on an unexpected failure (network down, script not loaded).
   */
  confirmPayment(input: ConfirmPaymentInput): Promise<PaymentConfirmation>;
  /** Puts the focus on the card number (a re-created form after a seat change: the buyer types the card again). */
  focusCard(): void;
}

/** The default message of the 'Payment Failed' toast (spec §8). */
export const DEFAULT_PAYMENT_ERROR = 'An error occurred during payment. Please try again.';
