/**
 * The console's "Add a referrer" form: the owner types a name (after "Dr."; a leading "Dr." is dropped,
 * src/domain/referrerNames.ts), the link's slug follows the name until the owner edits it, and each refusal is
 * shown by its field — "link is taken" under the link. The view renders a snapshot and sends events; the call
 * (POST /api/admin/referrers) is an invoked actor.
 */
import { assertEvent, assign, emit, fromPromise, setup } from 'xstate';
import { sessionEndedActions, sessionEndedGuards, sessionEndedTo, type SessionEndedEmitted } from './consoleSessionEnded';
import { failureOf, outputOf } from './actorError';
import { failureMessage } from './failureMessage';
import { adminApi } from '../api/adminApi';
import { ApiError } from '../api/client';
import { SLUG_PATTERN, type CreateReferrerRequest, type Referrer } from '../contract/admin';
import { referrerDisplayName, slugFromName } from '../domain/referrerNames';

/** The form's fields, as typed. */
export type ReferrerField = keyof CreateReferrerRequest;

/** What the form shows under each field (and above the button: `form`). */
type ReferrerFormErrors = Partial<Record<ReferrerField | 'form', string>>;

interface ReferrerFormContext {
  values: CreateReferrerRequest;
  /** True once the owner typed in the link field: the name no longer changes it. */
  slugEdited: boolean;
  errors: ReferrerFormErrors;
  /** The last referrer added, for the confirmation under the form. */
  added: Referrer | null;
}

type ReferrerFormEvent = { type: 'FIELD_CHANGED'; field: ReferrerField; value: string } | { type: 'SUBMITTED' };

type ReferrerFormEmitted =
  /** A referrer was added: the list shows it. */
  | { type: 'created'; referrer: Referrer }
  /** The console session ended: the console shows its sign-in form. */
  | SessionEndedEmitted;

const EMPTY: CreateReferrerRequest = { slug: '', displayName: '', shortLabel: '', quote: '' };

/** The body the form sends: every text trimmed, the name without a leading "Dr.". */
function bodyOf(values: CreateReferrerRequest): CreateReferrerRequest {
  return {
    slug: values.slug.trim(),
    displayName: referrerDisplayName(values.displayName),
    shortLabel: values.shortLabel.trim(),
    quote: values.quote.trim(),
  };
}

/** What is wrong with `values` before anything is sent, by field; {} when the form may be sent. */
export function referrerFormErrors(values: CreateReferrerRequest): ReferrerFormErrors {
  const body = bodyOf(values);
  const errors: ReferrerFormErrors = {};
  if (!body.displayName) errors.displayName = "Enter the name after 'Dr.', e.g. Jane Doe.";
  if (!body.slug) errors.slug = 'Enter the link, e.g. jane-doe.';
  else if (body.slug.length < 2 || body.slug.length > 40 || !new RegExp(SLUG_PATTERN).test(body.slug))
    errors.slug = 'Use 2 to 40 lower-case letters, digits and single dashes, e.g. jane-doe.';
  if (!body.shortLabel) errors.shortLabel = 'Enter the short label, e.g. dr-jane-doe.';
  if (!body.quote) errors.quote = 'Enter the quote the offer shows.';
  return errors;
}

export const referrerFormMachine = setup({
  // Stryker disable next-line ObjectLiteral: TypeScript-only, XState ignores `types` at run time
  types: {
    context: {} as ReferrerFormContext,
    events: {} as ReferrerFormEvent,
    emitted: {} as ReferrerFormEmitted,
  },
  actors: {
    createReferrer: fromPromise<Referrer, CreateReferrerRequest>(({ input }) => adminApi.createReferrer(input)),
  },
  guards: {
    formValid: ({ context }) => Object.keys(referrerFormErrors(context.values)).length === 0,
    ...sessionEndedGuards,
    linkTaken: ({ event }) => {
      const error = failureOf(event);
      return error instanceof ApiError && error.status === 409;
    },
  },
  actions: {
    ...sessionEndedActions<ReferrerFormContext, ReferrerFormEvent>(),
    assignField: assign(({ context, event }) => {
      assertEvent(event, 'FIELD_CHANGED');
      const values = { ...context.values, [event.field]: event.value };
      const slugEdited = context.slugEdited || event.field === 'slug';
      if (event.field === 'displayName' && !slugEdited) values.slug = slugFromName(event.value);
      // A field's message goes once the owner changes it (the slug's too, when the name changed it).
      const errors = { ...context.errors, [event.field]: undefined, form: undefined };
      if (event.field === 'displayName' && !slugEdited) errors.slug = undefined;
      return { values, slugEdited, errors, added: null };
    }),
    assignInvalid: assign({ errors: ({ context }) => referrerFormErrors(context.values) }),
    assignLinkTaken: assign({
      errors: ({ context, event }) => ({ ...context.errors, slug: failureMessage(event) }),
    }),
    assignFailure: assign({
      errors: ({ context, event }) => ({ ...context.errors, form: failureMessage(event) }),
    }),
    assignAdded: assign(({ event }) => ({ values: EMPTY, slugEdited: false, errors: {}, added: outputOf<Referrer>(event) })),
    emitCreated: emit(({ event }) => ({ type: 'created' as const, referrer: outputOf<Referrer>(event) })),
  },
}).createMachine({
  id: 'referrerForm',
  context: { values: EMPTY, slugEdited: false, errors: {}, added: null },
  initial: 'editing',
  states: {
    editing: {
      on: {
        FIELD_CHANGED: { actions: 'assignField' },
        SUBMITTED: [{ guard: 'formValid', target: 'creating' }, { actions: 'assignInvalid' }],
      },
    },
    creating: {
      invoke: {
        src: 'createReferrer',
        input: ({ context }) => bodyOf(context.values),
        onDone: {
          target: 'editing',
          actions: ['assignAdded', 'emitCreated'],
        },
        onError: [
          sessionEndedTo('editing'),
          { guard: 'linkTaken', target: 'editing', actions: 'assignLinkTaken' },
          { target: 'editing', actions: 'assignFailure' },
        ],
      },
    },
  },
});
