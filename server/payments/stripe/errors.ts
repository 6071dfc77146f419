/**
 * Stripe's errors as our own: the message is safe for the buyer (never the key, Stripe's raw message or parameters);
 * the trace for operators is kept apart in `stripe` (Stripe docs, "Error handling").
 */
import Stripe from 'stripe';
import { ProviderFailure } from '../../http/httpError';

/**
 * `unavailable` even after the SDK's retries; `misconfigured` our side; `rejected` by Stripe; `conflict` an
 * idempotency key reused; `unexpected` a shape we cannot read.
 */
type StripeFailureKind = 'unavailable' | 'misconfigured' | 'rejected' | 'conflict' | 'unexpected';

/** Safe to log, not meant for the browser. */
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

export class StripeProviderError extends ProviderFailure {
  override readonly name = 'StripeProviderError';

  constructor(
    readonly kind: StripeFailureKind,
    readonly action: string,
    /** Undefined when the failure is ours. */
    readonly stripe?: StripeErrorTrace,
    message: string = PUBLIC_MESSAGES[kind],
  ) {
    super(message);
  }

  get logFields(): Record<string, unknown> {
    return { action: this.action, stripe: this.stripe };
  }

  /** The same call may succeed later without any change on our side. */
  get retryable(): boolean {
    return this.kind === 'unavailable' || this.kind === 'conflict';
  }
}

function isStripeError(error: unknown): error is Stripe.errors.StripeError {
  return error instanceof Stripe.errors.StripeError;
}

export function isCardDecline(error: unknown): boolean {
  return error instanceof Stripe.errors.StripeCardError;
}

/** Stripe docs, "Collect customer addresses". */
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
  return 'rejected';
}

/** Errors that are not Stripe's are rethrown unchanged, so a bug is not disguised. */
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
