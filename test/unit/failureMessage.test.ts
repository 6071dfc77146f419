/**
 * The words a page shows for a failed call (src/machines/failureMessage.ts): the failure's own, never an empty
 * alert.
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/client';
import { failureMessage } from '../../src/machines/failureMessage';

const failed = (error: unknown) => ({ type: 'xstate.error.actor.0.page.loading', error });
const FALLBACK = 'Something went wrong. Please try again.';

describe('failureMessage', () => {
  it("shows the server's words, and the client's own when the server was never reached", () => {
    expect(failureMessage(failed(new ApiError('That email is already on this team.', 409)))).toBe('That email is already on this team.');
    expect(failureMessage(failed(new ApiError('The console could not reach the server. Please try again.', 0)))).toBe(
      'The console could not reach the server. Please try again.',
    );
    expect(failureMessage(failed(new TypeError('Failed to fetch')))).toBe('Failed to fetch');
  });

  it('falls back to words of its own for a failure without any', () => {
    expect(failureMessage(failed(new Error('')))).toBe(FALLBACK);
    expect(failureMessage(failed('timeout'))).toBe(FALLBACK);
    expect(failureMessage(failed(undefined))).toBe(FALLBACK);
    expect(failureMessage({ type: 'RETRY_CLICKED' })).toBe(FALLBACK);
  });
});
