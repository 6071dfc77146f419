/**
 * The console session ending, the same for every console statechart (docs/decisions/0058, 0060): any console call
 * answered 401 means the session ended (server/sessions/), and the statechart emits `unauthorised` so the console
 * shows its sign-in form instead of an error (the view hears it through src/views/admin/useSessionEnded.ts).
 * Each console chart spreads `sessionEndedGuards` and `sessionEndedActions<Context, Event>()` into its `setup`
 * (the guard and the action by name, as the diagrams show them) and starts each call's `onError` with
 * `sessionEndedTo(state)`: no chart writes a 401 branch of its own. The manage page's and the partner page's charts
 * take the same `sessionEnded` guard: their sessions end the same way (server/sessions/).
 */
import { emit, type EventObject, type MachineContext } from 'xstate';
import { ApiError } from '../api/client';
import { failureOf } from './actorError';

/** What a console chart emits when its session ended. */
export type SessionEndedEmitted = { type: 'unauthorised' };

export const sessionEndedGuards = {
  /** The call's failure (its error event) is the console session ending: a 401. */
  sessionEnded: ({ event }: { event: EventObject }): boolean => {
    const error = failureOf(event);
    return error instanceof ApiError && error.status === 401;
  },
};

/** The chart's actions on a session that ended, typed for its context and events. */
export function sessionEndedActions<TContext extends MachineContext, TEvent extends EventObject>() {
  return {
    emitUnauthorised: emit<TContext, TEvent, undefined, TEvent, SessionEndedEmitted>({ type: 'unauthorised' }),
  };
}

/**
 * The first branch of a console call's `onError`: a session that ended goes to `target` (a state of the chart),
 * emitting `unauthorised`; the chart's own branches for other failures follow it.
 */
export function sessionEndedTo<TTarget extends string>(target: TTarget) {
  return { guard: 'sessionEnded', target, actions: 'emitUnauthorised' } as const;
}
