/**
 * Model-based test of the console's referrer list (src/machines/referrersMachine.ts, src/views/admin/AdminReferrers.tsx):
 * generated paths through loading, a referrer's edit opened, cancelled and saved, one disabled and one enabled, a
 * link copied (or the clipboard refusing), and a referrer added with the form below (the list loads again), each
 * call answered, refused or failed, run against the real screen. Held to pageRules.ts: the name sent without
 * "Dr." and every field trimmed, the status sent as the other one, the link copied whole, "Copied" only after a
 * copy, a refusal in the server's words and a failure in the console's, the sign-in asked for once per ended session.
 */
import { fireEvent, render, screen, within } from '@testing-library/react';
import { expect, vi } from 'vitest';
import type { AnyEventObject, AnyMachineSnapshot } from 'xstate';
import { ApiError } from '../../src/api/client';
import type { Referrer } from '../../src/contract/admin';
import { referrersMachine } from '../../src/machines/referrersMachine';
import { AdminReferrers } from '../../src/views/admin/AdminReferrers';
import { advance } from '../views/support/timers';
import { answeredWith, answersOf, describePageModel, type Step } from './pageModel';
import { REFERRERS, UNREACHABLE } from './pageRules';

const referrer = (id: number, slug: string, displayName: string, status: Referrer['status']): Referrer => ({
  id: `00000000-0000-4000-8000-00000000000${id}`,
  slug,
  displayName,
  shortLabel: `dr-${slug}`,
  quote: 'Friends only.',
  status,
  createdAt: '2026-11-24T09:00:00.000Z',
  updatedAt: '2026-11-24T09:00:00.000Z',
});
const JANE = referrer(1, 'jane', 'Jane Smith', 'active');
const RAY = referrer(2, 'ray', 'Ray Park', 'disabled');
const JANE_RENAMED: Referrer = { ...JANE, displayName: REFERRERS.sentName };
const ADDED = referrer(3, 'mark-lee', 'Mark Lee', 'active');
const NETWORK = new ApiError(UNREACHABLE.console, 0);
const SIGNED_OUT = new ApiError('Please sign in to the console.', 401);
const TAKEN = new ApiError('The short label dr-jane is taken: choose another.', 409);
const CLIPBOARD_REFUSED = new Error('Write permission denied.');

let onUnauthorised = vi.fn();
let copiedText: string[] = [];

const linkOf = (slug: string) => `${window.location.origin}/r/${slug}`;

function eventsAt(snapshot: AnyMachineSnapshot): AnyEventObject[] {
  const { referrers, editing } = snapshot.context as { referrers: Referrer[]; editing: string | null };
  const events = [
    ...answersOf(snapshot, 'referrers.loading', [[JANE, RAY]], [NETWORK, SIGNED_OUT]),
    ...answersOf(snapshot, 'referrers.saving', [JANE_RENAMED, { ...RAY, status: 'active' }], [TAKEN, NETWORK, SIGNED_OUT]),
    ...answersOf(snapshot, 'referrers.copying', [undefined], [CLIPBOARD_REFUSED]),
  ];
  if (!snapshot.matches('ready')) return events;
  events.push({ type: 'RELOAD' });
  const jane = referrers.find((each) => each.id === JANE.id);
  const ray = referrers.find((each) => each.id === RAY.id);
  if (jane && editing === null) events.push({ type: 'EDIT', id: jane.id }, { type: 'COPY', slug: jane.slug, link: linkOf(jane.slug) });
  if (editing !== null) {
    events.push({ type: 'EDIT_CANCELLED' });
    events.push({ type: 'EDIT_SAVED', id: editing, displayName: REFERRERS.typedName, shortLabel: ' dr-jane ', quote: ' Friends only. ' });
  }
  if (ray) events.push({ type: 'STATUS_TOGGLED', referrer: ray });
  return events;
}

