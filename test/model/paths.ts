/**
 * Path generation for the model-based tests (docs/testing.md):
 * - shortest paths (@xstate/graph) to every model state, each extended by one more event where that reaches a
 *   transition no shortest path takes, then a greedy choice of the fewest paths that still reach every state
 *   and every transition;
 * - simple paths (no model state twice) to a goal, from @xstate/graph's adjacency map, bounded in length and
 *   number because their count explodes combinatorially on this machine.
 * Every chosen path is replayed exactly through the timed machine, so its steps are real snapshots.
 */
import { getAdjacencyMap, TestModel } from '@xstate/graph';
import type { AnyEventObject, AnyMachineSnapshot, AnyStateMachine } from 'xstate';
import { createTimedMachine, ModelCoverage } from './timedModel';

interface ReplayedStep {
  event: AnyEventObject;
  state: AnyMachineSnapshot;
}

interface ReplayedPath {
  description: string;
  /** The path in @xstate/graph's StatePath shape, for TestModel.testPath. */
  statePath: { state: AnyMachineSnapshot; steps: ReplayedStep[]; weight: number };
}

type AnyTestModel = TestModel<AnyMachineSnapshot, AnyEventObject, unknown>;

function describeEvent(event: AnyEventObject): string {
  if (event.type.startsWith('xstate.after.')) return `after ${event.type.split('.')[2]}`;
  const actor = /^xstate\.(done|error)\.actor\.(?:\d+\.)?(.+)$/.exec(event.type);
  if (actor) {
    const output = (event as { output?: unknown }).output;
    const error = (event as { error?: { status?: number } }).error;
    const detail =
      typeof output === 'boolean'
        ? String(output)
        : output && typeof output === 'object'
          ? ((output as { status?: string }).status ??
            ('success' in output ? ((output as { success: boolean }).success ? 'success' : 'not success') : ''))
          : typeof error?.status === 'number'
            ? String(error.status)
            : '';
    return `${actor[1]}(${(actor[2] ?? '').split('.').pop()}${detail ? `: ${detail}` : ''})`;
  }
  if (event.type === 'FIELD_CHANGED') return `FIELD_CHANGED(${String(event.field)}=${String(event.value)})`;
  return event.type;
}

/** An event by what it is, whichever actor instance it answers: its type without the invoke's index, and its answer. */
function answerKey(event: AnyEventObject): string {
  const { type, actorId: _, ...rest } = event as AnyEventObject & { actorId?: string; error?: unknown };
  const answer = rest.error instanceof Error ? { error: rest.error.message, status: (rest.error as { status?: number }).status } : rest;
  return `${type.replace(/\.actor\.\d+\./, '.actor.')} ${JSON.stringify(answer)}`;
}

/** Replays `events` from the start through the model's logic, step by step. */
export function replayExactly(model: AnyTestModel, events: AnyEventObject[], input: unknown): ReplayedPath {
  const logic = model.testLogic as unknown as AnyStateMachine;
  let state = logic.getInitialSnapshot(null as never, input) as AnyMachineSnapshot;
  const steps: ReplayedStep[] = [];
  for (const event of events) {
    state = logic.transition(state, event, null as never) as AnyMachineSnapshot;
    steps.push({ event, state });
  }
  return {
    description: events.map(describeEvent).join(' → ') || '(start)',
    statePath: { state, steps, weight: steps.length },
  };
}

/** Greedily picks the fewest candidates whose keys cover every key any candidate covers. */
export function chooseCoveringPaths<T>(candidates: T[], keysOf: (candidate: T) => Set<string>): T[] {
  const keyed = candidates.map((candidate) => ({ candidate, keys: keysOf(candidate) }));
  const covered = new Set<string>();
  const chosen: T[] = [];
  for (;;) {
    let best: (typeof keyed)[number] | undefined;
    let bestGain = 0;
    for (const entry of keyed) {
      let gain = 0;
      for (const key of entry.keys) if (!covered.has(key)) gain++;
      if (gain > bestGain) {
        best = entry;
        bestGain = gain;
      }
    }
    if (!best) return chosen;
    chosen.push(best.candidate);
    for (const key of best.keys) covered.add(key);
  }
}

/**
 * The shortest path to every model state, plus each of those extended by every event the model offers at its end
 * (which reaches the transitions a shortest path never needs, like a self-transition), each replayed exactly.
 * A path's extensions take one transition from its replayed end, not a replay from the start: the checkout's
 * model offers thousands of them, and the logic's transition is pure, so the steps are the same.
 */
