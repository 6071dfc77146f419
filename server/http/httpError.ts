/** An error the client is meant to see: its status and `{ "error": message }` (architecture.md). */
export class HttpError extends Error {
  override name = 'HttpError';
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

/** A payment provider's failure: the client gets 502 and the message, the log `logFields` too. */
export abstract class ProviderFailure extends Error {
  abstract readonly logFields: Record<string, unknown>;
}

// One place, so tests and clients can rely on them.
export const CHECKOUT_ERRORS = {
  unknownProduct: 'Unknown product.',
  unknownCheckout: 'Unknown checkout',
  checkoutChanged: 'This checkout was changed in another window. Please refresh the page and try again.',
  seatsBeingUpdated: 'Seats are being updated. Please wait a moment and try again.',
  orderPaid: 'This order has already been paid.',
  orderCancelled: 'This order has been cancelled.',
  buyerMismatch: 'This email is not the one this order was paid with.',
  paymentIncomplete: 'Payment has not been completed for this order.',
  providerUnavailable: 'The payment provider could not complete the request. Please try again.',
  emailInvalid: 'Email is invalid',
  nameRequired: 'Name is required',
  buyerUnknown: 'The payment carries no billing name and email. Please contact support.',
} as const;

/** Stripe shows them in the endpoint's delivery log. */
export const WEBHOOK_ERRORS = {
  badSignature: 'Webhook signature verification failed.',
  malformedEvent: 'The webhook body is not a well-formed event.',
  retryLater: 'The event could not be processed now; it will be retried.',
} as const;
