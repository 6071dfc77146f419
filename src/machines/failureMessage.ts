/**
 * What a page shows when an invoked call fails: the failure's own words. src/api/client.ts rejects only with an
 * `ApiError` carrying the server's `error` or the client's own words (an empty `error` is replaced), so the
 * fallback is for a failure that is no `Error` or has no words: a page never shows an empty alert.
 */
import type { EventObject } from 'xstate';
import { failureOf } from './actorError';

/** The words shown for a failure that carries none. */
const FAILURE_FALLBACK = 'Something went wrong. Please try again.';

/** The words of the failure `event` carries (an `xstate.error.actor.*` event); FAILURE_FALLBACK when it has none. */
export function failureMessage(event: EventObject): string {
  const error = failureOf(event);
  return error instanceof Error && error.message ? error.message : FAILURE_FALLBACK;
}
