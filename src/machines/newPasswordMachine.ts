/**
 * The "set a new password" page's statechart (/sign-in/new-password?token=…, docs/decisions/0039): the
 * link from a team member's "Forgot your password?" mail. It looks at the link (whose password it sets), takes the
 * new password, refuses one the rules refuse before asking the server (src/domain/newPassword.ts; the server checks
 * again), and sets it once. An unknown, expired or used link says so and offers to mail a new one. No DOM here: the
 * calls are invoked actors (src/api/signInApi.ts); the password is never kept in the context.
 */
import { assertEvent, assign, fromPromise, setup } from 'xstate';
import { failureOf, outputOf } from './actorError';
import { failureMessage } from './failureMessage';
import { ApiError } from '../api/client';
import { signInApi } from '../api/signInApi';
import type { NewPasswordLink, NewPasswordResponse, PasswordLinkResponse } from '../contract/signIn';
import { newPasswordProblem } from '../domain/newPassword';

interface NewPasswordInput {
  /** The page address's query string ('?token=…'). */
  search: string;
}

interface NewPasswordContext {
  token: string;
  /** Whose password the link sets (from the server), for the page and the password manager. */
  email: string;
  /** Why the password cannot be used, shown under its field. */
  fieldError: string | null;
  /** A failure to reach the server, shown above the button. */
  error: string | null;
  /** Why the link cannot be used (the server's words). */
  problem: string | null;
  /** What the server answered: the password is set, or a new link is on its way. */
  message: string | null;
}

type NewPasswordEvent = { type: 'PASSWORD_SUBMITTED'; password: string } | { type: 'LINK_REQUESTED'; email: string };

const NO_TOKEN = 'This page opens from the link in your “set a new password” mail. Please use that link, or ask for a new one.';

export const newPasswordMachine = setup({
  // Stryker disable next-line ObjectLiteral: TypeScript-only, XState ignores `types` at run time
  types: {
    context: {} as NewPasswordContext,
    input: {} as NewPasswordInput,
    events: {} as NewPasswordEvent,
  },
  actors: {
    checkLink: fromPromise<NewPasswordLink, { token: string }>(({ input }) => signInApi.checkNewPasswordLink(input.token)),
    setPassword: fromPromise<NewPasswordResponse, { token: string; password: string }>(({ input }) =>
      signInApi.setNewPassword(input.token, input.password),
    ),
    requestLink: fromPromise<PasswordLinkResponse, { email: string }>(({ input }) => signInApi.requestLink(input.email)),
  },
  guards: {
    hasToken: ({ context }) => context.token !== '',
    /** The password breaks a rule the page can check itself. */
    weak: ({ context, event }) => {
      assertEvent(event, 'PASSWORD_SUBMITTED');
      return newPasswordProblem(event.password, context.email) !== null;
    },
    /** The server refused the password (400): its rule, in words, goes under the field. */
    passwordRefused: ({ event }) => {
      const error = failureOf(event);
      return error instanceof ApiError && error.status === 400;
    },
    /** The server refused the link (any other 4xx): unknown, expired, used, or the seat taken back. */
    linkRefused: ({ event }) => {
      const error = failureOf(event);
      return error instanceof ApiError && error.status >= 400 && error.status < 500;
    },
  },
  actions: {
    assignEmail: assign(({ event }) => ({ email: outputOf<NewPasswordLink>(event).email })),
    assignWeak: assign({
      fieldError: ({ context, event }) => {
        assertEvent(event, 'PASSWORD_SUBMITTED');
        return newPasswordProblem(event.password, context.email);
      },
      error: null,
    }),
    clearErrors: assign({ fieldError: null, error: null }),
    assignFieldError: assign(({ event }) => ({ fieldError: failureMessage(event) })),
    assignError: assign(({ event }) => ({ error: failureMessage(event) })),
    assignProblem: assign(({ event }) => ({ problem: failureMessage(event), error: null })),
    assignNoToken: assign({ problem: NO_TOKEN }),
    /** The answer of setPassword or of requestLink: both say what happened in `message`. */
    assignMessage: assign(({ event }) => ({ message: outputOf<NewPasswordResponse | PasswordLinkResponse>(event).message, error: null })),
  },
}).createMachine({
  id: 'newPassword',
  context: ({ input }) => ({
    token: new URLSearchParams(input.search).get('token') ?? '',
    email: '',
    fieldError: null,
    error: null,
    problem: null,
    message: null,
  }),
  initial: 'start',
  states: {
    start: {
      always: [
        { guard: 'hasToken', target: 'checking' },
        { target: 'unusable', actions: 'assignNoToken' },
      ],
    },
    checking: {
      tags: ['loading'],
      invoke: {
        src: 'checkLink',
        input: ({ context }) => ({ token: context.token }),
        onDone: { target: 'choosing', actions: 'assignEmail' },
        onError: { target: 'unusable', actions: 'assignProblem' },
      },
    },
    /** The form: the new password, its rule under the field. */
    choosing: {
      on: {
        PASSWORD_SUBMITTED: [
          { guard: 'weak', actions: 'assignWeak' },
          { target: 'saving', actions: 'clearErrors' },
        ],
      },
    },
    saving: {
      tags: ['busy'],
      invoke: {
        src: 'setPassword',
        input: ({ context, event }) => {
          assertEvent(event, 'PASSWORD_SUBMITTED');
          return { token: context.token, password: event.password };
        },
        onDone: { target: 'passwordSet', actions: 'assignMessage' },
        onError: [
          { guard: 'passwordRefused', target: 'choosing', actions: 'assignFieldError' },
          { guard: 'linkRefused', target: 'unusable', actions: 'assignProblem' },
          { target: 'choosing', actions: 'assignError' },
        ],
      },
    },
    passwordSet: { type: 'final' },
    /** The link cannot be used: why, and a form to mail a new one. */
    unusable: {
      on: { LINK_REQUESTED: 'requestingLink' },
    },
    requestingLink: {
      tags: ['busy'],
      invoke: {
        src: 'requestLink',
        input: ({ event }) => {
          assertEvent(event, 'LINK_REQUESTED');
          // Stryker disable next-line MethodExpression: the page's field is type="email", whose value the browser already strips of surrounding spaces
          return { email: event.email.trim() };
        },
        onDone: { target: 'linkSent', actions: 'assignMessage' },
        onError: { target: 'unusable', actions: 'assignError' },
      },
    },
    linkSent: { type: 'final' },
  },
});
