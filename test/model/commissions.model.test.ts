/**
 * Model paths of the commission statecharts: the console's (src/machines/commissionsMachine.ts) and the
 * referrer's page's (src/machines/partnerMachine.ts). @xstate/graph's shortest paths reach every state, with each
 * call answered, refused (a message) or refused with 401; every path is then run on a real actor whose calls are
 * fakes the path answers one by one, and each step must land where the model says.
 */
import { getShortestPaths } from '@xstate/graph';
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor, type AnyEventObject, type AnyMachineSnapshot, type AnyStateMachine } from 'xstate';
import { ApiError } from '../../src/api/client';
import type { CommissionsOverview, PartnerView } from '../../src/contract/commissions';
import { commissionsMachine } from '../../src/machines/commissionsMachine';
import { partnerMachine } from '../../src/machines/partnerMachine';
import { coveringPaths } from './paths';
import { expectFullCoverage } from './timedModel';

/** The events of `events` that can happen in `snapshot`: a call's answer only while that call runs. */
const offered = (events: AnyEventObject[]) => (snapshot: AnyMachineSnapshot) =>
  events.filter((event) => {
    const answer = /^xstate\.(?:done|error)\.actor\.(\w+)$/.exec(event.type);
    return !answer || answer[1]! in snapshot.children;
  });

const OVERVIEW = { defaultRule: '20 % of each invoice', minimumCents: 5_000, referrers: [], batches: [] } as CommissionsOverview;
const VIEW = { displayName: 'Jane', link: 'https://checkout.test/r/jane' } as PartnerView;
const REFUSED = new ApiError('Refused.', 409);
const SIGNED_OUT = new ApiError('Please sign in.', 401);

/** Answers of call `id`: done with `output`, a refusal, and a 401. */
const answers = (id: string, output: unknown): AnyEventObject[] => [
  { type: `xstate.done.actor.${id}`, output },
  { type: `xstate.error.actor.${id}`, error: REFUSED },
  { type: `xstate.error.actor.${id}`, error: SIGNED_OUT },
];

/** A state as one string ('signedIn.viewing'). */
const named = (value: unknown): string =>
  typeof value === 'string'
    ? value
    : Object.entries(value as Record<string, unknown>)
        .map(([key, inner]) => `${key}.${named(inner)}`)
        .join(',');

/** Every leaf state of `machine`, named like `named`. */
function leafStates(machine: AnyStateMachine): string[] {
  const leaves: string[] = [];
  const visit = (node: { path: string[]; states: Record<string, unknown> }) => {
    const children = Object.values(node.states) as (typeof node)[];
    if (children.length === 0) leaves.push(node.path.join('.'));
    children.forEach(visit);
  };
  visit(machine.root as never);
  return leaves.sort();
}

/**
 * Runs `events` on a real actor of `machine` whose invoked calls wait for the path to answer them; after each step
 * the actor must be in the state the model reached.
 */
async function replay(machine: AnyStateMachine, input: unknown, steps: { event: AnyEventObject; state: { value: unknown } }[]) {
  const waiting = new Map<string, { resolve: (value: unknown) => void; reject: (error: unknown) => void }>();
  const fake = (id: string) => fromPromise(() => new Promise((resolve, reject) => waiting.set(id, { resolve, reject })));
  const ids = ['openSession', 'probeSession', 'loadView', 'requestLink', 'signOut', 'loadOverview', 'applyChange'];
  const actor = createActor(machine.provide({ actors: Object.fromEntries(ids.map((id) => [id, fake(id)])) }), { input });
  actor.on('*', () => undefined);
  actor.start();
  for (const { event, state } of steps) {
    const answered = /^xstate\.(done|error)\.actor\.(\w+)$/.exec(event.type);
    if (answered) {
      const call = waiting.get(answered[2]!);
      expect(call, `${answered[2]} is running`).toBeDefined();
      waiting.delete(answered[2]!);
      if (answered[1] === 'done') call!.resolve((event as { output?: unknown }).output);
      else call!.reject((event as { error?: unknown }).error);
    } else {
      actor.send(event);
    }
    await waitFor(actor, (snapshot) => named(snapshot.value) === named(state.value), { timeout: 1_000 });
  }
  actor.stop();
}

