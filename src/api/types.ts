/**
 * Shapes of the calls in spec §7, shared by the browser client and the server routes.
 * Money in these shapes is as the spec names it: none of the three calls carries an amount.
 */

/** Body of call 1, POST /api/create-anon-subscription-intent. */
export interface CreateIntentRequest {
  productId: string;
  quantity: number;
  affiliate_id: string;
  affiliate_source: string;
}

/** The subscription session (spec §3); the response of call 1. */
export interface SubscriptionSession {
  clientSecret: string;
  subscriptionId: string;
  subscriptionItemId: string;
  customerId: string;
  transactionId: string;
}

/** Body of call 2, POST /api/update-anon-subscription-intent. */
export interface UpdateIntentRequest {
  subscriptionId: string;
  subscriptionItemId: string;
  quantity: number;
  transactionId: string;
  productId: string;
}

/**
 * Response of call 2. The spec reads clientSecret and subscriptionId; the server also returns the new
 * subscriptionItemId, since a seat change replaces the unpaid subscription (architecture.md, Stripe).
 */
export interface UpdateIntentResponse {
  clientSecret: string;
  subscriptionId: string;
  subscriptionItemId: string;
}

/** Body of call 3, POST /api/finalize-anon-subscription. `name` is first and last name joined. */
export interface FinalizeRequest {
  subscriptionId: string;
  customerId: string;
  transactionId: string;
  email: string;
  name: string;
}

/** The buyer's generated credentials (spec §3). */
export interface LoginDetails {
  email: string;
  password: string;
  productPurchased: string;
}

/** Response of call 3 (spec §3). `token` is the single-use hand-off token for the success site. */
export interface FinalizeResponse {
  success: boolean;
  token: string;
  loginDetails: LoginDetails;
}

/**
 * Body of POST /api/finalize-from-payment-intent: the parameters Stripe appends to the return URL after a
 * redirect (3-D Secure) brings the buyer back to /payment-success (`payment_intent`,
 * `payment_intent_client_secret`), with the buyer's email from the page's pending-payment record. The client
 * secret and the matching billing email together are the buyer's proof of the checkout.
 */
export interface FinalizeReturnRequest {
  paymentIntentId: string;
  clientSecret: string;
  /** The email the buyer paid with; must equal the payment's billing email (a client secret alone proves nothing). */
  email: string;
}

/**
 * Response of POST /api/finalize-from-payment-intent: the finalize response plus what the page stores with it
 * (spec §3 record): seatCount, totalAmount (dollars per month), email, name and transactionId.
 */
export interface FinalizeReturnResponse extends FinalizeResponse {
  seatCount: number;
  /** Monthly total in dollars (spec §3). */
  totalAmount: number;
  email: string;
  name: string;
  transactionId: string;
}

/** Response of GET /api/config: what the browser may know about the server's set-up. */
export interface PublicConfig {
  paymentProvider: 'sandbox' | 'stripe';
  /** Stripe's publishable key; null with the sandbox provider. */
  stripePublishableKey: string | null;
  /** The success site where the training agreement is signed; chosen by the §7 host rule. */
  successSite: { local: string; production: string };
}

/** Body of every error response: `{ "error": "…" }`. */
export interface ErrorResponse {
  error: string;
}
