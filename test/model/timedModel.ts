/**
 * Model-based testing support for statecharts with timers (docs/testing.md).
 *
 * `@xstate/graph` walks a machine by feeding it events. Our machines' timers overlap (the 500 ms initialisation,
 * the 2000 ms debounce, 4 s of confetti, the 800 ms focus), and which fires first decides the next state. So the model
 * keeps a virtual clock beside each snapshot: every delayed event the machine schedules (XState's `xstate.raise`
 * with a delay, including `after` transitions) is recorded with its due time, cancels remove them, and only the
 * earliest-due timer may fire next, so a path found here plays out identically in the real views driven by
 * vitest's fake timers.
 */
import {
  initialTransition,
  transition,
  type AnyEventObject,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type AnyStateNode,
} from 'xstate';
import { expect, vi } from 'vitest';

/** A scheduled delayed event: fires at `due` (ms, virtual clock). */
interface Timer {
  id: string;
  event: AnyEventObject;
  due: number;
  /** When it was set (ms, virtual clock): `due - scheduled` is the delay the chart gave it. */
  scheduled: number;
  /** Schedule order, to break ties as XState's scheduler does (first scheduled first). */
  seq: number;
}

interface TimedMeta {
  /** Virtual time of the snapshot, ms. */
  now: number;
  timers: Timer[];
  /** The transition definitions taken to reach this snapshot. */
  taken: unknown[];
}

interface RaiseParams {
  event: AnyEventObject;
  id?: string;
  delay?: number;
}

/** Wraps `machine` so its transitions keep a virtual clock and the pending timers; see the module comment. */
export function createTimedMachine<TMachine extends AnyStateMachine>(machine: TMachine, startTime: number) {
  const metas = new WeakMap<object, TimedMeta>();
  let seq = 0;

  const metaOf = (snapshot: object): TimedMeta => {
    const meta = metas.get(snapshot);
    if (!meta) throw new Error('Snapshot was not produced by the timed model');
    return meta;
  };

  const applyActions = (timers: Timer[], actions: Array<{ type: string; params?: unknown }>, now: number): Timer[] => {
    let next = [...timers];
    for (const action of actions) {
      if (action.type === 'xstate.cancel') {
        const { sendId } = action.params as { sendId: string };
        next = next.filter((timer) => timer.id !== sendId);
      }
      if (action.type === 'xstate.raise') {
        const params = action.params as RaiseParams;
        if (typeof params.delay === 'number') {
          const id = params.id ?? `timer-${seq}`;
          next = next.filter((timer) => timer.id !== id);
          next.push({ id, event: params.event, due: now + params.delay, scheduled: now, seq: seq++ });
        }
      }
    }
    return next.sort((a, b) => a.due - b.due || a.seq - b.seq);
  };

  const nextTimer = (snapshot: object): Timer | undefined => metaOf(snapshot).timers[0];

  const getInitialSnapshot = (_scope: unknown, input: unknown) => {
    vi.setSystemTime(startTime);
    const [snapshot, actions] = initialTransition(machine, input as never);
    metas.set(snapshot, { now: startTime, timers: applyActions([], actions, startTime), taken: [] });
    return snapshot;
  };

  const step = (snapshot: AnyMachineSnapshot, event: AnyEventObject, now: number, pending: Timer[]) => {
    vi.setSystemTime(now);
    const taken = machine.getTransitionData(snapshot as never, event);
    const [result, actions] = transition(machine, snapshot as never, event as never);
    // XState returns the same object when nothing in the snapshot changed; the side table needs its own.
    const next = (result === snapshot ? { ...(result as object) } : result) as AnyMachineSnapshot;
    return { next, taken, timers: applyActions(pending, actions, now) };
  };

  const timedTransition = (snapshot: AnyMachineSnapshot, event: AnyEventObject) => {
    const meta = metaOf(snapshot);
    // A finished machine takes no more events (its actor is stopped, its timers cancelled).
    if (snapshot.status !== 'active') return snapshot;
    const timer = meta.timers.find((candidate) => candidate.event.type === event.type);
    // Timer events fire only when due first; anything else is "not now" and changes nothing.
    if (timer && timer !== meta.timers[0]) return snapshot;
    if (!timer && event.type.startsWith('xstate.after.')) return snapshot;
    const now = timer ? timer.due : meta.now;
    let { next, taken, timers } = step(snapshot, event, now, timer ? meta.timers.slice(1) : meta.timers);
    // Timers already due (a debounce that ran out while the server answered) fire in the same tick, as they do
    // in the page; they belong to this step.
    while (next.status === 'active' && timers[0] && timers[0].due <= now) {
      const [due, ...rest] = timers;
      const chained = step(next, due.event, now, rest);
      next = chained.next;
      taken = [...taken, ...chained.taken];
      timers = chained.timers;
    }
    metas.set(next, { now, timers, taken });
    return next;
  };

  const timedMachine = Object.create(machine, {
    getInitialSnapshot: { value: getInitialSnapshot },
    transition: { value: timedTransition },
  }) as TMachine;

  return { timedMachine, metaOf, nextTimer };
}

