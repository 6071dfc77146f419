/**
 * One harness for a page's model-based test (docs/testing.md): the fewest generated paths that cover its
 * statechart (paths.ts), each replayed against the real view in jsdom under vitest's fake clock, with the page's
 * real client calling a stubbed fetch that the path answers (pendingCalls.ts). After every step the page must show
 * what the step's state means, judged by the page's oracle (rules written from the spec or a decision, not read
 * from the machine); a timer step must start no call before the oracle's delay. The file ends with the coverage
 * reached (expectFullCoverage): 100% of the machine's states and transitions, or the test fails.
 */
import { cleanup } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AnyEventObject, AnyMachineSnapshot, AnyStateMachine } from 'xstate';
import { advance } from '../views/support/timers';
import { coveringPaths } from './paths';
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
  const { coverage, paths, initial } = coveringPaths(page.machine, { eventsAt: page.eventsAt, input: page.input });

  describe(`${page.name} statechart: ${paths.length} paths`, () => {
    afterEach(() => {
      cleanup();
      vi.useRealTimers();
      vi.unstubAllGlobals();
    });

    it.each(paths.map((path) => [path.description, path] as const))('%s', async (_description, path) => {
      vi.useFakeTimers();
      const calls = new PendingCalls<TKind>(page.callsByState);
      const requests: SentRequest[] = [];
      vi.stubGlobal('fetch', (url: string, init: RequestInit = {}) => {
        const method = init.method ?? 'GET';
        const path = new URL(url, 'http://localhost').pathname + new URL(url, 'http://localhost').search;
        const route = page.routes.find((each) => each.method === method && each.path.test(path));
        if (!route) throw new Error(`The model has no answer for ${method} ${path}`);
        requests.push({ method, path, body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined });
        return calls.http(route.kind, { toBody: route.toBody, supersede: true });
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
        } else if (!calls.answer(step.event)) {
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
