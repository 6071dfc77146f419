/**
 * The invitee's page, /join?token=…: read the invitation the link stands for, accept it, then show the
 * generated login once with copy buttons and hand the member on to sign their own training agreement. An expired,
 * replaced, withdrawn or already claimed link says so and sends the member back to the person who invited them.
 * When the server already wrote its answer into the page (src/domain/joinPage.ts), the machine starts at it and
 * reads nothing. No DOM here: the calls and the clipboard are invoked actors; the redirect and the toasts are emitted events.
 */
import { assertEvent, assign, emit, fromPromise, setup } from 'xstate';
import { failureOf, outputOf } from './actorError';
import { failureMessage } from './failureMessage';
import { TOASTS, type ToastMessage } from './toasts';
import { ApiError } from '../api/client';
import { teamApi } from '../api/teamApi';
import { copyText } from '../browser/clipboard';
import type { JoinClaimed, JoinInvitation } from '../contract/team';
import { NO_JOIN_TOKEN, type JoinAnswer } from '../domain/joinPage';

interface JoinInput {
  /** The page address's query string ('?token=…'). */
  search: string;
  /** What the server found for the link and wrote into the page (src/domain/joinPage.ts), if it did. */
  answer?: JoinAnswer | null;
}

/** Which part of the login a copy button copies. */
export type JoinCredential = 'email' | 'password';

interface JoinContext {
  token: string;
  invitation: JoinInvitation | null;
  login: JoinClaimed | null;
  /** Why the link cannot be used (the server's words), shown instead of the invitation. */
  problem: string | null;
  /** A failure to reach the server while accepting: the invitation stays, with this above the button. */
  error: string | null;
  copyField: JoinCredential;
}

type JoinEvent = { type: 'ACCEPT_CLICKED' } | { type: 'COPY_CLICKED'; field: JoinCredential } | { type: 'SIGN_AGREEMENT_CLICKED' };

type JoinEmitted = { type: 'toast'; toast: ToastMessage } | { type: 'redirectRequested'; url: string };

/** The token in `search`, or ''. */
function tokenOf(search: string): string {
  return new URLSearchParams(search).get('token') ?? '';
}

export const joinMachine = setup({
  // Stryker disable next-line ObjectLiteral: TypeScript-only, XState ignores `types` at run time
  types: {
    context: {} as JoinContext,
    input: {} as JoinInput,
    events: {} as JoinEvent,
    emitted: {} as JoinEmitted,
  },
  actors: {
    readInvitation: fromPromise<JoinInvitation, { token: string }>(({ input }) => teamApi.invitation(input.token)),
    claimSeat: fromPromise<JoinClaimed, { token: string }>(({ input }) => teamApi.claim(input.token)),
    copyToClipboard: fromPromise<void, { text: string }>(({ input }) => copyText(input.text)),
  },
  guards: {
    hasToken: ({ context }) => context.token !== '',
    /** The server wrote the invitation into the page: nothing to read. */
    invitationAnswered: ({ context }) => context.invitation !== null,
    /** The server wrote why the link cannot be used into the page. */
    problemAnswered: ({ context }) => context.problem !== null,
    /** The server refused the link itself (4xx): expired, replaced, withdrawn or already claimed. */
    linkRefused: ({ event }) => {
      const error = failureOf(event);
      return error instanceof ApiError && error.status >= 400 && error.status < 500;
    },
  },
  actions: {
    assignInvitation: assign(({ event }) => ({ invitation: outputOf<JoinInvitation>(event) })),
    // The claimed page shows no failure: an earlier one needs no clearing.
    assignLogin: assign(({ event }) => ({ login: outputOf<JoinClaimed>(event) })),
    assignProblem: assign(({ event }) => ({ problem: failureMessage(event) })),
    assignNoToken: assign({ problem: NO_JOIN_TOKEN }),
    assignError: assign(({ event }) => ({ error: failureMessage(event) })),
    assignCopyField: assign({
      copyField: ({ event }) => {
        assertEvent(event, 'COPY_CLICKED');
        return event.field;
      },
    }),
    notifyCopied: emit(({ context }) => ({
      type: 'toast' as const,
      toast: TOASTS.copied(context.copyField === 'email' ? 'Email' : 'Password'),
    })),
    notifyCopyFailed: emit({ type: 'toast' as const, toast: TOASTS.copyFailed }),
    // Sent only from `claimed`, which always holds the login.
    requestRedirect: emit(({ context }) => ({ type: 'redirectRequested' as const, url: context.login!.agreementUrl })),
  },
}).createMachine({
  id: 'join',
  context: ({ input }) => ({
    token: tokenOf(input.search),
    invitation: input.answer && 'invitation' in input.answer ? input.answer.invitation : null,
    login: null,
    problem: input.answer && 'problem' in input.answer ? input.answer.problem : null,
    error: null,
    // Stryker disable next-line StringLiteral: every COPY_CLICKED assigns the field before the copy reads it
    copyField: 'email',
  }),
  initial: 'start',
  states: {
    start: {
      always: [
        { guard: 'invitationAnswered', target: 'invited' },
        { guard: 'problemAnswered', target: 'unusable' },
        { guard: 'hasToken', target: 'reading' },
        { target: 'unusable', actions: 'assignNoToken' },
      ],
    },
    reading: {
      tags: ['loading'],
      invoke: {
        src: 'readInvitation',
        input: ({ context }) => ({ token: context.token }),
        onDone: { target: 'invited', actions: 'assignInvitation' },
        onError: { target: 'unusable', actions: 'assignProblem' },
      },
    },
    invited: {
      on: { ACCEPT_CLICKED: 'accepting' },
    },
    accepting: {
      tags: ['busy'],
      invoke: {
        src: 'claimSeat',
        input: ({ context }) => ({ token: context.token }),
        onDone: { target: 'claimed', actions: 'assignLogin' },
        onError: [
          { guard: 'linkRefused', target: 'unusable', actions: 'assignProblem' },
          { target: 'invited', actions: 'assignError' },
        ],
      },
    },
    unusable: {},
    claimed: {
      initial: 'viewing',
      on: { SIGN_AGREEMENT_CLICKED: { target: 'redirected', actions: 'requestRedirect' } },
      states: {
        viewing: {
          on: { COPY_CLICKED: { target: 'copying', actions: 'assignCopyField' } },
        },
        copying: {
          invoke: {
            src: 'copyToClipboard',
            input: ({ context }) => ({ text: context.login![context.copyField] }),
            onDone: { target: 'viewing', actions: 'notifyCopied' },
            onError: { target: 'viewing', actions: 'notifyCopyFailed' },
          },
        },
      },
    },
    redirected: { type: 'final' },
  },
});
