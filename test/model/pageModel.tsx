/**
 * One harness for a page's model-based test (docs/testing.md): the fewest generated paths that cover its
 * statechart (paths.ts), each replayed against the real view in jsdom under vitest's fake clock, with the page's
 * real client calling a stubbed fetch that the path answers (pendingCalls.ts). After every step the page must show
 * what the step's state means, judged by the page's oracle (rules written from the spec or a decision, not read
 * from the machine); a timer step must start no call before the oracle's delay. A read (a GET) the path fails on the
 * network or with a 5xx is asked again after each of READS' waits, the page still in the state that made it, and
 * the page hears of the failure only after the last (decision 0051); a 4xx reaches it at once. Cached reads are
 * forgotten before each path, so paths stay independent. The file ends with the coverage
 * reached (expectFullCoverage): 100% of the machine's states and transitions, or the test fails.
 */
import { cleanup } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AnyEventObject, AnyMachineSnapshot, AnyStateMachine } from 'xstate';
import { forgetCachedRead } from '../../src/api/reads';
import { advance } from '../views/support/timers';
import { READS } from './pageRules';
import { coveringPaths, replayExactly } from './paths';
import { PendingCalls } from './pendingCalls';
import { expectFullCoverage } from './timedModel';

/** A request the page sent through its real client. */
export interface SentRequest {
  method: string;
  path: string;
  body: unknown;
}

/** Which call a request is: the method and path it is sent to, and how its answer becomes the response's body. */
interface Route<TKind extends string> {
  method: string;
  path: RegExp;
  kind: TKind;
  toBody?: (output: unknown) => unknown;
}

/** A step just taken: the event and the snapshot it arrived in. */
export interface Step {
  event: AnyEventObject;
  before: AnyMachineSnapshot;
}

interface PageModel<TKind extends string> {
  /** The name in the test titles and the coverage line. */
  name: string;
  machine: AnyStateMachine;
  input?: unknown;
  /** What makes two snapshots the same model state, when not the whole snapshot (paths.ts). */
  serializeState?: (snapshot: AnyMachineSnapshot) => string;
  /**
   * Event sequences a rule needs that the covering paths do not take (a retry after a failure reaches no new model
   * state, yet what it sends is a rule), each run as one more path.
   */
  rulePaths?: AnyEventObject[][];
  /** The call each invoking state (its id, as in `xstate.done.actor.0.<id>`) or invoke id makes. */
  callsByState: Record<string, TKind>;
  /** The server calls by request. */
  routes: Route<TKind>[];
  /** What can happen in a snapshot: the person's events, the calls' answers, the clock. */
  eventsAt: (snapshot: AnyMachineSnapshot) => AnyEventObject[];
  /** Renders the real page; a call made outside fetch (the clipboard) waits for `calls`. */
  render: (calls: PendingCalls<TKind>) => void;
  /** Makes a person's event happen through the page (clicks, typing); `calls` answers what the page asks meanwhile. */
  act: (event: AnyEventObject, before: AnyMachineSnapshot, calls: PendingCalls<TKind>) => Promise<void> | void;
  /** For a timer's event, the delay its rule states (ms), from the oracle: no call may start sooner. */
  delayOf?: (event: AnyEventObject) => number;
  /** Asserts what the page shows in `state`, reached by the steps in `history` (the last one last), and the requests it sent. */
  expectShows: (state: AnyMachineSnapshot, history: Step[], requests: SentRequest[]) => void;
}