function allNodes(node: AnyStateNode): AnyStateNode[] {
  return [node, ...Object.values(node.states).flatMap((child) => allNodes(child as AnyStateNode))];
}

/** Counts states and transitions reached by executed paths, against every one the machine declares. */
export class ModelCoverage {
  private readonly stateIds: string[];
  private readonly transitionKeys = new Map<unknown, string>();
  private readonly reachedStates = new Set<string>();
  private readonly reachedTransitions = new Set<string>();

  constructor(
    private readonly machine: AnyStateMachine,
    private readonly metaOf: (snapshot: object) => TimedMeta,
  ) {
    const nodes = allNodes(machine.root).filter((node) => node !== machine.root);
    this.stateIds = nodes.map((node) => node.id);
    for (const node of allNodes(machine.root)) {
      for (const [eventType, list] of node.transitions) {
        list.forEach((definition, index) => {
          const guard = definition.guard ? ` [${typeof definition.guard === 'string' ? definition.guard : 'guard'}]` : '';
          this.transitionKeys.set(definition, `${node.id} --${eventType}#${index}${guard}`);
        });
      }
    }
  }

  /** The states (`state:…`) and transitions (`transition:…`) that reaching each of `snapshots` involves. */
  keysOf(snapshots: AnyMachineSnapshot[]): Set<string> {
    const keys = new Set<string>();
    for (const snapshot of snapshots) {
      for (const node of snapshot._nodes as AnyStateNode[]) {
        if (node !== this.machine.root) keys.add(`state:${node.id}`);
      }
      for (const definition of this.metaOf(snapshot).taken) {
        const key = this.transitionKeys.get(definition);
        if (key) keys.add(`transition:${key}`);
      }
    }
    return keys;
  }

  /** Records a step's resulting snapshot, once it was reached in the views: its states and transitions. */
  record(snapshot: AnyMachineSnapshot): void {
    for (const key of this.keysOf([snapshot])) {
      if (key.startsWith('state:')) this.reachedStates.add(key.slice('state:'.length));
      else this.reachedTransitions.add(key.slice('transition:'.length));
    }
  }

  /** True when state `id` has only eventless transitions, the last without a guard: it is left as soon as entered. */
  isEventlessChoice(id: string): boolean {
    const node = allNodes(this.machine.root).find((each) => each.id === id);
    const always = (node?.always ?? []) as Array<{ guard?: unknown }>;
    return node !== undefined && node.transitions.size === 0 && always.length > 0 && always.at(-1)!.guard === undefined;
  }

  get missingStates(): string[] {
    return this.stateIds.filter((id) => !this.reachedStates.has(id));
  }

  get missingTransitions(): string[] {
    return [...this.transitionKeys.values()].filter((key) => !this.reachedTransitions.has(key));
  }

  /** "checkout: states 15/15 (100%), transitions 40/40 (100%)". */
  summary(name: string): string {
    const states = this.stateIds.length - this.missingStates.length;
    const transitions = this.transitionKeys.size - this.missingTransitions.length;
    const percent = (part: number, whole: number) => `${Math.floor((part / whole) * 1000) / 10}%`;
    return (
      `${name}: states ${states}/${this.stateIds.length} (${percent(states, this.stateIds.length)}), ` +
      `transitions ${transitions}/${this.transitionKeys.size} (${percent(transitions, this.transitionKeys.size)})`
    );
  }
}

/**
 * Prints the states and transitions a machine's replayed paths reached (`name: states a/b (x%), transitions c/d
 * (y%)`, counted from the machine's own definition) and fails below 100%, listing what was missed. Every model test
 * file ends with it (docs/testing.md, "Reading the coverage figures").
 * @param passedThrough states that choose at once where to go (only eventless `always` transitions, checked here):
 *   never a snapshot at rest, so no path can stop in one; the states they lead to are counted instead.
 */
export function expectFullCoverage(coverage: ModelCoverage, name: string, { passedThrough = [] }: { passedThrough?: string[] } = {}): void {
  console.log(coverage.summary(name) + (passedThrough.length ? ` (${passedThrough.join(', ')}: passed through)` : ''));
  for (const id of passedThrough) expect(coverage.isEventlessChoice(id), `${id} only chooses where to go`).toBe(true);
  expect(
    coverage.missingStates.filter((id) => !passedThrough.includes(id)),
    `${name}: states never reached`,
  ).toEqual([]);
  expect(coverage.missingTransitions, `${name}: transitions never taken`).toEqual([]);
}
