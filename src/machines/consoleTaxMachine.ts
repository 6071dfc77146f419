/**
 * The console's tax report (/admin/tax, docs/decisions/0074): load the tax collected and refunded per registered
 * state and month over the chosen months (From/To, YYYY-MM; default the twelve to this one); choosing other months
 * loads again, keeping the report shown until the new one comes. A failure (a refusal such as To before From, or
 * the server out of reach) is shown in its words, with 'Try again'; other months can be chosen from there too. The call is an invoked actor (src/api/adminApi.ts); a 401 emits `unauthorised`. Money in cents.
 */
import { assertEvent, assign, fromPromise, setup } from 'xstate';
import { sessionEndedActions, sessionEndedGuards, sessionEndedTo, type SessionEndedEmitted } from './consoleSessionEnded';
import { outputOf } from './actorError';
import { failureMessage } from './failureMessage';
import { adminApi } from '../api/adminApi';
import type { TaxQuery, TaxReport } from '../contract/admin';

interface TaxContext {
  /** The months asked for; empty: the server's default. */
  query: TaxQuery;
  report: TaxReport | null;
  /** The last failure (role=alert). */
  error: string | null;
}

type TaxEvent = { type: 'MONTHS_CHOSEN'; from?: string; to?: string } | { type: 'RETRY_CLICKED' };

export const consoleTaxMachine = setup({
  // Stryker disable next-line ObjectLiteral: TypeScript-only, XState ignores `types` at run time
  types: {
    context: {} as TaxContext,
    events: {} as TaxEvent,
    emitted: {} as SessionEndedEmitted,
  },
  actors: {
    loadTaxReport: fromPromise<TaxReport, TaxQuery>(({ input }) => adminApi.tax(input)),
  },
  guards: sessionEndedGuards,
  actions: {
    assignMonths: assign({
      query: ({ event }) => {
        assertEvent(event, 'MONTHS_CHOSEN');
        return { from: event.from || undefined, to: event.to || undefined };
      },
    }),
    ...sessionEndedActions<TaxContext, TaxEvent>(),
    assignReport: assign(({ event }) => ({ report: outputOf<TaxReport>(event), error: null })),
    assignError: assign(({ event }) => ({ error: failureMessage(event) })),
  },
}).createMachine({
  id: 'consoleTax',
  context: { query: {}, report: null, error: null },
  initial: 'loading',
  on: {
    MONTHS_CHOSEN: { target: '.loading', actions: 'assignMonths' },
  },
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        src: 'loadTaxReport',
        input: ({ context }) => context.query,
        onDone: { target: 'ready', actions: 'assignReport' },
        onError: [sessionEndedTo('failed'), { target: 'failed', actions: 'assignError' }],
      },
    },
    ready: {},
    failed: {
      on: { RETRY_CLICKED: 'loading' },
    },
  },
});
