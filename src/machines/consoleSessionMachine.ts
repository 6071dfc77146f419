/**
 * The console's session (/admin): find whether this browser is signed in, sign in with email and
 * password, sign out; a page's 401 (the session ended elsewhere) sends it back to the sign-in form. The view
 * renders a snapshot and sends events; the calls are invoked actors (src/api/adminApi.ts).
 */
import { assertEvent, assign, fromPromise, setup } from 'xstate';
import { outputOf } from './actorError';
import { failureMessage } from './failureMessage';
import { adminApi } from '../api/adminApi';
import type { OwnerSession, SignInRequest } from '../contract/admin';

interface SessionContext {
  owner: OwnerSession | null;
  /** The refusal of the last sign-in (role=alert). */
  error: string | null;
  /** The sign-in in flight. */
  credentials: SignInRequest | null;
}

type SessionEvent =
  | { type: 'SIGN_IN_SUBMITTED'; email: string; password: string }
  | { type: 'SIGN_OUT_CLICKED' }
  /** A page's call answered 401: the session ended. */
  | { type: 'SESSION_ENDED' };

export const consoleSessionMachine = setup({
  // Stryker disable next-line ObjectLiteral: TypeScript-only, XState ignores `types` at run time
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
  },
  actors: {
    loadSession: fromPromise<OwnerSession>(() => adminApi.session()),
    signIn: fromPromise<OwnerSession, SignInRequest>(({ input }) => adminApi.signIn(input)),
    signOut: fromPromise<void>(() => adminApi.signOut()),
  },
  actions: {
    assignCredentials: assign({
      credentials: ({ event }) => {
        assertEvent(event, 'SIGN_IN_SUBMITTED');
        return { email: event.email, password: event.password };
      },
      error: null,
    }),
    assignOwner: assign(({ event }) => ({ owner: outputOf<OwnerSession>(event), credentials: null, error: null })),
    assignSignInError: assign(({ event }) => ({ error: failureMessage(event), credentials: null })),
    clearOwner: assign({ owner: null }),
  },
}).createMachine({
  id: 'consoleSession',
  // Stryker disable next-line ObjectLiteral: an empty start reads the same: the page tests `owner` and `error` for truthiness (src/views/admin/AdminPage.tsx, AdminSignIn.tsx), and `credentials` is assigned before the sign-in reads it
  context: { owner: null, error: null, credentials: null },
  initial: 'checking',
  states: {
    checking: {
      invoke: {
        src: 'loadSession',
        onDone: { target: 'signedIn', actions: 'assignOwner' },
        onError: 'signedOut',
      },
    },
    signedOut: {
      on: { SIGN_IN_SUBMITTED: { target: 'signingIn', actions: 'assignCredentials' } },
    },
    signingIn: {
      tags: ['busy'],
      invoke: {
        src: 'signIn',
        input: ({ context }) => context.credentials!,
        onDone: { target: 'signedIn', actions: 'assignOwner' },
        onError: { target: 'signedOut', actions: 'assignSignInError' },
      },
    },
    signedIn: {
      on: {
        SIGN_OUT_CLICKED: 'signingOut',
        SESSION_ENDED: { target: 'signedOut', actions: 'clearOwner' },
      },
    },
    signingOut: {
      tags: ['busy'],
      invoke: {
        src: 'signOut',
        onDone: { target: 'signedOut', actions: 'clearOwner' },
        onError: { target: 'signedOut', actions: 'clearOwner' },
      },
    },
  },
});
