/**
 * The redirect return (docs/decisions/0005-orders-survive-closed-tabs.md). When 3-D Secure
 * sends the buyer away, Stripe.js brings them back to the return_url, /payment-success, with
 * `payment_intent`, `payment_intent_client_secret` and `redirect_status` appended to the query (Stripe docs,
 * "confirmPayment" return_url; stripe-samples/accept-a-payment reads them the same way). The page then has no
 * stored record, so it finalizes from these parameters.
 */
import { DEFAULT_ERRORS } from './checkoutApi';
import { requestJson } from './client';
import { pendingPaymentEmail } from './pendingPayment';
import type { FinalizeReturnRequest, FinalizeReturnResponse } from '../contract/checkout';

/** What the return address carries. */
export interface PaymentReturn {
  paymentIntentId: string;
  clientSecret: string;
  /** Stripe's `redirect_status` ('succeeded', 'failed', …), for the logs; the server decides what was paid. */
  redirectStatus: string | null;
}

/**
 * Reads the return parameters from a query string (`location.search`, with or without the leading '?').
 * Null unless both `payment_intent` and `payment_intent_client_secret` are present and non-blank.
 */
export function readPaymentReturn(search: string): PaymentReturn | null {
  const params = new URLSearchParams(search);
  const paymentIntentId = params.get('payment_intent')?.trim();
  const clientSecret = params.get('payment_intent_client_secret')?.trim();
  if (!paymentIntentId || !clientSecret) return null;
  return { paymentIntentId, clientSecret, redirectStatus: params.get('redirect_status') };
}

/**
 * POST /api/finalize-from-payment-intent: finalizes the order paid by the returned PaymentIntent and answers
 * the record to store (spec §3). The server also requires the email the buyer paid with, from this browser's
 * pending-payment record; without one it refuses (400), and the page says so.
 * @throws ApiError with the server's message (404 unknown checkout, 402 not paid, …) or 'Failed to finalize subscription'.
 */
export function finalizeFromPaymentReturn(paymentReturn: PaymentReturn): Promise<FinalizeReturnResponse> {
  const body: FinalizeReturnRequest = {
    paymentIntentId: paymentReturn.paymentIntentId,
    clientSecret: paymentReturn.clientSecret,
    email: pendingPaymentEmail() ?? '',
  };
  return requestJson('POST', '/api/finalize-from-payment-intent', body, DEFAULT_ERRORS.finalize);
}