/** Registers the model test of `page`: one test per generated path, then the coverage test. */
export function describePageModel<TKind extends string>(page: PageModel<TKind>): void {
  let covering: ReturnType<typeof coveringPaths>;
  let paths: ReturnType<typeof replayExactly>[];
  try {
    covering = coveringPaths(page.machine, {
      eventsAt: page.eventsAt,
      input: page.input,
      serializeState: page.serializeState,
    });
    const model = covering.model;
    paths = [...covering.paths, ...(page.rulePaths ?? []).map((events) => replayExactly(model, events, page.input))];
  } catch (error) {
    // A chart whose action throws on an event (an `assertEvent` of the wrong type) fails while its paths are
    // generated, as the file loads; a file that cannot load is no failed test to Stryker's runner, so it is one here.
    describe(`${page.name} statechart`, () => {
      it('generates its paths from the statechart', () => {
        throw error;
      });
    });
    return;
  }
  const { coverage, initial } = covering;

  describe(`${page.name} statechart: ${paths.length} paths`, () => {
    afterEach(() => {
      cleanup();
      forgetCachedRead();
      vi.useRealTimers();
      vi.unstubAllGlobals();
    });

    it.each(paths.map((path) => [path.description, path] as const))('%s', async (_description, path) => {
      vi.useFakeTimers();
      forgetCachedRead();
      const calls = new PendingCalls<TKind>(page.callsByState);
      const requests: SentRequest[] = [];
      vi.stubGlobal('fetch', (url: string, init: RequestInit = {}) => {
        const method = init.method ?? 'GET';
        const path = new URL(url, 'http://localhost').pathname + new URL(url, 'http://localhost').search;
        const route = page.routes.find((each) => each.method === method && each.path.test(path));
        if (!route) throw new Error(`The model has no answer for ${method} ${path}`);
        requests.push({ method, path, body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined });
        return calls.http(route.kind, { toBody: route.toBody, supersede: true, method });
      });
      page.render(calls);
      await advance(0);
      let before = initial();
      page.expectShows(before, [], requests);
      coverage.record(before);
      const history: Step[] = [];
      for (const step of path.statePath.steps) {
        if (step.event.type.startsWith('xstate.after.')) {
          const delay = page.delayOf?.(step.event);
          if (delay === undefined) throw new Error(`The oracle has no delay for ${step.event.type}`);
          const started = calls.started;
          await advance(delay - 1);
          expect(calls.started, `a call started before ${delay} ms`).toBe(started);
          page.expectShows(before, history, requests);
          await advance(1);
        } else if (calls.answer(step.event)) {
          if (isRetriedRead(step.event, calls))
            await expectRetries(step.event, calls, requests, () => page.expectShows(before, history, requests));
        } else {
          await page.act(step.event, before, calls);
        }
        await advance(0);
        history.push({ event: step.event, before });
        page.expectShows(step.state, history, requests);
        coverage.record(step.state);
        before = step.state;
      }
    });

    it('reached every state and took every transition in the view', () => expectFullCoverage(coverage, page.name));
  });
}

/** The error a path step answers a call with, if any. */
const errorOf = (event: AnyEventObject) => (event as { error?: { status?: number } }).error;

/**
 * Whether `event` fails a read the way the read module retries (decision 0051): a network failure (status 0) or a 5xx.
 */
function isRetriedRead<TKind extends string>(event: AnyEventObject, calls: PendingCalls<TKind>): boolean {
  const error = errorOf(event);
  if (!error || !event.type.startsWith('xstate.error.actor.')) return false;
  const status = error.status ?? 0;
  return calls.lastMethodOf(calls.kindOf(event)!) === 'GET' && (status === 0 || status >= 500);
}

/**
 * Plays the read module's retries of the read `event` failed: each one asked exactly when READS says, as the same
 * request, failing the same way, while the page still shows the state that made the read (`expectUnchanged`).
 */
async function expectRetries<TKind extends string>(
  event: AnyEventObject,
  calls: PendingCalls<TKind>,
  requests: SentRequest[],
  expectUnchanged: () => void,
): Promise<void> {
  const first = requests.at(-1);
  for (const delay of READS.retryDelaysMs) {
    await advance(0);
    expectUnchanged();
    const started = calls.started;
    await advance(delay - 1);
    expect(calls.started, `a read was retried before ${delay} ms`).toBe(started);
    await advance(1);
    expect(calls.started, `the read was retried after ${delay} ms`).toBe(started + 1);
    expect(requests.at(-1), 'the retry asks the same').toEqual(first);
    calls.answer(event);
  }
}

/** The answers of the call `suffix` (a state id or invoke id) while its actor runs in `snapshot`. */
export function answersOf(snapshot: AnyMachineSnapshot, suffix: string, outputs: unknown[], errors: unknown[]): AnyEventObject[] {
  const events: AnyEventObject[] = [];
  for (const id of Object.keys(snapshot.children)) {
    if (id !== suffix && !id.endsWith(`.${suffix}`)) continue;
    events.push(...outputs.map((output) => ({ type: `xstate.done.actor.${id}`, output, actorId: id })));
    events.push(...errors.map((error) => ({ type: `xstate.error.actor.${id}`, error, actorId: id })));
  }
  return events;
}

/** How many steps of `history` answered a call with `error`. */
export function answeredWith(history: Step[], error: unknown): number {
  return history.filter((step) => (step.event as { error?: unknown }).error === error).length;
}
