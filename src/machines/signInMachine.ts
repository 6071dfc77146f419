/**
 * The sign-in page's statechart (/sign-in): the training platform sent the person here through our
 * OpenID Provider. They enter the email and password the success page gave them; a right one sends the browser on
 * (the provider then returns them to the platform), a refusal is shown under the form. "Forgot your password?"
 * asks for a link (POST /sign-in/forgot): a team member gets one to set a new password (/sign-in/new-password), the
 * buyer one to the manage page (/account), where new credentials are issued; the answer is the same for any email. The view renders a snapshot and sends events; the calls are invoked actors (src/api/signInApi.ts).
 * As it loads, the page checks that a sign-in waits for it: opened directly (no `?interaction=`), or with one this
 * browser no longer holds, it says so at once and offers the way in, the training platform, instead of a form whose
 * right password would only be told "This sign-in has expired"; a 410 on submitting says the same.
 */
import { assertEvent, assign, emit, fromPromise, setup } from 'xstate';
import { failureOf, outputOf } from './actorError';
import { ApiError } from '../api/client';
import { failureMessage } from './failureMessage';
import { signInApi } from '../api/signInApi';
import type { PasswordSignInResponse, SignInInteractionResponse } from '../contract/signIn';

interface SignInInput {
  /** The sign-in the page's address names (`?interaction=`, the OpenID Provider's uid); null when it names none. */
  interaction?: string | null;
}

interface SignInContext {
  interaction: string | null;
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
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- XState takes the input's type from this assertion
    input: {} as SignInInput,
    events: {} as SignInEvent,
    emitted: {} as SignInEmitted,
  },
  actors: {
    /** Whether the address's sign-in is live in this browser; none named is answered at once, without a call. */
    checkInteraction: fromPromise<SignInInteractionResponse, { interaction: string | null }>(({ input }) =>
      input.interaction ? signInApi.checkInteraction(input.interaction) : Promise.resolve({ live: false }),
    ),
    signIn: fromPromise<PasswordSignInResponse, { email: string; password: string }>(({ input }) =>
      signInApi.signIn(input.email, input.password),
    ),
    requestLink: fromPromise<{ message: string }, { email: string }>(({ input }) => signInApi.requestLink(input.email)),
  },
  guards: {
    signInLive: ({ event }) => outputOf<SignInInteractionResponse>(event).live,
    /** The server answered 410: no sign-in waits for this browser (expired, or not started here). */
    signInGone: ({ event }) => {
      const error = failureOf(event);
      return error instanceof ApiError && error.status === 410;
    },
    /** A sign-in waits for the form (the page started with a live one): "Back" returns to it. */
    formWanted: ({ context }) => context.interaction !== null,
  },
  actions: {
    forgetInteraction: assign({ interaction: null }),
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
  context: ({ input }) => ({ interaction: input.interaction ?? null, email: '', error: null, linkMessage: null }),
  initial: 'checking',
  states: {
    /** The form shows (as prerendered) but cannot be sent until the answer. A failed check leaves the form to the server. */
    checking: {
      invoke: {
        src: 'checkInteraction',
        input: ({ context }) => ({ interaction: context.interaction }),
        onDone: [
          { guard: 'signInLive', target: 'editing' },
          { target: 'nothingToFinish', actions: 'forgetInteraction' },
        ],
        onError: 'editing',
      },
    },
    /** No sign-in waits here: the way in is the training platform's own sign-in. */
    nothingToFinish: {
      on: { FORGOT_PASSWORD: { target: 'forgotPassword', actions: 'clearError' } },
    },
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
          // Stryker disable next-line MethodExpression: the page's field is type="email", whose value the browser already strips of surrounding spaces
          return { email: event.email.trim(), password: event.password };
        },
        onDone: { target: 'signedIn', actions: 'emitRedirect' },
        onError: [
          { guard: 'signInGone', target: 'nothingToFinish', actions: ['forgetInteraction', 'clearError'] },
          { target: 'editing', actions: 'assignError' },
        ],
      },
    },
    /** The browser is on its way back to the platform. */
    signedIn: { type: 'final' },
    forgotPassword: {
      on: {
        LINK_REQUESTED: { target: 'requestingLink', actions: 'assignEmail' },
        BACK_TO_SIGN_IN: [
          { guard: 'formWanted', target: 'editing', actions: 'clearError' },
          { target: 'nothingToFinish', actions: 'clearError' },
        ],
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
      on: {
        BACK_TO_SIGN_IN: [
          { guard: 'formWanted', target: 'editing', actions: 'clearError' },
          { target: 'nothingToFinish', actions: 'clearError' },
        ],
      },
    },
  },
});
