/**
 * The checkout's wire contract: each call's body and answer, once (spec §3, §7). The server validates with these
 * schemas and publishes them at GET /api/openapi.json; the browser and the server take their types from them.
 * Money here is as the spec names it: none of the three calls carries an amount; `totalAmount` is dollars.
 */
import { Type, type Static } from 'typebox';
import { EmailText, Id, NameText, Seats, Text } from './fields';

/** Body of call 1, POST /api/create-anon-subscription-intent (seats up to the server's MAX_SEATS). */
export function CreateIntentRequest(maxSeats: number) {
  return Type.Object(
    { productId: Id, quantity: Seats(maxSeats), affiliate_id: Text(1, 64), affiliate_source: Text(0, 2048) },
    { additionalProperties: false },
  );
}
export type CreateIntentRequest = Static<ReturnType<typeof CreateIntentRequest>>;

/** The subscription session (spec §3); the answer to call 1. */
export const SubscriptionSession = Type.Object({
  clientSecret: Type.String(),
  subscriptionId: Type.String(),
  subscriptionItemId: Type.String(),
  customerId: Type.String(),
  transactionId: Type.String(),
});
export type SubscriptionSession = Static<typeof SubscriptionSession>;

/** Body of call 2, POST /api/update-anon-subscription-intent. */
export function UpdateIntentRequest(maxSeats: number) {
  return Type.Object(
    { subscriptionId: Id, subscriptionItemId: Id, quantity: Seats(maxSeats), transactionId: Id, productId: Id },
    { additionalProperties: false },
  );
}
export type UpdateIntentRequest = Static<ReturnType<typeof UpdateIntentRequest>>;

/**
 * The answer to call 2. The spec reads clientSecret and subscriptionId; the server also returns the new
 * subscriptionItemId, since a seat change replaces the unpaid subscription (architecture.md, Stripe).
 */
export const UpdateIntentResponse = Type.Object({
  clientSecret: Type.String(),
  subscriptionId: Type.String(),
  subscriptionItemId: Type.String(),
  /**
   * The monthly tax of the (new) subscription, in cents: a checkout taxed for the buyer's location stays taxed
   * when its seats change, so the page shows the new tax (docs/decisions/0071). 0 untaxed.
   */
  taxCents: Type.Integer({ minimum: 0 }),
});
export type UpdateIntentResponse = Static<typeof UpdateIntentResponse>;

/**
 * Body of POST /api/locate-anon-subscription: where the buyer is, from the card form's country and ZIP, sent on
 * submit before anything is charged (docs/decisions/0071).
 */
export const LocateRequest = Type.Object(
  {
    subscriptionId: Id,
    subscriptionItemId: Id,
    transactionId: Id,
    productId: Id,
    /** ISO 3166-1 alpha-2, as the card form's country list gives it. */
    country: Text(2, 2),
    postalCode: Text(1, 16),
  },
  { additionalProperties: false },
);
export type LocateRequest = Static<typeof LocateRequest>;

/**
 * The answer to POST /api/locate-anon-subscription: the checkout's session for the location (a new one when the
 * location owes tax and the unpaid subscription was replaced by a taxed one, else the same), with its monthly
 * amounts in cents. The page charges the total only after the buyer confirmed it when `taxCents` > 0.
 */
export const TaxQuote = Type.Object({
  clientSecret: Type.String(),
  subscriptionId: Type.String(),
  subscriptionItemId: Type.String(),
  /** The seats' monthly amount before tax, in cents. */
  subtotalCents: Type.Integer({ minimum: 0 }),
  /** The monthly tax, in cents; 0 where none is owed. */
  taxCents: Type.Integer({ minimum: 0 }),
  /** The state the tax is for ('HI'); null untaxed. */
  taxState: Type.Union([Type.String(), Type.Null()]),
});
export type TaxQuote = Static<typeof TaxQuote>;

