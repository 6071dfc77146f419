/**
 * Model-based test of the hints' statechart (src/machines/tooltipMachine.ts; spec §9 "Tooltip delay 700 ms, skip
 * delay 300 ms"): the shortest paths to every model state, each extended by one more event, then the fewest that
 * take every transition, each run against two real hints (src/views/shared/Tooltip.tsx) under vitest's fake clock.
 * A step enters or leaves a control with the pointer, presses Escape, or lets a timer run out; after each, the page
 * shows exactly the hint the statechart has open.
 */
import { fireEvent, render, screen } from '@testing-library/react';
import { TestModel } from '@xstate/graph';
import { describe, expect, it, vi } from 'vitest';
import { createActor, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import { tooltipMachine } from '../../src/machines/tooltipMachine';
import { Tooltip, TooltipGroupContext } from '../../src/views/shared/Tooltip';
import { advance } from '../views/support/timers';
import { chooseCoveringPaths, replayExactly } from './paths';
import { createTimedMachine, ModelCoverage } from './timedModel';

vi.useFakeTimers();

const CONTROLS = ['a', 'b'] as const;

type Snapshot = ReturnType<typeof tooltipMachine.getInitialSnapshot>;

const { timedMachine, metaOf, nextTimer } = createTimedMachine(tooltipMachine, Date.UTC(2026, 10, 26, 9, 0, 0));
const coverage = new ModelCoverage(tooltipMachine, metaOf);

/** What a person can do next: enter a control not already asking, leave the one asking, Escape, or wait. */
function modelEvents(snapshot: Snapshot): AnyEventObject[] {
  const { waitingId, openId } = snapshot.context;
  const events: AnyEventObject[] = [];
  for (const id of CONTROLS) {
    if (id === waitingId || id === openId) events.push({ type: 'TRIGGER_LEFT', id });
    else events.push({ type: 'TRIGGER_ENTERED', id });
  }
  if (openId) events.push({ type: 'DISMISSED' });
  const timer = nextTimer(snapshot);
  if (timer) events.push(timer.event);
  return events;
}

const model = new TestModel(timedMachine as never, {
  events: modelEvents as never,
  stateMatcher: (snapshot, key) => (snapshot as Snapshot).matches(key as never),
  serializeState: ((snapshot: Snapshot) => JSON.stringify([snapshot.value, snapshot.context])) as never,
});

const paths = (() => {
  const candidates = model.getShortestPaths({ allowDuplicatePaths: true }).flatMap((path) => {
    const events = path.steps.map((step) => step.event).filter((event) => event.type !== 'xstate.init');
    return [events, ...modelEvents(path.state as Snapshot).map((next) => [...events, next])];
  });
  const replayed = candidates.map((events) => {
    const { description, statePath } = replayExactly(model as never, events, undefined);
    return { description, steps: statePath.steps };
  });
  return chooseCoveringPaths(replayed, (path) => coverage.keysOf(path.steps.map((step) => step.state)));
})();

function renderHints() {
  const group = createActor(tooltipMachine).start();
  render(
    <TooltipGroupContext.Provider value={group}>
      {CONTROLS.map((id) => (
        <Tooltip key={id} id={`hint-${id}`} text={`Hint ${id}`}>
          {(describedBy) => (
            <button type="button" aria-describedby={describedBy}>
              Control {id}
            </button>
          )}
        </Tooltip>
      ))}
    </TooltipGroupContext.Provider>,
  );
  const hovered = new Set<string>();
  const anchor = (id: string) => screen.getByRole('button', { name: `Control ${id}` }).parentElement!;
  return {
    /** Makes `event` happen; a timer's event is `elapsed` ms of waiting. */
    async execute(event: AnyEventObject, elapsed: number) {
      const id = String(event.id);
      if (event.type === 'TRIGGER_ENTERED') {
        // A control the pointer never left (its hint was dismissed) is left first: the model enters it afresh.
        if (hovered.has(id)) fireEvent.pointerLeave(anchor(id));
        fireEvent.pointerEnter(anchor(id));
        hovered.add(id);
      } else if (event.type === 'TRIGGER_LEFT') {
        fireEvent.pointerLeave(anchor(id));
        hovered.delete(id);
      } else if (event.type === 'DISMISSED') {
        fireEvent.keyDown(document.body, { key: 'Escape' });
      } else if (!event.type.startsWith('xstate.after.')) throw new Error(`The model test cannot make ${event.type} happen`);
      await advance(elapsed);
    },
  };
}

/** The page shows the open hint, and only it; every hint stays the description of its control. */
function expectShows(state: Snapshot) {
  const shown = screen.queryAllByRole('tooltip').map((hint) => hint.id);
  expect(shown).toEqual(state.context.openId ? [`hint-${state.context.openId}`] : []);
  for (const id of CONTROLS) expect(screen.getByRole('button', { name: `Control ${id}` })).toHaveAccessibleDescription(`Hint ${id}`);
}

describe(`tooltip statechart: ${paths.length} shortest paths`, () => {
  it.each(paths.map((path) => [path.description, path] as const))('%s', async (_description, path) => {
    const page = renderHints();
    let before = model.testLogic.getInitialSnapshot(null as never, undefined) as AnyMachineSnapshot;
    coverage.record(before);
    expectShows(before as Snapshot);
    for (const step of path.steps) {
      await page.execute(step.event, metaOf(step.state).now - metaOf(before).now);
      expectShows(step.state as Snapshot);
      coverage.record(step.state);
      before = step.state;
    }
  });
});

describe('tooltip statechart coverage', () => {
  it('reached every state and took every transition in the view', () => {
    expect(coverage.missingStates, 'states never reached').toEqual([]);
    expect(coverage.missingTransitions, 'transitions never taken').toEqual([]);
  });
});
