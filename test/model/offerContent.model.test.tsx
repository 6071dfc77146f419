/**
 * Model-based test of the console's Content screen (src/machines/offerContentMachine.ts,
 * src/views/admin/AdminContent.tsx): generated paths through loading (and its retry), a testimonial row started and
 * emptied, the guarantee emptied and written, saves refused by the form, accepted, refused or failed by the server,
 * run against the real screen. Held to pageRules.ts (decision 0030, spec §1): three testimonial rows; a save sends
 * exactly the rows with anything in them and the guarantee, trimmed, as the fields show them; a refused save names
 * each missing field under it in the rule's words and sends nothing; "Saved" after the server's yes; a failure
 * in the server's or the console's words; the sign-in asked for once per ended session.
 */
import { fireEvent, render, screen, within } from '@testing-library/react';
import { expect, vi } from 'vitest';
import type { AnyEventObject, AnyMachineSnapshot } from 'xstate';
import { ApiError } from '../../src/api/client';
import type { OfferContent } from '../../src/domain/offerContent';
import { offerContentMachine } from '../../src/machines/offerContentMachine';
import { AdminContent } from '../../src/views/admin/AdminContent';
import { answeredWith, answersOf, describePageModel, type SentRequest, type Step } from './pageModel';
import { CONTENT, UNREACHABLE } from './pageRules';

const SAVED_CONTENT: OfferContent = {
  testimonials: [{ name: 'Dr. Jane Smith', practice: 'Smith Family Chiropractic', quote: 'Our whole team trains with it.' }],
  guarantee: '30-day money-back guarantee.',
};
const NEW_NAME = ' Dr. Ray Park ';
const NEW_GUARANTEE = ' Every dollar back within 30 days. ';
const NETWORK = new ApiError(UNREACHABLE.console, 0);
const SIGNED_OUT = new ApiError('Please sign in to the console.', 401);
const TOO_LONG = new ApiError('The guarantee is longer than 400 characters.', 400);

let onUnauthorised = vi.fn();

interface Draft {
  testimonials: Array<{ name: string; practice: string; quote: string }>;
  guarantee: string;
}

/** The form as the owner sees it: each row's three fields and the guarantee. */
function fieldsShown(): Draft {
  const value = (id: string) => (document.getElementById(id) as HTMLInputElement).value;
  return {
    testimonials: Array.from({ length: CONTENT.testimonials }, (_, index) => ({
      name: value(`testimonial-${index}-name`),
      practice: value(`testimonial-${index}-practice`),
      quote: value(`testimonial-${index}-quote`),
    })),
    guarantee: value('guarantee'),
  };
}

/** The rule's refusals for a form (decision 0030): a started row needs all three fields, the guarantee is required. */
function refusals(draft: Draft): Record<string, string> {
  const errors: Record<string, string> = {};
  draft.testimonials.forEach((row, index) => {
    const fields = ['name', 'practice', 'quote'] as const;
    if (fields.every((field) => !row[field].trim())) return;
    for (const field of fields) if (!row[field].trim()) errors[`testimonial-${index}-${field}`] = CONTENT.missing[field];
  });
  if (!draft.guarantee.trim()) errors.guarantee = CONTENT.guaranteeMissing;
  return errors;
}

/** The save's body for a form: the rows with anything in them, and the guarantee, trimmed. */
const bodyFor = (draft: Draft) => ({
  testimonials: draft.testimonials
    .filter((row) => row.name.trim() || row.practice.trim() || row.quote.trim())
    .map((row) => ({ name: row.name.trim(), practice: row.practice.trim(), quote: row.quote.trim() })),
  guarantee: draft.guarantee.trim(),
});

/** What the page shows under each field now: field id → message. */
function fieldErrorsShown(): Record<string, string> {
  const shown: Record<string, string> = {};
  for (const control of document.querySelectorAll('[aria-invalid="true"]'))
    shown[control.id] = document.getElementById(`${control.id}-error`)?.textContent ?? '';
  return shown;
}

/** The form-wide failure the page shows: the last failed call's words, until a field changes, the form refuses a save or the server takes one. */
let failure: string | null = null;

function failureAfter(step: Step | undefined, refusedByForm: boolean): string | null {
  if (!step) return null;
  const error = (step.event as { error?: ApiError }).error;
  if (error) return error.status === 401 ? failure : error.status === 0 ? UNREACHABLE.console : error.message;
  if (
    step.event.type.endsWith('CHANGED') ||
    refusedByForm ||
    /^xstate\.done\.actor\.\d+\.offerContent\.(saving|loading)$/.test(step.event.type)
  )
    return null;
  return failure;
}

/** The labels of a testimonial's fields on the page. */
const FIELD_LABELS = { name: 'Name', practice: 'Practice', quote: 'Quote' } as const;

const loaded: AnyEventObject = {
  type: 'xstate.done.actor.0.offerContent.loading',
  output: SAVED_CONTENT,
  actorId: '0.offerContent.loading',
};
const typed = (field: keyof typeof FIELD_LABELS, value: string): AnyEventObject => ({
  type: 'TESTIMONIAL_CHANGED',
  index: 1,
  field,
  value,
});

/**
 * Refusals and a save by rule (CONTENT) that the generated paths need not take, since a refused save returns to a
 * state they have seen: the guarantee's own words, a row started without its name, and a row of spaces, which
 * is empty: not refused, not sent.
 */