/** A location refused (422, 400): why, and the card form's field it is shown at. */
export const LocationErrorResponse = Type.Object({
  error: Type.String(),
  field: Type.Union([Type.Literal('country'), Type.Literal('postalCode')]),
});
export type LocationErrorResponse = Static<typeof LocationErrorResponse>;

/** Body of call 3, POST /api/finalize-anon-subscription. `name` is first and last name joined. */
export const FinalizeRequest = Type.Object(
  { subscriptionId: Id, customerId: Id, transactionId: Id, email: EmailText, name: NameText },
  { additionalProperties: false },
);
export type FinalizeRequest = Static<typeof FinalizeRequest>;

/** The buyer's generated credentials (spec §3). */
const LoginDetails = Type.Object({
  email: Type.String(),
  password: Type.String(),
  productPurchased: Type.String(),
});

/**
 * The answer to call 3 (spec §3). `token` is the single-use hand-off token for the success site. Credentials are
 * handed out once, to the checkout that paid (docs/decisions/0026): after the first hand-off window, or once the
 * buyer changed the password on /account, `token` and `loginDetails` are null and `signInLinkEmailed` is true:
 * a sign-in link to /account was mailed to the buyer instead.
 */
export const FinalizeResponse = Type.Object({
  success: Type.Boolean(),
  token: Type.Union([Type.String(), Type.Null()]),
  loginDetails: Type.Union([LoginDetails, Type.Null()]),
  signInLinkEmailed: Type.Boolean({ description: 'True when no credentials are answered and a sign-in link was mailed.' }),
});
export type FinalizeResponse = Static<typeof FinalizeResponse>;

/**
 * Body of POST /api/finalize-from-payment-intent: the parameters Stripe appends to the return URL after a
 * redirect (3-D Secure) brings the buyer back to /payment-success (`payment_intent`,
 * `payment_intent_client_secret`), with the buyer's email from the page's pending-payment record. The client
 * secret and the matching billing email together are the buyer's proof of the checkout.
 */
export const FinalizeReturnRequest = Type.Object(
  { paymentIntentId: Id, clientSecret: Id, email: EmailText },
  { additionalProperties: false },
);
export type FinalizeReturnRequest = Static<typeof FinalizeReturnRequest>;

/**
 * The answer to POST /api/finalize-from-payment-intent: the finalize answer plus what the page stores with it
 * (spec §3 record): seatCount, totalAmount (dollars per month), email, name and transactionId.
 */
export const FinalizeReturnResponse = Type.Object({
  success: Type.Boolean(),
  token: Type.Union([Type.String(), Type.Null()]),
  loginDetails: Type.Union([LoginDetails, Type.Null()]),
  signInLinkEmailed: Type.Boolean(),
  seatCount: Type.Integer(),
  totalAmount: Type.Number({ description: 'Monthly total in dollars (spec §3).' }),
  email: Type.String(),
  name: Type.String(),
  transactionId: Type.String(),
});
export type FinalizeReturnResponse = Static<typeof FinalizeReturnResponse>;

/** The answer to GET /api/config: what the browser may know about the server's set-up. */
export const PublicConfig = Type.Object({
  paymentProvider: Type.Enum(['sandbox', 'stripe']),
  /** Stripe's publishable key; null with the sandbox provider. */
  stripePublishableKey: Type.Union([Type.String(), Type.Null()]),
  /** The success site where the training agreement is signed; chosen by the §7 host rule. */
  successSite: Type.Object({ local: Type.String(), production: Type.String() }),
  /** The training platform's address that starts its sign-in (TRAINING_PLATFORM_URL); null when not configured. */
  trainingPlatformUrl: Type.Union([Type.String(), Type.Null()]),
});
export type PublicConfig = Static<typeof PublicConfig>;

/** Body of every error answer: `{ "error": "…" }` (architecture.md). */
export const ErrorResponse = Type.Object({ error: Type.String() });
export type ErrorResponse = Static<typeof ErrorResponse>;
