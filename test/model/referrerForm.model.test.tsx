/**
 * Model-based tests of the console's "Add a referrer" form: @xstate/graph's TestModel over
 * referrerFormMachine, its shortest paths run against the real form with the create call answered by the path,
 * asserting in every state what the owner sees: the name as typed, the link derived from it until edited, each
 * error under its own field ("link is taken" under the link), the busy button, the confirmation.
 */
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { TestModel } from '@xstate/graph';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AnyEventObject, AnyMachineSnapshot } from 'xstate';
import { ApiError } from '../../src/api/client';
import type { CreateReferrerRequest, Referrer } from '../../src/contract/admin';
import { referrerFormMachine, type ReferrerField } from '../../src/machines/referrerFormMachine';
import { AddReferrer } from '../../src/views/admin/AdminReferrers';
import { chooseCoveringPaths, shortestPathCandidates } from './paths';
import { PendingCalls } from './pendingCalls';
import { createTimedMachine, expectFullCoverage, ModelCoverage } from './timedModel';

type Snapshot = ReturnType<typeof referrerFormMachine.getInitialSnapshot>;

const TYPED: Record<ReferrerField, string> = {
  displayName: 'Dr. Mark Lee',
  slug: 'lee-spine',
  shortLabel: 'dr-lee',
  quote: 'Friends only.',
};
const CREATED: Referrer = {
  id: '00000000-0000-4000-8000-000000000001',
  slug: 'mark-lee',
  displayName: 'Mark Lee',
  shortLabel: 'dr-lee',
  quote: 'Friends only.',
  status: 'active',
  createdAt: '2026-11-24T09:00:00.000Z',
  updatedAt: '2026-11-24T09:00:00.000Z',
};
const FAILURES = [
  new ApiError('The link /r/mark-lee is taken: choose another.', 409),
  new ApiError('Your session ended.', 401),
  new ApiError('The console could not reach the server. Please try again.', 0),
];

/** What the owner can do in `snapshot`: type each field once (name first, as a person would), submit; the call's answers. */
function modelEvents(snapshot: Snapshot): AnyEventObject[] {
  const events: AnyEventObject[] = [];
  for (const id of Object.keys(snapshot.children)) {
    if (!id.endsWith('referrerForm.creating')) continue;
    events.push({ type: `xstate.done.actor.${id}`, output: CREATED, actorId: id });
    for (const error of FAILURES) events.push({ type: `xstate.error.actor.${id}`, error, actorId: id });
  }
  if (!snapshot.matches('editing')) return events;
  const { values, slugEdited } = snapshot.context;
  const change = (field: ReferrerField) => ({ type: 'FIELD_CHANGED', field, value: TYPED[field] });
  if (!values.displayName) events.push(change('displayName'));
  else {
    if (!slugEdited) events.push(change('slug'));
    if (!values.shortLabel) events.push(change('shortLabel'));
    else if (!values.quote) events.push(change('quote'));
  }
  events.push({ type: 'SUBMITTED' });
  return events;
}

/** States differ by what the owner sees: which fields hold text, whether the link was edited, the errors, the confirmation. */
function serializeState(snapshot: Snapshot): string {
  const { values, slugEdited, errors, added } = snapshot.context;
  const filled = Object.entries(values)
    .filter(([, value]) => value)
    .map(([field]) => field);
  const errorKeys = Object.entries(errors)
    .filter(([, message]) => message)
    .map(([field]) => field);
  return JSON.stringify([snapshot.value, filled, slugEdited, errorKeys, Boolean(added)]);
}

// createTestModel refuses machines that invoke actors; TestModel is the class it builds (decisions/0001).
// Under the virtual clock only to count what the paths reach (timedModel.ts); the machine has no timer.
const { timedMachine, metaOf } = createTimedMachine(referrerFormMachine, Date.UTC(2026, 10, 24, 9));
const coverage = new ModelCoverage(referrerFormMachine, metaOf);
const model = new TestModel(timedMachine as never, {
  events: modelEvents as never,
  serializeState: serializeState as never,
});
// Shortest paths to every state, and the fewest of those extended by one more event that take every transition (a
// refusal whose state another route reaches first is taken only so; paths.ts).
const paths = [
  ...model.getShortestPaths().map((path) => ({ ...path, steps: path.steps.filter((step) => step.event.type !== 'xstate.init') })),
  ...chooseCoveringPaths(
    shortestPathCandidates(model as never, (snapshot) => modelEvents(snapshot as Snapshot)),
    (path) => coverage.keysOf(path.statePath.steps.map((step) => step.state)),
  ).map((path) => ({ description: path.description, steps: path.statePath.steps })),
];