export function shortestPathCandidates(
  model: AnyTestModel,
  eventsAt: (snapshot: AnyMachineSnapshot) => AnyEventObject[],
  input?: unknown,
): ReplayedPath[] {
  // An `input: undefined` would override the input the model was built with.
  const shortest = model.getShortestPaths({ allowDuplicatePaths: true, ...(input === undefined ? {} : { input }) });
  const logic = model.testLogic as unknown as AnyStateMachine;
  const candidates: ReplayedPath[] = [];
  for (const path of shortest) {
    // @xstate/graph starts every shortest path with the start itself (xstate.init): not an event to replay.
    const events = path.steps.map((step) => step.event).filter((event) => event.type !== 'xstate.init');
    const base = replayExactly(model, events, input);
    candidates.push(base);
    for (const next of eventsAt(path.state)) {
      const state = logic.transition(base.statePath.state, next, null as never) as AnyMachineSnapshot;
      const steps = [...base.statePath.steps, { event: next, state }];
      candidates.push({
        description: base.statePath.steps.length > 0 ? `${base.description} → ${describeEvent(next)}` : describeEvent(next),
        statePath: { state, steps, weight: steps.length },
      });
    }
  }
  return candidates;
}

/**
 * Simple paths from the start to a state satisfying `isGoal`, over @xstate/graph's adjacency map: no model state
 * visited twice, at most `maxSteps` steps, at most `maxPaths` paths (shortest first).
 */
export function boundedSimplePaths(
  model: AnyTestModel,
  isGoal: (snapshot: AnyMachineSnapshot) => boolean,
  { maxSteps, maxPaths }: { maxSteps: number; maxPaths: number },
): AnyEventObject[][] {
  const options = (model as unknown as { _resolveOptions: (o?: object) => object })._resolveOptions();
  const adjacency = getAdjacencyMap(model.testLogic as never, options as never) as Record<
    string,
    { state: AnyMachineSnapshot; transitions: Record<string, { event: AnyEventObject; state: AnyMachineSnapshot }> }
  >;
  const serialize = (options as { serializeState: (state: AnyMachineSnapshot) => string }).serializeState;
  const start = Object.keys(adjacency)[0]!;
  const found: AnyEventObject[][] = [];
  const visited = new Set<string>([start]);
  const trail: AnyEventObject[] = [];
  const visit = (key: string): void => {
    if (found.length >= maxPaths * 50) return;
    const vertex = adjacency[key];
    if (!vertex) return;
    if (isGoal(vertex.state)) {
      found.push([...trail]);
      return;
    }
    if (trail.length >= maxSteps) return;
    for (const { event, state } of Object.values(vertex.transitions)) {
      const next = serialize(state);
      if (visited.has(next)) continue;
      visited.add(next);
      trail.push(event);
      visit(next);
      trail.pop();
      visited.delete(next);
    }
  };
  visit(start);
  return found.sort((a, b) => a.length - b.length).slice(0, maxPaths);
}

/**
 * A page's model from its statechart: the machine under a virtual clock (timedModel.ts), the events `eventsAt`
 * offers in each snapshot, and the fewest shortest paths (each extended by one event) that reach every state and
 * take every transition the candidates reach. `coverage` counts what the replayed paths reach in the view.
 * @param startTime the virtual clock's start, ms since the epoch.
 */
export function coveringPaths(
  machine: AnyStateMachine,
  {
    eventsAt,
    input,
    startTime = Date.UTC(2026, 10, 24, 9),
    timed = createTimedMachine(machine, startTime),
    serializeState,
  }: {
    eventsAt: (snapshot: AnyMachineSnapshot) => AnyEventObject[];
    input?: unknown;
    /**
     * What makes two snapshots the same model state, when not the whole snapshot: a context value made afresh on
     * every visit (a random key) would make every state new, and path generation would never end.
     */
    serializeState?: (snapshot: AnyMachineSnapshot) => string;
    startTime?: number;
    /** The timed machine of an earlier call, to count the paths from another input in the same coverage. */
    timed?: ReturnType<typeof createTimedMachine>;
  },
) {
  const { timedMachine, metaOf, nextTimer } = timed;
  const coverage = new ModelCoverage(machine, metaOf);
  const model = new TestModel(timedMachine as never, {
    events: eventsAt as never,
    stateMatcher: (snapshot, key) => (snapshot as AnyMachineSnapshot).matches(key),
    ...(serializeState ? { serializeState: serializeState as never } : {}),
  }) as unknown as AnyTestModel;
  const candidates = shortestPathCandidates(model, eventsAt, input);
  // Every answer the model offers is given at least once (a refusal and a failure take the same transition but
  // must each show their own words), besides every state and transition.
  const paths = chooseCoveringPaths(candidates, (path) => {
    const keys = coverage.keysOf(path.statePath.steps.map((step) => step.state));
    for (const step of path.statePath.steps) keys.add(`event:${answerKey(step.event)}`);
    return keys;
  });
  const initial = () => model.testLogic.getInitialSnapshot(null as never, input);
  return { model, coverage, metaOf, nextTimer, paths, initial, timed };
}
