/**
 * The console's orders list (/admin/orders) and its Cancellations view (/admin/cancellations): load the
 * orders matching the filter (and the referrers the filter offers), filter again, try again after a failure. The
 * view renders a snapshot and sends events; the call is an invoked actor (src/api/adminApi.ts). A 401 (the
 * console session ended) is emitted as `unauthorised`, so the console shows its sign-in form.
 */
import { assertEvent, assign, fromPromise, setup } from 'xstate';
import { sessionEndedActions, sessionEndedGuards, sessionEndedTo, type SessionEndedEmitted } from './consoleSessionEnded';
import { outputOf } from './actorError';
import { failureMessage } from './failureMessage';
import { adminApi } from '../api/adminApi';
import type { OrderRow, OrdersQuery, Referrer } from '../contract/admin';

interface OrdersInput {
  /** The filter the list opens with (the Cancellations view: `{ status: 'cancellations' }`, and a dashboard's link). */
  query: OrdersQuery;
}

interface OrdersContext {
  query: OrdersQuery;
  orders: OrderRow[];
  referrers: Referrer[];
  /** The last failure, shown with 'Try again' (role=alert). */
  error: string | null;
}

type OrdersEvent = { type: 'FILTER_SUBMITTED'; query: OrdersQuery } | { type: 'RETRY_CLICKED' };

interface OrdersLoaded {
  orders: OrderRow[];
  referrers: Referrer[];
}

export const consoleOrdersMachine = setup({
  // Stryker disable next-line ObjectLiteral: TypeScript-only, XState ignores `types` at run time
  types: {
    context: {} as OrdersContext,
    input: {} as OrdersInput,
    events: {} as OrdersEvent,
    emitted: {} as SessionEndedEmitted,
  },
  actors: {
    loadOrders: fromPromise<OrdersLoaded, OrdersQuery>(async ({ input }) => {
      const [list, referrers] = await Promise.all([adminApi.orders(input), adminApi.referrers()]);
      return { orders: list.orders, referrers: referrers.referrers };
    }),
  },
  guards: sessionEndedGuards,
  actions: {
    ...sessionEndedActions<OrdersContext, OrdersEvent>(),
    assignQuery: assign({
      query: ({ event }) => {
        assertEvent(event, 'FILTER_SUBMITTED');
        return event.query;
      },
    }),
    assignOrders: assign(({ event }) => {
      const loaded = outputOf<OrdersLoaded>(event);
      return { orders: loaded.orders, referrers: loaded.referrers, error: null };
    }),
    assignError: assign(({ event }) => ({ error: failureMessage(event) })),
  },
}).createMachine({
  id: 'consoleOrders',
  context: ({ input }) => ({ query: input.query, orders: [], referrers: [], error: null }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        src: 'loadOrders',
        input: ({ context }) => context.query,
        onDone: { target: 'ready', actions: 'assignOrders' },
        onError: [sessionEndedTo('failed'), { target: 'failed', actions: 'assignError' }],
      },
    },
    ready: {
      on: { FILTER_SUBMITTED: { target: 'loading', actions: 'assignQuery' } },
    },
    failed: {
      on: {
        RETRY_CLICKED: 'loading',
        FILTER_SUBMITTED: { target: 'loading', actions: 'assignQuery' },
      },
    },
  },
});