/** The failure the list shows: the last failed call's words (the clipboard's shows none), until a list loads or an edit opens. */
let failure: string | null = null;
function failureAfter(step: Step | undefined): string | null {
  if (!step) return null;
  const error = (step.event as { error?: unknown }).error;
  if (error instanceof ApiError) return error.status === 401 ? failure : error.status === 0 ? UNREACHABLE.console : error.message;
  if (step.event.type === 'EDIT' || /^xstate\.done\.actor\.\d+\.referrers\.(loading|saving)$/.test(step.event.type)) return null;
  return failure;
}

/** The referrer whose edit form the owner opened last and has not closed: Cancel, or a save done, closes it. */
function editOpenAfter(history: Step[]): string | null {
  let open: string | null = null;
  for (const { event } of history) {
    if (event.type === 'EDIT') open = String(event.id);
    else if (event.type === 'EDIT_CANCELLED' || /^xstate\.done\.actor\.\d+\.referrers\.saving$/.test(event.type)) open = null;
  }
  return open;
}

describePageModel({
  name: 'referrers',
  machine: referrersMachine,
  callsByState: {
    'referrers.loading': 'list',
    'referrers.saving': 'update',
    'referrers.copying': 'clipboard',
    'referrerForm.creating': 'create',
  },
  routes: [
    { method: 'GET', path: /^\/api\/admin\/referrers$/, kind: 'list', toBody: (output) => ({ referrers: output }) },
    { method: 'PATCH', path: /^\/api\/admin\/referrers\/[\w-]+$/, kind: 'update' },
    { method: 'POST', path: /^\/api\/admin\/referrers$/, kind: 'create' },
  ],
  eventsAt,
  render(calls) {
    onUnauthorised = vi.fn();
    copiedText = [];
    failure = null;
    vi.stubGlobal('navigator', {
      ...navigator,
      clipboard: {
        writeText: (text: string) => {
          copiedText.push(text);
          return calls.promise('clipboard');
        },
      },
    });
    render(<AdminReferrers onUnauthorised={onUnauthorised} />);
  },
  async act(event, before, calls) {
    const { referrers } = before.context as { referrers: Referrer[] };
    const rowOf = (id: string) => {
      const name = referrers.find((each) => each.id === id)!.displayName;
      return screen.getAllByRole('row').find((row) => row.textContent?.includes(`Dr. ${name}`))!;
    };
    if (event.type === 'RELOAD') {
      // The list loads again when the form below adds a referrer.
      const form = screen.getByRole('form', { name: 'Add a referrer' });
      fireEvent.change(within(form).getByLabelText("Name (after 'Dr.')"), { target: { value: 'Dr. Mark Lee' } });
      fireEvent.change(within(form).getByLabelText('Short label (affiliate_id)'), { target: { value: 'dr-lee' } });
      fireEvent.change(within(form).getByLabelText('Quote'), { target: { value: 'Friends only.' } });
      fireEvent.click(within(form).getByRole('button', { name: /Add referrer/ }));
      await advance(0);
      calls.answer({ type: 'xstate.done.actor.0.referrerForm.creating', output: ADDED });
    } else if (event.type === 'EDIT') fireEvent.click(within(rowOf(String(event.id))).getByRole('button', { name: 'Edit' }));
    else if (event.type === 'EDIT_CANCELLED') fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    else if (event.type === 'EDIT_SAVED') {
      const form = screen.getByRole('form', { name: /^Edit Dr\. / });
      fireEvent.change(within(form).getByLabelText("Name (after 'Dr.')"), { target: { value: event.displayName } });
      fireEvent.change(within(form).getByLabelText('Short label (affiliate_id)'), { target: { value: event.shortLabel } });
      fireEvent.change(within(form).getByLabelText('Quote'), { target: { value: event.quote } });
      fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    } else if (event.type === 'STATUS_TOGGLED') {
      const { referrer: toggled } = event as unknown as { referrer: Referrer };
      fireEvent.click(within(rowOf(toggled.id)).getByRole('button', { name: toggled.status === 'active' ? 'Disable' : 'Enable' }));
    } else if (event.type === 'COPY') fireEvent.click(screen.getByRole('button', { name: `${REFERRERS.copy} of Dr. ${JANE.displayName}` }));
    else throw new Error(`The model test cannot make ${event.type} happen`);
  },
  expectShows(state, history, requests) {
    const { referrers, editing, copied } = state.context as { referrers: Referrer[]; editing: string | null; copied: string | null };
    const step = history.at(-1);
    failure = failureAfter(step);
    expect(onUnauthorised, 'the console asked to sign in again').toHaveBeenCalledTimes(answeredWith(history, SIGNED_OUT));
    // Every change sent is the one the owner made: an edit's fields trimmed, the name without "Dr."; a status, the other one.
    const changes = requests.filter((request) => request.method === 'PATCH');
    const made = history.filter((each) => each.event.type === 'EDIT_SAVED' || each.event.type === 'STATUS_TOGGLED');
    expect(changes.map((change) => change.body)).toEqual(
      made.map(({ event }) =>
        event.type === 'EDIT_SAVED'
          ? { displayName: REFERRERS.sentName, shortLabel: 'dr-jane', quote: 'Friends only.' }
          : { status: (event as unknown as { referrer: Referrer }).referrer.status === 'active' ? 'disabled' : 'active' },
      ),
    );
    expect(copiedText).toEqual(history.filter((each) => each.event.type === 'COPY').map(() => linkOf(JANE.slug)));
    const table = screen.getByRole('table', { name: 'Referrers' });
    expect(within(table).getAllByRole('row')).toHaveLength(referrers.length + 1);
    for (const each of referrers) {
      if (each.id === editing) {
        expect(within(table).getByRole('form', { name: `Edit Dr. ${each.displayName}` })).toBeInTheDocument();
        continue;
      }
      const copiedNow = copied === each.slug;
      expect(
        within(table).getByRole('button', { name: `${copiedNow ? REFERRERS.copied : REFERRERS.copy} of Dr. ${each.displayName}` }),
      ).toHaveTextContent(copiedNow ? REFERRERS.copied : REFERRERS.copy);
    }
    // "Copied" only from a copy the clipboard took (or is taking), never after it refused.
    if (/^xstate\.error\.actor\.\d+\.referrers\.copying$/.test(step?.event.type ?? ''))
      expect(within(table).queryByText(REFERRERS.copied)).toBeNull();
    if (/^xstate\.done\.actor\.\d+\.referrers\.copying$/.test(step?.event.type ?? ''))
      expect(within(table).getByText(REFERRERS.copied)).toBeInTheDocument();
    // The edit form is open for the referrer whose Edit was pressed last, until Cancel or a save is done.
    const open = editOpenAfter(history);
    const forms = within(table).queryAllByRole('form', { name: /^Edit Dr\. / });
    expect(forms.map((form) => form.getAttribute('aria-label'))).toEqual(
      open === null ? [] : [`Edit Dr. ${referrers.find((each) => each.id === open)!.displayName}`],
    );
    // A save done shows the referrer as the server answered it.
    if (/^xstate\.done\.actor\.\d+\.referrers\.saving$/.test(step?.event.type ?? '')) {
      const saved = (step!.event as unknown as { output: Referrer }).output;
      const row = within(table)
        .getAllByRole('row')
        .find((each) => each.textContent?.includes(`Dr. ${saved.displayName}`));
      expect(row, `the row of Dr. ${saved.displayName}`).toBeDefined();
      expect(within(row!).getByRole('button', { name: saved.status === 'active' ? 'Disable' : 'Enable' })).toBeInTheDocument();
    }
    const toggles = within(table).queryAllByRole('button', { name: /^(Disable|Enable)$/ });
    for (const toggle of toggles) expect(toggle).toHaveProperty('disabled', !state.matches('ready'));
    const alerts = screen.queryAllByRole('alert').filter((alert) => !alert.id.endsWith('-error') && !alert.closest('form'));
    expect(alerts.map((alert) => alert.textContent)).toEqual(failure ? [failure] : []);
  },
});
