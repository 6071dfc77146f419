/**
 * The console's Content screen (/admin/content, docs/decisions/0030): the owner writes the testimonials
 * of up to three named practitioners and the guarantee's text, and saves them; the offer page shows them at once.
 * A testimonial row left empty is not shown; a row half filled is refused by its fields. The view renders a
 * snapshot and sends events; the calls (GET and PUT /api/admin/content) are invoked actors.
 */
import { assertEvent, assign, fromPromise, setup } from 'xstate';
import { sessionEndedActions, sessionEndedGuards, sessionEndedTo, type SessionEndedEmitted } from './consoleSessionEnded';
import { outputOf } from './actorError';
import { failureMessage } from './failureMessage';
import { adminApi } from '../api/adminApi';
import type { OfferContentBody } from '../contract/admin';
import { MAX_TESTIMONIALS, type OfferContent, type Testimonial } from '../domain/offerContent';

/** A testimonial's fields. */
export type TestimonialField = keyof Testimonial;

/** The form: always MAX_TESTIMONIALS rows (empty ones are not sent) and the guarantee. */
interface ContentDraft {
  testimonials: Testimonial[];
  guarantee: string;
}

/** Messages by field: `testimonials.{index}.{field}` or `guarantee`, and `form` for the whole. */
type ContentErrors = Record<string, string>;

interface OfferContentContext {
  draft: ContentDraft;
  errors: ContentErrors;
  /** True from a save until the next change: "Saved" shows. */
  saved: boolean;
}

type OfferContentEvent =
  | { type: 'TESTIMONIAL_CHANGED'; index: number; field: TestimonialField; value: string }
  | { type: 'GUARANTEE_CHANGED'; value: string }
  | { type: 'SAVE' }
  | { type: 'RETRY' };

type OfferContentEmitted = SessionEndedEmitted;

const EMPTY_TESTIMONIAL: Testimonial = { name: '', practice: '', quote: '' };
const FIELD_NAMES: Record<TestimonialField, string> = { name: 'name', practice: 'practice', quote: 'quote' };

/** The form for `content`: its testimonials, then empty rows up to MAX_TESTIMONIALS. */
export function draftOf(content: OfferContent): ContentDraft {
  return {
    testimonials: Array.from({ length: MAX_TESTIMONIALS }, (_, index) => content.testimonials[index] ?? EMPTY_TESTIMONIAL),
    guarantee: content.guarantee,
  };
}

const isBlank = (testimonial: Testimonial) => !testimonial.name.trim() && !testimonial.practice.trim() && !testimonial.quote.trim();

/** The body a draft saves: the rows with anything in them, trimmed. */
export function bodyOf(draft: ContentDraft): OfferContentBody {
  return {
    testimonials: draft.testimonials
      .filter((testimonial) => !isBlank(testimonial))
      .map(({ name, practice, quote }) => ({ name: name.trim(), practice: practice.trim(), quote: quote.trim() })),
    guarantee: draft.guarantee.trim(),
  };
}

/** What is wrong with `draft`, by field (a started row needs all three fields; the guarantee is required); {} when none. */
export function contentErrors(draft: ContentDraft): ContentErrors {
  const errors: ContentErrors = {};
  draft.testimonials.forEach((testimonial, index) => {
    if (isBlank(testimonial)) return;
    for (const field of ['name', 'practice', 'quote'] as const)
      if (!testimonial[field].trim())
        errors[`testimonials.${index}.${field}`] = `Enter the practitioner's ${FIELD_NAMES[field]}, or empty the row.`;
  });
  if (!draft.guarantee.trim()) errors.guarantee = "Enter the guarantee's text.";
  return errors;
}

export const offerContentMachine = setup({
  // Stryker disable next-line ObjectLiteral: TypeScript-only, XState ignores `types` at run time
  types: { context: {} as OfferContentContext, events: {} as OfferContentEvent, emitted: {} as OfferContentEmitted },
  actors: {
    loadContent: fromPromise<OfferContent>(() => adminApi.content()),
    saveContent: fromPromise<OfferContent, OfferContentBody>(({ input }) => adminApi.saveContent(input)),
  },
  guards: {
    draftValid: ({ context }) => Object.keys(contentErrors(context.draft)).length === 0,
    ...sessionEndedGuards,
  },
  actions: {
    ...sessionEndedActions<OfferContentContext, OfferContentEvent>(),
    assignContent: assign(({ event }) => ({ draft: draftOf(outputOf<OfferContent>(event)), errors: {} })),
    assignSaved: assign(({ event }) => ({ draft: draftOf(outputOf<OfferContent>(event)), errors: {}, saved: true })),
    assignTestimonial: assign(({ context, event }) => {
      assertEvent(event, 'TESTIMONIAL_CHANGED');
      const testimonials = context.draft.testimonials.map((each, index) =>
        index === event.index ? { ...each, [event.field]: event.value } : each,
      );
      const errors = { ...context.errors };
      delete errors[`testimonials.${event.index}.${event.field}`];
      delete errors.form;
      return { draft: { ...context.draft, testimonials }, errors, saved: false };
    }),
    assignGuarantee: assign(({ context, event }) => {
      assertEvent(event, 'GUARANTEE_CHANGED');
      const { guarantee: _, form: __, ...errors } = context.errors;
      return { draft: { ...context.draft, guarantee: event.value }, errors, saved: false };
    }),
    assignInvalid: assign({ errors: ({ context }) => contentErrors(context.draft), saved: false }),
    assignFailure: assign({
      errors: ({ context, event }) => ({ ...context.errors, form: failureMessage(event) }),
    }),
  },
}).createMachine({
  id: 'offerContent',
  // Stryker disable next-line ArrayDeclaration,StringLiteral: the form is drawn only in `editing`, after the read replaced this draft
  context: { draft: draftOf({ testimonials: [], guarantee: '' }), errors: {}, saved: false },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'loadContent',
        onDone: { target: 'editing', actions: 'assignContent' },
        onError: [sessionEndedTo('loadFailed'), { target: 'loadFailed', actions: 'assignFailure' }],
      },
    },
    loadFailed: {
      on: { RETRY: 'loading' },
    },
    editing: {
      on: {
        TESTIMONIAL_CHANGED: { actions: 'assignTestimonial' },
        GUARANTEE_CHANGED: { actions: 'assignGuarantee' },
        SAVE: [{ guard: 'draftValid', target: 'saving' }, { actions: 'assignInvalid' }],
      },
    },
    saving: {
      invoke: {
        src: 'saveContent',
        input: ({ context }) => bodyOf(context.draft),
        onDone: { target: 'editing', actions: 'assignSaved' },
        onError: [sessionEndedTo('editing'), { target: 'editing', actions: 'assignFailure' }],
      },
    },
  },
});
