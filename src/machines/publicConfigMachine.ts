/**
 * The server's public configuration (GET /api/config): the payment form's (which payment provider, Stripe's
 * publishable key), and where people sign in (the training platform's address, src/views/shared/WhereToSignIn.tsx).
 * Read when the form or the sign-in line is shown, from the one request the checkout statechart started
 * (src/api/publicConfig.ts keeps it 5 minutes, spec §9; a failed read is forgotten, so a form shown again asks again). The view renders the snapshot:
 * the loading line, the provider's form, or why it failed.
 */
import { assign, fromPromise, setup } from 'xstate';
import { failureOf, outputOf } from './actorError';
import type { ApiError } from '../api/client';
import { loadPublicConfig } from '../api/publicConfig';
import type { PublicConfig } from '../contract/checkout';

interface PublicConfigContext {
  /** The configuration, once read. */
  config: PublicConfig | null;
  /** Why the configuration could not be read (the client's words), shown instead of the form; set only in `failed`. */
  error: string | null;
}

export const publicConfigMachine = setup({
  // Stryker disable next-line ObjectLiteral: TypeScript only, XState ignores `types` at run time
  types: {
    context: {} as PublicConfigContext,
  },
  actors: {
    loadPublicConfig: fromPromise<PublicConfig>(() => loadPublicConfig()),
  },
  actions: {
    assignConfig: assign(({ event }) => ({ config: outputOf<PublicConfig>(event) })),
    // loadPublicConfig rejects only with the client's ApiError: the server's words, or 'Failed to load checkout
    // configuration' when it was not reached (src/api/checkoutApi.ts).
    assignError: assign(({ event }) => ({ error: (failureOf(event) as ApiError).message })),
  },
}).createMachine({
  id: 'publicConfig',
  context: { config: null, error: null },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'loadPublicConfig',
        onDone: { target: 'ready', actions: 'assignConfig' },
        onError: { target: 'failed', actions: 'assignError' },
      },
    },
    ready: { type: 'final' },
    failed: { type: 'final' },
  },
});
