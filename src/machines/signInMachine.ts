/**
 * The sign-in page's statechart (/sign-in): the training platform sent the person here through our
 * OpenID Provider. They enter the email and password the success page gave them; a right one sends the browser on
 * (the provider then returns them to the platform), a refusal is shown under the form. "Forgot your password?"
 * asks for a link (POST /sign-in/forgot): a team member gets one to set a new password (/sign-in/new-password), the
 * buyer one to the manage page (/account), where new credentials are issued; the answer is the same for any email. The view renders a snapshot and sends events; the calls are invoked actors (src/api/signInApi.ts).
 */
import { assertEvent, assign, emit, fromPromise, setup } from 'xstate';
import { outputOf } from './actorError';
import { failureMessage } from './failureMessage';
import { signInApi } from '../api/signInApi';
import type { PasswordSignInResponse } from '../contract/signIn';

interface SignInContext {
  /** The email as last entered, kept when moving between the sign-in and the link forms. */
  email: string;
  /** The server's refusal or the network's failure, shown under the form. */
  error: string | null;
  /** The answer to a link request (the same for any email). */
  linkMessage: string | null;
}

type SignInEvent =
  | { type: 'SIGN_IN_SUBMITTED'; email: string; password: string }
  | { type: 'FORGOT_PASSWORD' }
  | { type: 'LINK_REQUESTED'; email: string }
  | { type: 'BACK_TO_SIGN_IN' };

/** The browser goes to `url` (the view does it: the machine does not touch the window). */
export type SignInEmitted = { type: 'redirectRequested'; url: string };

export const signInMachine = setup({
  // Stryker disable next-line ObjectLiteral: TypeScript-only, XState ignores `types` at run time
  types: {
    context: {} as SignInContext,
    events: {} as SignInEvent,
    emitted: {} as SignInEmitted,
  },
  actors: {
    signIn: fromPromise<PasswordSignInResponse, { email: string; password: string }>(({ input }) =>
      signInApi.signIn(input.email, input.password),
    ),
    requestLink: fromPromise<{ message: string }, { email: string }>(({ input }) => signInApi.requestLink(input.email)),
  },
  actions: {
    assignEmail: assign({
      email: ({ event }) => {
        assertEvent(event, ['SIGN_IN_SUBMITTED', 'LINK_REQUESTED']);
        return event.email.trim();
      },
      error: null,
    }),
    clearError: assign({ error: null, linkMessage: null }),
    assignError: assign(({ event }) => ({ error: failureMessage(event) })),
    assignLinkMessage: assign(({ event }) => ({ linkMessage: outputOf<{ message: string }>(event).message })),
    emitRedirect: emit(({ event }) => ({
      type: 'redirectRequested' as const,
      url: outputOf<PasswordSignInResponse>(event).redirectTo,
    })),
  },
}).createMachine({
  id: 'signIn',
  context: { email: '', error: null, linkMessage: null },
  initial: 'editing',
  states: {
    editing: {
      on: {
        SIGN_IN_SUBMITTED: { target: 'signingIn', actions: 'assignEmail' },
        FORGOT_PASSWORD: { target: 'forgotPassword', actions: 'clearError' },
      },
    },
    signingIn: {
      invoke: {
        src: 'signIn',
        input: ({ event }) => {
          assertEvent(event, 'SIGN_IN_SUBMITTED');
          return { email: event.email.trim(), password: event.password };
        },
        onDone: { target: 'signedIn', actions: 'emitRedirect' },
        onError: { target: 'editing', actions: 'assignError' },
      },
    },
    /** The browser is on its way back to the platform. */
    signedIn: { type: 'final' },
    forgotPassword: {
      on: {
        LINK_REQUESTED: { target: 'requestingLink', actions: 'assignEmail' },
        BACK_TO_SIGN_IN: { target: 'editing', actions: 'clearError' },
      },
    },
    requestingLink: {
      invoke: {
        src: 'requestLink',
        input: ({ context }) => ({ email: context.email }),
        onDone: { target: 'linkSent', actions: 'assignLinkMessage' },
        onError: { target: 'forgotPassword', actions: 'assignError' },
      },
    },
    linkSent: {
      on: { BACK_TO_SIGN_IN: { target: 'editing', actions: 'clearError' } },
    },
  },
});
