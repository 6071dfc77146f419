/**
 * The console's dashboard (/admin): load the figures of the chosen period (From/To, default the last
 * 30 days) and the MRR chart's grouping (day, week or month); choosing another period or grouping loads again.
 * The view renders a snapshot and sends events; the call is an invoked actor (src/api/adminApi.ts). A 401 is
 * emitted as `unauthorised`.
 */
import { assertEvent, assign, fromPromise, setup } from 'xstate';
import { sessionEndedActions, sessionEndedGuards, sessionEndedTo, type SessionEndedEmitted } from './consoleSessionEnded';
import { outputOf } from './actorError';
import { failureMessage } from './failureMessage';
import { adminApi } from '../api/adminApi';
import type { Dashboard, DashboardQuery, MrrInterval } from '../contract/admin';

interface DashboardContext {
  query: DashboardQuery;
  dashboard: Dashboard | null;
  /** The last failure (role=alert). */
  error: string | null;
}

type DashboardEvent =
  { type: 'PERIOD_CHOSEN'; from?: string; to?: string } | { type: 'INTERVAL_CHOSEN'; interval: MrrInterval } | { type: 'RETRY_CLICKED' };

export const consoleDashboardMachine = setup({
  // Stryker disable next-line ObjectLiteral: TypeScript-only, XState ignores `types` at run time
  types: {
    context: {} as DashboardContext,
    events: {} as DashboardEvent,
    emitted: {} as SessionEndedEmitted,
  },
  actors: {
    loadDashboard: fromPromise<Dashboard, DashboardQuery>(({ input }) => adminApi.dashboard(input)),
  },
  guards: sessionEndedGuards,
  actions: {
    assignPeriod: assign({
      query: ({ context, event }) => {
        assertEvent(event, 'PERIOD_CHOSEN');
        return { ...context.query, from: event.from || undefined, to: event.to || undefined };
      },
    }),
    assignInterval: assign({
      query: ({ context, event }) => {
        assertEvent(event, 'INTERVAL_CHOSEN');
        return { ...context.query, interval: event.interval };
      },
    }),
    ...sessionEndedActions<DashboardContext, DashboardEvent>(),
    assignDashboard: assign(({ event }) => ({ dashboard: outputOf<Dashboard>(event), error: null })),
    assignError: assign(({ event }) => ({ error: failureMessage(event) })),
  },
}).createMachine({
  id: 'consoleDashboard',
  context: { query: {}, dashboard: null, error: null },
  initial: 'loading',
  on: {
    PERIOD_CHOSEN: { target: '.loading', actions: 'assignPeriod' },
    INTERVAL_CHOSEN: { target: '.loading', actions: 'assignInterval' },
  },
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        src: 'loadDashboard',
        input: ({ context }) => context.query,
        onDone: { target: 'ready', actions: 'assignDashboard' },
        onError: [sessionEndedTo('failed'), { target: 'failed', actions: 'assignError' }],
      },
    },
    ready: {},
    failed: {
      on: { RETRY_CLICKED: 'loading' },
    },
  },
});