describe('model paths of the commission statecharts', () => {
  it('the console: every state is reached and every path runs as modelled', async () => {
    const events: AnyEventObject[] = [
      ...answers('loadOverview', OVERVIEW),
      ...answers('applyChange', undefined),
      { type: 'RELOAD' },
      { type: 'MINIMUM_CHANGED', minimumCents: 10_000 },
      { type: 'CHANGE_REQUESTED', change: { kind: 'createBatch', minimumCents: 5_000 } },
      { type: 'CHANGE_REQUESTED', change: { kind: 'markPaid', batchId: 1, reference: 'REF-1' } },
    ];
    const paths = getShortestPaths(commissionsMachine as AnyStateMachine, { events });
    const reached = new Set(paths.map((path) => named(path.state.value)));
    expect([...reached].sort()).toEqual(leafStates(commissionsMachine));
    for (const path of paths) await replay(commissionsMachine, undefined, path.steps);
    // And the fewest paths that take every transition, each run the same way.
    const { coverage, paths: covering } = coveringPaths(commissionsMachine, { eventsAt: offered(events) });
    for (const path of covering) {
      await replay(commissionsMachine, undefined, path.statePath.steps);
      for (const step of path.statePath.steps) coverage.record(step.state);
    }
    expectFullCoverage(coverage, 'commissions');
  });

  it('the referrer’s page: every state is reached, from a mail’s link or without, and every path runs as modelled', async () => {
    const events: AnyEventObject[] = [
      ...answers('openSession', undefined),
      { type: 'xstate.done.actor.probeSession', output: true },
      ...answers('probeSession', false),
      ...answers('loadView', VIEW),
      ...answers('requestLink', { message: 'On its way.' }),
      { type: 'xstate.done.actor.signOut' },
      { type: 'xstate.error.actor.signOut', error: new ApiError('We could not reach the server. Please try again.', 0) },
      { type: 'LINK_REQUESTED', email: 'jane@example.com' },
      { type: 'PERIOD_CHANGED', from: '2026-01-01', to: '2026-01-31' },
      { type: 'COPY_CLICKED' },
      { type: 'SIGN_OUT_CLICKED' },
      { type: 'RETRY_CLICKED' },
    ];
    // The page's buttons (period, copy, sign out) are shown only with the referrer's page: a first read that failed
    // leaves none of them, only "Try again".
    const onPage = new Set(['PERIOD_CHANGED', 'COPY_CLICKED', 'SIGN_OUT_CLICKED']);
    const eventsAt = (snapshot: AnyMachineSnapshot) =>
      offered(events)(snapshot).filter((event) => !onPage.has(event.type) || (snapshot.context as { view: unknown }).view !== null);
    const reached = new Set<string>();
    for (const input of [{ token: 'from-the-mail' }, {}]) {
      const paths = getShortestPaths(partnerMachine as AnyStateMachine, { events: eventsAt, input });
      for (const path of paths) {
        reached.add(named(path.state.value));
        await replay(partnerMachine, input, path.steps);
      }
    }
    expect([...reached].sort()).toEqual(leafStates(partnerMachine).filter((state) => state !== 'starting'));
    // And the fewest paths from each start that take every transition, counted together.
    const fromMail = coveringPaths(partnerMachine, { eventsAt, input: { token: 'from-the-mail' } });
    const without = coveringPaths(partnerMachine, { eventsAt, input: {}, timed: fromMail.timed });
    for (const [input, covering] of [
      [{ token: 'from-the-mail' }, fromMail.paths],
      [{}, without.paths],
    ] as const) {
      for (const path of covering) {
        await replay(partnerMachine, input, path.statePath.steps);
        for (const step of path.statePath.steps) fromMail.coverage.record(step.state);
      }
    }
    expectFullCoverage(fromMail.coverage, 'partner', { passedThrough: ['partner.starting'] });
  });
});
