/**
 * Stripe's errors, turned into our own. Routes can show `StripeProviderError.message` to the buyer: it never
 * carries the secret key, Stripe's raw message or request parameters. What an operator needs to trace the
 * failure (Stripe's error type and code, HTTP status and request id) is kept apart in `stripe`, for the logs.
 *
 * Error classes and codes: Stripe docs, "Error handling" and "Error codes"; stripe-node `Error.d.ts`.
 */
import Stripe from 'stripe';
import { ProviderFailure } from '../../http/httpError';

/**
 * What went wrong, in our terms:
 * - `unavailable`: Stripe could not be reached or failed (connection, 5xx, rate limit), even after the SDK's retries.
 * - `misconfigured`: our side is wrong (bad or revoked key, missing permission, missing Price).
 * - `rejected`: Stripe refused the request (invalid parameters, a declined card).
 * - `conflict`: an idempotency key was reused with different parameters, or is still in use.
 * - `unexpected`: Stripe answered with a shape the adapter cannot read.
 */
type StripeFailureKind = 'unavailable' | 'misconfigured' | 'rejected' | 'conflict' | 'unexpected';

/** The traceable parts of a Stripe error: safe to log, not meant for the browser. */
interface StripeErrorTrace {
  type: string;
  code: string | undefined;
  statusCode: number | undefined;
  requestId: string | undefined;
}

const PUBLIC_MESSAGES: Record<StripeFailureKind, string> = {
  unavailable: 'The payment service is temporarily unavailable. Please try again.',
  misconfigured: 'The payment service is not set up correctly. Please contact support.',
  rejected: 'The payment service could not process this request.',
  conflict: 'This request conflicts with one still being processed. Please try again.',
  unexpected: 'The payment service returned an unexpected answer. Please try again.',
};

/** A failed Stripe call, with a message safe to show to the buyer. */
export class StripeProviderError extends ProviderFailure {
  override readonly name = 'StripeProviderError';

  constructor(
    readonly kind: StripeFailureKind,
    /** What the adapter was doing, for the logs ("create subscription"). */
    readonly action: string,
    /** Stripe's error type, code, status and request id; undefined when the failure is ours. */
    readonly stripe?: StripeErrorTrace,
    message: string = PUBLIC_MESSAGES[kind],
  ) {
    super(message);
  }

  /** What the log line of a failed request adds (server/http/errorHandler.ts). */
  get logFields(): Record<string, unknown> {
    return { action: this.action, stripe: this.stripe };
  }

  /** True when the same call may succeed later without any change on our side. */
  get retryable(): boolean {
    return this.kind === 'unavailable' || this.kind === 'conflict';
  }
}

function isStripeError(error: unknown): error is Stripe.errors.StripeError {
  return error instanceof Stripe.errors.StripeError;
}

/** True when Stripe refused a charge because of the card (HTTP 402, a `card_error` such as `card_declined`). */
export function isCardDecline(error: unknown): boolean {
  return error instanceof Stripe.errors.StripeCardError;
}

/** True when Stripe says the object does not exist (HTTP 404, code `resource_missing`). */
/** True when Stripe Tax cannot place the customer's address (Stripe docs, "Collect customer addresses"). */
export function isTaxLocationInvalid(error: unknown): boolean {
  return isStripeError(error) && error.code === 'customer_tax_location_invalid';
}

export function isResourceMissing(error: unknown): boolean {
  return isStripeError(error) && error.code === 'resource_missing';
}

function kindOf(error: Stripe.errors.StripeError): StripeFailureKind {
  if (error instanceof Stripe.errors.StripeConnectionError) return 'unavailable';
  if (error instanceof Stripe.errors.StripeAPIError) return 'unavailable';
  if (error instanceof Stripe.errors.StripeRateLimitError) return 'unavailable';
  if (error instanceof Stripe.errors.StripeAuthenticationError) return 'misconfigured';
  if (error instanceof Stripe.errors.StripePermissionError) return 'misconfigured';
  if (error instanceof Stripe.errors.StripeIdempotencyError) return 'conflict';
  if (error.statusCode === 409) return 'conflict';
  if (error.statusCode !== undefined && error.statusCode >= 500) return 'unavailable';
  // StripeInvalidRequestError, StripeCardError (not expected server-side) and anything newer.
  return 'rejected';
}

/**
 * Turns whatever a Stripe call threw into a StripeProviderError. Our own StripeProviderError passes through;
 * errors that are not Stripe's (a bug in our code) are rethrown unchanged so they are not disguised.
 */
export function toProviderError(error: unknown, action: string): Error {
  if (error instanceof StripeProviderError) return error;
  if (!isStripeError(error)) return error instanceof Error ? error : new Error(String(error));
  return new StripeProviderError(kindOf(error), action, {
    type: error.type,
    code: error.code,
    statusCode: error.statusCode,
    requestId: error.requestId,
  });
}