function renderForm() {
  const calls = new PendingCalls<'create'>({ 'referrerForm.creating': 'create' });
  const machine = referrerFormMachine.provide({ actors: { createReferrer: calls.actor<Referrer, CreateReferrerRequest>('create') } });
  const onUnauthorised = vi.fn();
  const onAdded = vi.fn();
  render(<AddReferrer machine={machine} onUnauthorised={onUnauthorised} onAdded={onAdded} />);
  return { calls, onUnauthorised, onAdded };
}
type Form = ReturnType<typeof renderForm>;

const INPUTS: Record<ReferrerField, string> = {
  displayName: "Name (after 'Dr.')",
  slug: 'Link (/r/…)',
  shortLabel: 'Short label (affiliate_id)',
  quote: 'Quote',
};
const IDS: Record<ReferrerField, string> = {
  displayName: 'referrer-name',
  slug: 'referrer-slug',
  shortLabel: 'referrer-label',
  quote: 'referrer-quote',
};

async function execute(form: Form, event: AnyEventObject): Promise<void> {
  if (form.calls.answer(event)) {
    // the flush below lets the form take the answer
  } else if (event.type === 'FIELD_CHANGED') {
    fireEvent.change(screen.getByLabelText(INPUTS[event.field as ReferrerField]), { target: { value: event.value } });
  } else if (event.type === 'SUBMITTED') {
    fireEvent.click(screen.getByRole('button', { name: /Add referrer|Adding…/ }));
  } else {
    throw new Error(`The model test cannot make ${event.type} happen`);
  }
  await act(async () => {
    await Promise.resolve();
  });
}

function expectFormShows(form: Form, state: Snapshot, event: AnyEventObject | undefined): void {
  const { values, errors, added } = state.context;
  for (const field of Object.keys(INPUTS) as ReferrerField[]) {
    const input = screen.getByLabelText(INPUTS[field]);
    expect(input).toHaveValue(values[field]);
    // Required and marked so: the control says it, and the label carries the visible mark.
    expect(input).toBeRequired();
    expect(input).not.toHaveAttribute('placeholder');
    const error = document.getElementById(`${IDS[field]}-error`);
    if (errors[field]) {
      expect(error).toHaveTextContent(errors[field]);
      expect(input.getAttribute('aria-describedby')).toContain(`${IDS[field]}-error`);
      expect(input).toHaveAttribute('aria-invalid', 'true');
    } else {
      expect(error).toBeNull();
    }
  }
  // Until edited, the link follows the name, without its "Dr.".
  if (values.displayName && !state.context.slugEdited) expect(screen.getByLabelText(INPUTS.slug)).toHaveValue('mark-lee');
  const button = screen.getByRole('button', { name: /Add referrer|Adding…/ });
  expect(button).toHaveTextContent(state.matches('creating') ? 'Adding…' : 'Add referrer');
  if (event?.type.startsWith('xstate.error.actor.') && (event.error as ApiError).status === 409) {
    // The link's refusal sits under the link, not at the top.
    expect(document.getElementById('referrer-slug-error')).toHaveTextContent('is taken');
    expect(screen.queryByText('The link /r/mark-lee is taken: choose another.', { selector: 'p' })).toBeNull();
  }
  if (event?.type.startsWith('xstate.error.actor.') && (event.error as ApiError).status === 401)
    expect(form.onUnauthorised).toHaveBeenCalledTimes(1);
  if (errors.form) expect(screen.getByText(errors.form, { selector: 'p' })).toBeInTheDocument();
  if (added) {
    expect(screen.getByRole('status')).toHaveTextContent('Added Dr. Mark Lee');
    expect(form.onAdded).toHaveBeenCalled();
  }
}

afterEach(cleanup);

describe('the add-referrer form (model paths)', () => {
  it('has paths to every state the owner can reach', () => {
    const reached = paths.flatMap((path) => path.steps.map((step) => step.state as Snapshot));
    expect(reached.some((state) => state.matches('creating') && state.context.slugEdited)).toBe(true);
    expect(reached.some((state) => state.matches('creating') && !state.context.slugEdited)).toBe(true);
    expect(reached.some((state) => state.matches('editing') && state.context.errors.slug?.includes('is taken'))).toBe(true);
    expect(reached.some((state) => state.context.added !== null)).toBe(true);
  });

  it.each(paths.map((path) => [path.description, path] as const))('%s', async (_, path) => {
    const form = renderForm();
    const initial = model.testLogic.getInitialSnapshot(null as never, undefined) as Snapshot;
    expectFormShows(form, initial, undefined);
    coverage.record(initial as AnyMachineSnapshot);
    for (const step of path.steps) {
      await execute(form, step.event);
      expectFormShows(form, step.state as Snapshot, step.event);
      coverage.record(step.state as AnyMachineSnapshot);
    }
  });

  it('reached every state and took every transition in the form', () => expectFullCoverage(coverage, 'referrerForm'));
});
