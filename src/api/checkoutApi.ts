/**
 * The three calls of spec §7 and GET /api/config. Each raises ApiError with the server's message or the
 * spec §8 default.
 */
import { readJson, requestJson } from './client';
import type {
  CreateIntentRequest,
  FinalizeRequest,
  FinalizeResponse,
  LocateRequest,
  PublicConfig,
  TaxQuote,
  SubscriptionSession,
  UpdateIntentRequest,
  UpdateIntentResponse,
} from '../contract/checkout';

/** Spec §8 default messages. */
export const DEFAULT_ERRORS = {
  create: 'Failed to create subscription intent',
  update: 'Failed to update subscription',
  finalize: 'Failed to finalize subscription',
  locate: 'Failed to check your location. Please try again.',
  config: 'Failed to load checkout configuration',
} as const;

/** Call 1: creates the unpaid subscription for `quantity` seats and returns the session. */
export function createSubscriptionIntent(body: CreateIntentRequest): Promise<SubscriptionSession> {
  return requestJson('POST', '/api/create-anon-subscription-intent', body, DEFAULT_ERRORS.create);
}

/** Call 2: changes the seat count; returns the new client secret and subscription ids. */
export function updateSubscriptionIntent(body: UpdateIntentRequest): Promise<UpdateIntentResponse> {
  return requestJson('POST', '/api/update-anon-subscription-intent', body, DEFAULT_ERRORS.update);
}

/**
 * The location step: the buyer's country and ZIP before paying; answers the checkout's session and tax for it. A
 * refused location raises ApiError 422 whose body names the card form's field (LocationErrorResponse).
 */
export function locateSubscription(body: LocateRequest): Promise<TaxQuote> {
  return requestJson('POST', '/api/locate-anon-subscription', body, DEFAULT_ERRORS.locate);
}

/** Call 3: after the card payment succeeded, creates the buyer's account and returns credentials. */
export function finalizeSubscription(body: FinalizeRequest): Promise<FinalizeResponse> {
  return requestJson('POST', '/api/finalize-anon-subscription', body, DEFAULT_ERRORS.finalize);
}

/**
 * The server's public configuration: payment provider, publishable key, success-site addresses. `page` is the
 * path of the page asking; the server counts the checkout page's request as a page view.
 */
export function fetchPublicConfig(page: string = globalThis.location?.pathname ?? ''): Promise<PublicConfig> {
  return readJson(`/api/config?page=${encodeURIComponent(page)}`, DEFAULT_ERRORS.config);
}
