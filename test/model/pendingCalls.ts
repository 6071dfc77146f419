/**
 * The calls a page's invoked actors make, kept in flight until a model path answers them: a path step
 * `xstate.done.actor.<id>` resolves the call of the actor invoked by that state, `xstate.error.actor.<id>` rejects it.
 */
import { fromPromise, type AnyEventObject } from 'xstate';
import { deferred, type Deferred } from '../views/support/timers';

const ACTOR_RESULT = /^xstate\.(done|error)\.actor\.\d+\.(.+)$/;

export class PendingCalls<TKind extends string> {
  private readonly inFlight = new Map<TKind, Array<Deferred<unknown>>>();

  /** @param kindByState which call each invoking state (its id, e.g. 'checkout.updating') makes. */
  constructor(private readonly kindByState: Record<string, TKind>) {}

  /** An actor whose every call waits for the path. */
  actor<TOutput, TInput>(kind: TKind) {
    return fromPromise<TOutput, TInput>(() => {
      const answer = deferred<unknown>();
      this.inFlight.set(kind, [...(this.inFlight.get(kind) ?? []), answer]);
      return answer.promise as Promise<TOutput>;
    });
  }

  /**
   * Settles the call `event` answers, when it is an invoked actor's result; returns false for any other event.
   * @throws when no call of that actor is in flight.
   */
  answer(event: AnyEventObject): boolean {
    const result = ACTOR_RESULT.exec(event.type);
    if (!result) return false;
    const kind = this.kindByState[result[2] ?? ''];
    const call = kind && this.inFlight.get(kind)?.shift();
    if (!call) throw new Error(`No call in flight for ${event.type}`);
    if (result[1] === 'done') call.resolve((event as unknown as { output: unknown }).output);
    else call.reject((event as unknown as { error: unknown }).error);
    return true;
  }
}
