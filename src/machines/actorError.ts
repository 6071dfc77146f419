/**
 * How a named action or guard reads an invoked actor's answer or failure from its own event, so the chart names
 * it without params (docs/decisions/0058, 0060). An invoke with an `id` types its done event in the machine's
 * events (`ActorDone`) and the action narrows it with `assertEvent`; one without reads it with `outputOf`. A
 * failure is read with `failureOf`.
 */
import type { EventObject } from 'xstate';

/** An invoked actor's answer: XState sends `xstate.done.actor.<id>` with the actor's output. */
export type ActorDone<Id extends string, Output> = { type: `xstate.done.actor.${Id}`; output: Output };

/** The failure an error event carries; undefined for any other event (it has no `error`). */
export const failureOf = (event: EventObject): unknown => (event as { error?: unknown }).error;

/**
 * What an invoked actor answered: its done event's `output`, as that actor's answer `T`, for a named action or
 * guard on that invoke's `onDone` (an invoke without an `id` is named after its state, so its done event's type
 * is not written in the machine's events).
 * @throws when `event` is not an invoked actor's done event.
 */
export function outputOf<T>(event: EventObject): T {
  if (!event.type.startsWith('xstate.done.actor.') || !('output' in event)) {
    throw new Error(`Expected an invoked actor's answer, got ${event.type}`);
  }
  return event.output as T;
}
