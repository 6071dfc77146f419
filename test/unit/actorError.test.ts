/**
 * How a chart's named actions read an invoked actor's answer or failure from their own event
 * (src/machines/actorError.ts; docs/decisions/0058, 0060).
 */
import { describe, expect, it } from 'vitest';
import { failureOf, outputOf } from '../../src/machines/actorError';

describe('failureOf', () => {
  it("reads an error event's failure, and nothing from any other event", () => {
    const failure = new Error('refused');
    expect(failureOf({ type: 'xstate.error.actor.0.page.loading', error: failure } as never)).toBe(failure);
    expect(failureOf({ type: 'xstate.done.actor.0.page.loading', output: 'answer' } as never)).toBeUndefined();
    expect(failureOf({ type: 'RETRY_CLICKED' })).toBeUndefined();
  });
});

describe('outputOf', () => {
  it("reads an invoked actor's answer from its done event, an empty answer too", () => {
    expect(outputOf<string>({ type: 'xstate.done.actor.0.page.loading', output: 'answer' } as never)).toBe('answer');
    expect(outputOf<undefined>({ type: 'xstate.done.actor.signOut', output: undefined } as never)).toBeUndefined();
  });

  it('throws, naming the event, for an event that is not an invoked actor’s answer', () => {
    expect(() => outputOf({ type: 'RETRY_CLICKED' })).toThrow("Expected an invoked actor's answer, got RETRY_CLICKED");
    // An answer's output without the done event's type, and the type without an output: neither is an answer.
    expect(() => outputOf({ type: 'xstate.error.actor.0.page.loading', output: 'answer' } as never)).toThrow(
      "Expected an invoked actor's answer, got xstate.error.actor.0.page.loading",
    );
    expect(() => outputOf({ type: 'xstate.done.actor.0.page.loading' })).toThrow(
      "Expected an invoked actor's answer, got xstate.done.actor.0.page.loading",
    );
  });
});
