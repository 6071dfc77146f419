/**
 * The console's Mail screen (/admin/mail): the outbox's mails, searched by recipient on the server as the owner
 * types (after a pause of SEARCH_DELAY_MS), whether mail is sent at all (no SMTP_URL: held), and the re-send of a
 * held or failed mail. The view renders a snapshot and sends events; the calls (GET /api/admin/mail,
 * POST /api/admin/mail/:id/resend) are invoked actors.
 */
import { assertEvent, assign, fromPromise, setup } from 'xstate';
import { sessionEndedActions, sessionEndedGuards, sessionEndedTo, type SessionEndedEmitted } from './consoleSessionEnded';
import { failureOf, outputOf } from './actorError';
import { adminApi } from '../api/adminApi';
import type { ApiError } from '../api/client';
import type { MailList, OutboxMail } from '../contract/admin';

/** Milliseconds after the last key in the search field before the list is asked for. */
export const SEARCH_DELAY_MS = 300;

interface MailContext {
  mails: OutboxMail[];
  /** 'held' when the server sends no mail (SMTP_URL not set); null until known. */
  delivery: MailList['delivery'] | null;
  /** The search as typed: part of the recipient's email. */
  search: string;
  /** The mail being re-sent. */
  resending: number | null;
  error: string | null;
}

type MailEvent = { type: 'SEARCH_CHANGED'; search: string } | { type: 'RESEND'; id: number } | { type: 'RELOAD' };

type MailEmitted = SessionEndedEmitted;

export const mailMachine = setup({
  // Stryker disable next-line ObjectLiteral: TypeScript only, XState ignores `types` at run time
  types: { context: {} as MailContext, events: {} as MailEvent, emitted: {} as MailEmitted },
  actors: {
    loadMails: fromPromise<MailList, { search: string }>(({ input }) => {
      const to = input.search.trim();
      return adminApi.mail(to ? { to } : {});
    }),
    resendMail: fromPromise<OutboxMail, { id: number }>(({ input }) => adminApi.resendMail(input.id)),
  },
  delays: { searchDelay: SEARCH_DELAY_MS },
  guards: sessionEndedGuards,
  actions: {
    ...sessionEndedActions<MailContext, MailEvent>(),
    assignList: assign(({ event }) => {
      const list = outputOf<MailList>(event);
      return { mails: list.mails, delivery: list.delivery, error: null };
    }),
    assignSearch: assign({
      search: ({ event }) => {
        assertEvent(event, 'SEARCH_CHANGED');
        return event.search;
      },
    }),
    assignResending: assign({
      resending: ({ event }) => {
        assertEvent(event, 'RESEND');
        return event.id;
      },
      error: null,
    }),
    clearResending: assign({ resending: null }),
    // src/api/adminApi.ts's calls reject only with an ApiError carrying the server's words or, when the server
    // was not reached or gave none, the console's own ('The console could not reach the server. Please try again.').
    assignError: assign({ error: ({ event }) => (failureOf(event) as ApiError).message }),
  },
}).createMachine({
  id: 'mail',
  context: { mails: [], delivery: null, search: '', resending: null, error: null },
  initial: 'loading',
  on: {
    SEARCH_CHANGED: { target: '.waiting', actions: 'assignSearch' },
  },
  states: {
    waiting: {
      after: { searchDelay: 'loading' },
    },
    loading: {
      invoke: {
        src: 'loadMails',
        input: ({ context }) => ({ search: context.search }),
        onDone: { target: 'ready', actions: 'assignList' },
        onError: [sessionEndedTo('ready'), { target: 'ready', actions: 'assignError' }],
      },
    },
    ready: {
      on: {
        RELOAD: 'loading',
        RESEND: { target: 'resending', actions: 'assignResending' },
      },
    },
    resending: {
      // However it is left (a search typed meanwhile among them), no mail stays "Sending…" with every Re-send off.
      exit: 'clearResending',
      invoke: {
        src: 'resendMail',
        input: ({ context }) => ({ id: context.resending! }),
        onDone: 'loading',
        onError: [sessionEndedTo('ready'), { target: 'ready', actions: 'assignError' }],
      },
    },
  },
});