const rulePaths: AnyEventObject[][] = [
  [loaded, { type: 'GUARANTEE_CHANGED', value: '' }, { type: 'SAVE' }],
  [loaded, typed('practice', ' Park Chiropractic '), { type: 'SAVE' }],
  [loaded, typed('name', '  '), typed('practice', ' '), typed('quote', '   '), { type: 'SAVE' }],
];

let lastSaveRequests = 0;
/** "Saved" shows from the server's yes to a save until the next change (decision 0030), and at no other time. */
let savedShown = false;

describePageModel({
  name: 'offerContent',
  machine: offerContentMachine,
  rulePaths,
  callsByState: { 'offerContent.loading': 'load', 'offerContent.saving': 'save' },
  routes: [
    { method: 'GET', path: /^\/api\/admin\/content$/, kind: 'load' },
    { method: 'PUT', path: /^\/api\/admin\/content$/, kind: 'save' },
  ],
  eventsAt(snapshot: AnyMachineSnapshot): AnyEventObject[] {
    const { draft } = snapshot.context as { draft: Draft };
    const events = [
      ...answersOf(snapshot, 'offerContent.loading', [SAVED_CONTENT], [NETWORK, SIGNED_OUT]),
      ...answersOf(snapshot, 'offerContent.saving', [SAVED_CONTENT], [TOO_LONG, NETWORK, SIGNED_OUT]),
    ];
    if (snapshot.matches('loadFailed')) events.push({ type: 'RETRY' });
    if (snapshot.matches('editing')) {
      const second = draft.testimonials[1]!;
      events.push({ type: 'TESTIMONIAL_CHANGED', index: 1, field: 'name', value: second.name ? '' : NEW_NAME });
      events.push({ type: 'GUARANTEE_CHANGED', value: draft.guarantee ? '' : NEW_GUARANTEE });
      events.push({ type: 'SAVE' });
    }
    return events;
  },
  render() {
    onUnauthorised = vi.fn();
    lastSaveRequests = 0;
    savedShown = false;
    render(<AdminContent onUnauthorised={onUnauthorised} />);
  },
  act(event) {
    if (event.type === 'RETRY') fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    else if (event.type === 'TESTIMONIAL_CHANGED') {
      const row = screen.getByRole('group', { name: `Testimonial ${Number(event.index) + 1}` });
      const label = FIELD_LABELS[event.field as keyof typeof FIELD_LABELS];
      fireEvent.change(within(row).getByLabelText(label, { exact: false }), { target: { value: event.value } });
    } else if (event.type === 'GUARANTEE_CHANGED')
      fireEvent.change(screen.getByLabelText('Guarantee text'), { target: { value: event.value } });
    else if (event.type === 'SAVE') fireEvent.click(screen.getByRole('button', { name: 'Save content' }));
    else throw new Error(`The model test cannot make ${event.type} happen`);
  },
  expectShows(state, history, requests: SentRequest[]) {
    expect(onUnauthorised, 'the console asked to sign in again').toHaveBeenCalledTimes(answeredWith(history, SIGNED_OUT));
    const step = history.at(-1);
    const refusedByForm = step?.event.type === 'SAVE' && state.matches('editing');
    failure = failureAfter(step, refusedByForm);
    if (state.matches('loading')) {
      expect(screen.getByRole('heading', { name: 'Content' })).toHaveAttribute('aria-busy', 'true');
      return;
    }
    if (state.matches('loadFailed')) {
      expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
      if (failure) expect(screen.getByRole('alert')).toHaveTextContent(failure);
      return;
    }
    expect(screen.getAllByRole('group', { name: /^Testimonial \d$/ })).toHaveLength(CONTENT.testimonials);
    const draft = fieldsShown();
    const saves = requests.filter((request) => request.method === 'PUT');
    if (step?.event.type === 'SAVE') {
      const expected = refusals(draft);
      expect(Object.keys(expected).length > 0, 'the form refuses a save').toBe(refusedByForm);
      if (refusedByForm) {
        // Refused by the form: each missing field named under it, nothing sent.
        expect(saves).toHaveLength(lastSaveRequests);
        expect(fieldErrorsShown()).toEqual(expected);
      } else {
        expect(saves).toHaveLength(lastSaveRequests + 1);
        expect(saves.at(-1)?.body).toEqual(bodyFor(draft));
      }
    }
    lastSaveRequests = saves.length;
    expect(screen.getByRole('button', { name: state.matches('saving') ? 'Saving…' : 'Save content' })).toHaveProperty(
      'disabled',
      state.matches('saving'),
    );
    const savedNow = /^xstate\.done\.actor\.\d+\.offerContent\.saving$/.test(step?.event.type ?? '');
    if (savedNow) {
      expect(screen.getByRole('status')).toHaveTextContent(CONTENT.saved);
      expect(fieldsShown()).toEqual({
        testimonials: Array.from(
          { length: CONTENT.testimonials },
          (_, index) => SAVED_CONTENT.testimonials[index] ?? { name: '', practice: '', quote: '' },
        ),
        guarantee: SAVED_CONTENT.guarantee,
      });
    }
    if (savedNow) savedShown = true;
    else if (step?.event.type.endsWith('CHANGED')) savedShown = false;
    expect(screen.getByRole('status').textContent, '"Saved"').toBe(savedShown ? CONTENT.saved : '');
    const formAlert = screen.queryAllByRole('alert').filter((alert) => !alert.id.endsWith('-error'));
    expect(formAlert.map((alert) => alert.textContent)).toEqual(failure ? [failure] : []);
  },
});
