/**
 * The console's referrer list (/admin/referrers): load, edit one referrer's name, label and quote, disable or enable
 * one, copy a link. The view renders a snapshot and sends events; each call (GET and PATCH /api/admin/referrers,
 * the clipboard) is an invoked actor. Adding a referrer is its own statechart (referrerFormMachine.ts); the view
 * sends RELOAD when it adds one.
 */
import { assertEvent, assign, fromPromise, setup } from 'xstate';
import { sessionEndedActions, sessionEndedGuards, sessionEndedTo, type SessionEndedEmitted } from './consoleSessionEnded';
import { outputOf } from './actorError';
import { failureMessage } from './failureMessage';
import { adminApi } from '../api/adminApi';
import type { Referrer, UpdateReferrerRequest } from '../contract/admin';
import { referrerDisplayName } from '../domain/referrerNames';

interface ReferrersContext {
  referrers: Referrer[];
  /** The referrer whose edit form is open. */
  editing: string | null;
  /** The change being saved. */
  change: { id: string; body: UpdateReferrerRequest } | null;
  /** The link copied last (its slug), for "Copied". */
  copied: string | null;
  error: string | null;
}

type ReferrersEvent =
  | { type: 'RELOAD' }
  | { type: 'EDIT'; id: string }
  | { type: 'EDIT_CANCELLED' }
  | { type: 'EDIT_SAVED'; id: string; displayName: string; shortLabel: string; quote: string }
  | { type: 'STATUS_TOGGLED'; referrer: Referrer }
  | { type: 'COPY'; slug: string; link: string };

type ReferrersEmitted = SessionEndedEmitted;

export const referrersMachine = setup({
  // Stryker disable next-line ObjectLiteral: TypeScript-only, XState ignores `types` at run time
  types: { context: {} as ReferrersContext, events: {} as ReferrersEvent, emitted: {} as ReferrersEmitted },
  actors: {
    loadReferrers: fromPromise<Referrer[]>(async () => (await adminApi.referrers()).referrers),
    updateReferrer: fromPromise<Referrer, { id: string; body: UpdateReferrerRequest }>(({ input }) =>
      adminApi.updateReferrer(input.id, input.body),
    ),
    copyLink: fromPromise<void, { link: string }>(({ input }) => navigator.clipboard.writeText(input.link)),
  },
  guards: sessionEndedGuards,
  actions: {
    ...sessionEndedActions<ReferrersContext, ReferrersEvent>(),
    assignReferrers: assign(({ event }) => ({ referrers: outputOf<Referrer[]>(event), error: null })),
    assignEditing: assign({
      editing: ({ event }) => {
        assertEvent(event, 'EDIT');
        return event.id;
      },
      error: null,
    }),
    clearEditing: assign({ editing: null }),
    assignEditChange: assign({
      change: ({ event }) => {
        assertEvent(event, 'EDIT_SAVED');
        const { id, displayName, shortLabel, quote } = event;
        return { id, body: { displayName: referrerDisplayName(displayName), shortLabel: shortLabel.trim(), quote: quote.trim() } };
      },
    }),
    assignStatusChange: assign({
      change: ({ event }) => {
        assertEvent(event, 'STATUS_TOGGLED');
        const { referrer } = event;
        return { id: referrer.id, body: { status: referrer.status === 'active' ? 'disabled' : 'active' } } as const;
      },
    }),
    assignUpdated: assign(({ context, event }) => {
      const updated = outputOf<Referrer>(event);
      return {
        referrers: context.referrers.map((each) => (each.id === updated.id ? updated : each)),
        editing: null,
        change: null,
        error: null,
      };
    }),
    assignCopied: assign({
      copied: ({ event }) => {
        assertEvent(event, 'COPY');
        return event.slug;
      },
    }),
    clearCopied: assign({ copied: null }),
    assignError: assign({ error: ({ event }) => failureMessage(event) }),
  },
}).createMachine({
  id: 'referrers',
  context: { referrers: [], editing: null, change: null, copied: null, error: null },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'loadReferrers',
        onDone: { target: 'ready', actions: 'assignReferrers' },
        onError: [sessionEndedTo('ready'), { target: 'ready', actions: 'assignError' }],
      },
    },
    ready: {
      on: {
        RELOAD: 'loading',
        EDIT: { actions: 'assignEditing' },
        EDIT_CANCELLED: { actions: 'clearEditing' },
        EDIT_SAVED: { target: 'saving', actions: 'assignEditChange' },
        STATUS_TOGGLED: { target: 'saving', actions: 'assignStatusChange' },
        COPY: { target: 'copying', actions: 'assignCopied' },
      },
    },
    saving: {
      invoke: {
        src: 'updateReferrer',
        input: ({ context }) => context.change!,
        onDone: { target: 'ready', actions: 'assignUpdated' },
        onError: [sessionEndedTo('ready'), { target: 'ready', actions: 'assignError' }],
      },
    },
    copying: {
      invoke: {
        src: 'copyLink',
        input: ({ event }) => {
          assertEvent(event, 'COPY');
          return { link: event.link };
        },
        onDone: 'ready',
        onError: { target: 'ready', actions: 'clearCopied' },
      },
    },
  },
});
