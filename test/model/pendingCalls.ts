/**
 * The calls a page's invoked actors make, kept in flight until a model path answers them: a path step
 * `xstate.done.actor.<id>` resolves the call of the actor invoked by that state, `xstate.error.actor.<id>` rejects it.
 */
import { fromPromise, type AnyEventObject } from 'xstate';
import { deferred, type Deferred } from '../views/support/timers';

/** An actor's result: `…actor.0.checkout.updating` for an invoke without an id (its state), `…actor.loadPaymentRecord` with one. */
const ACTOR_RESULT = /^xstate\.(done|error)\.actor\.(?:\d+\.)?(.+)$/;

export class PendingCalls<TKind extends string> {
  private readonly inFlight = new Map<TKind, Array<Deferred<unknown>>>();
  private readonly methods = new Map<TKind, string>();
  private readonly inputs = new Map<TKind, unknown[]>();
  /** Calls made so far, of any kind: a timer's rule is that no call starts before it is due. */
  started = 0;

  /** @param kindByState which call each invoking state (its id, e.g. 'checkout.updating') or invoke id makes. */
  constructor(private readonly kindByState: Record<string, TKind>) {}

  /** An actor whose every call waits for the path. */
  actor<TOutput, TInput>(kind: TKind) {
    return fromPromise<TOutput, TInput>(({ input }) => {
      this.started++;
      this.inputs.set(kind, [...this.inputsOf(kind), input]);
      const answer = deferred<unknown>();
      this.inFlight.set(kind, [...(this.inFlight.get(kind) ?? []), answer]);
      return answer.promise as Promise<TOutput>;
    });
  }

  /** A call made outside fetch (the clipboard): resolves with the output or rejects with the error the path answers. */
  promise<T>(kind: TKind): Promise<T> {
    this.started++;
    const answer = deferred<unknown>();
    this.inFlight.set(kind, [answer]);
    return answer.promise as Promise<T>;
  }

  /**
   * A call made over HTTP (the page's real client builds the request): waits for the path, then answers as the
   * server would. A result is a 200 with the output as JSON; an error with an HTTP status is that status with
   * `{ error }`; an error with status 0 is a network failure (fetch rejects).
   * @param toBody the response body for an output, when the actor's output is not the body itself.
   * @param method the request's method: a GET is a read, which the read module may ask again.
   * @param supersede the page has left the state that made the previous call of this kind: only the new one is answered.
   */
  http(
    kind: TKind,
    {
      toBody = (output: unknown) => output,
      supersede = false,
      method,
    }: { toBody?: (output: unknown) => unknown; supersede?: boolean; method?: string } = {},
  ): Promise<Response> {
    this.started++;
    if (method) this.methods.set(kind, method);
    const answer = deferred<unknown>();
    this.inFlight.set(kind, [...(supersede ? [] : (this.inFlight.get(kind) ?? [])), answer]);
    return answer.promise.then(
      (output) => ({ ok: true, status: 200, json: async () => toBody(output) }) as Response,
      (error: { message?: string; status?: number }) => {
        if (!error.status) throw new TypeError('Failed to fetch');
        return { ok: false, status: error.status, json: async () => ({ error: error.message }) } as Response;
      },
    );
  }

  /** The inputs the calls of `kind` made through `actor` were started with, oldest first. */
  inputsOf(kind: TKind): unknown[] {
    return this.inputs.get(kind) ?? [];
  }

  /** The HTTP method of the last call of `kind` made over HTTP, if any. */
  lastMethodOf(kind: TKind): string | undefined {
    return this.methods.get(kind);
  }

  /** The kind of call `event` (an actor's result) answers, when this helper stands in for that actor. */
  kindOf(event: AnyEventObject): TKind | undefined {
    const result = ACTOR_RESULT.exec(event.type);
    return result ? this.kindByState[result[2] ?? ''] : undefined;
  }

  /**
   * Settles the call `event` answers, when it is the result of an actor this helper stands in for; returns false
   * for any other event (an invoked child statechart's result among them: the path drives that child itself).
   * @throws when no call of that actor is in flight.
   */
  answer(event: AnyEventObject): boolean {
    const result = ACTOR_RESULT.exec(event.type);
    const kind = this.kindOf(event);
    if (!result || !kind) return false;
    const call = this.inFlight.get(kind)?.shift();
    if (!call) throw new Error(`No call in flight for ${event.type}`);
    if (result[1] === 'done') call.resolve((event as unknown as { output: unknown }).output);
    else call.reject((event as unknown as { error: unknown }).error);
    return true;
  }
}
