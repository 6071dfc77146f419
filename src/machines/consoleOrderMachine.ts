/**
 * One order in the console (/admin/orders/{transactionId}): load it with its events and invoices, then
 * run what the owner asks, one action at a time, each confirmed in words: re-send the confirmation mail, mail a
 * sign-in link to /account, cancel at the end of the period or now (both asked once more first). The refund is
 * its own statechart (./refundMachine.ts), invoked here while the order is shown; when it is done the order is
 * loaded again. The view renders a snapshot and sends events; calls are invoked actors (src/api/adminApi.ts). A 401
 * is emitted as `unauthorised`.
 */
import { assertEvent, assign, fromPromise, setup } from 'xstate';
import { sessionEndedActions, sessionEndedGuards, sessionEndedTo, type SessionEndedEmitted } from './consoleSessionEnded';
import { outputOf } from './actorError';
import { failureMessage } from './failureMessage';
import { refundMachine } from './refundMachine';
import { adminApi } from '../api/adminApi';
import type { OrderAction, OrderDetail } from '../contract/admin';

interface OrderInput {
  transactionId: string;
}

interface OrderContext {
  transactionId: string;
  detail: OrderDetail | null;
  /** The action asked for (waiting for its confirmation, or running). */
  action: OrderAction | null;
  /** What the last action did, in words (role=status). */
  notice: string | null;
  /** The last refusal or failure (role=alert). */
  error: string | null;
}

type OrderEvent =
  { type: 'ACTION_CLICKED'; action: OrderAction } | { type: 'ACTION_CONFIRMED' } | { type: 'ACTION_ABANDONED' } | { type: 'RETRY_CLICKED' };

/** Actions that change the subscription: asked once more before they run. */
const CONFIRMED_ACTIONS: readonly OrderAction[] = ['cancel_at_period_end', 'cancel_now'];

/** The words confirming `action` once the server has done it. */
function actionNotice(action: OrderAction, detail: OrderDetail): string {
  const to = detail.order.email ?? 'the buyer';
  switch (action) {
    case 'resend_confirmation':
      return `The confirmation mail is on its way to ${to} again.`;
    case 'send_sign_in_link':
      return `A sign-in link to the manage page is on its way to ${to}.`;
    case 'cancel_at_period_end':
      return 'The subscription will end at the end of the paid period; the buyer is mailed.';
    case 'cancel_now':
      return 'The subscription has ended now.';
  }
}

export const consoleOrderMachine = setup({
  // Stryker disable next-line ObjectLiteral: TypeScript-only, XState ignores `types` at run time
  types: {
    context: {} as OrderContext,
    input: {} as OrderInput,
    events: {} as OrderEvent,
    emitted: {} as SessionEndedEmitted,
    children: {} as { refund: 'refund' },
  },
  actors: {
    loadOrder: fromPromise<OrderDetail, { transactionId: string }>(({ input }) => adminApi.order(input.transactionId)),
    runAction: fromPromise<OrderDetail, { transactionId: string; action: OrderAction }>(({ input }) =>
      adminApi.orderAction(input.transactionId, input.action),
    ),
    refund: refundMachine,
  },
  guards: {
    ...sessionEndedGuards,
    needsConfirmation: ({ event }) => {
      assertEvent(event, 'ACTION_CLICKED');
      return CONFIRMED_ACTIONS.includes(event.action);
    },
  },
  actions: {
    ...sessionEndedActions<OrderContext, OrderEvent>(),
    assignAction: assign({
      action: ({ event }) => {
        assertEvent(event, 'ACTION_CLICKED');
        return event.action;
      },
      notice: null,
      error: null,
    }),
    assignDetail: assign(({ event }) => ({ detail: outputOf<OrderDetail>(event), error: null })),
    // Runs only as `acting` ends, which every path enters with the action assigned.
    assignActionDone: assign(({ context, event }) => {
      const detail = outputOf<OrderDetail>(event);
      return { detail, notice: actionNotice(context.action!, detail), action: null };
    }),
    assignRefunded: assign({ notice: 'The refund is made and the subscription has ended; the buyer is mailed.' }),
    // The action is read only while it is being confirmed, and each click assigns it anew: a failure leaves it.
    assignError: assign(({ event }) => ({ error: failureMessage(event) })),
  },
}).createMachine({
  id: 'consoleOrder',
  context: ({ input }) => ({ transactionId: input.transactionId, detail: null, action: null, notice: null, error: null }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'loadOrder',
        input: ({ context }) => ({ transactionId: context.transactionId }),
        onDone: { target: 'ready', actions: 'assignDetail' },
        onError: [sessionEndedTo('failed'), { target: 'failed', actions: 'assignError' }],
      },
    },
    failed: {
      on: { RETRY_CLICKED: 'loading' },
    },
    ready: {
      invoke: {
        id: 'refund',
        src: 'refund',
        input: ({ context }) => ({ transactionId: context.transactionId }),
        onDone: { target: 'loading', actions: 'assignRefunded' },
      },
      initial: 'viewing',
      states: {
        viewing: {
          on: {
            ACTION_CLICKED: [
              { guard: 'needsConfirmation', target: 'confirming', actions: 'assignAction' },
              { target: 'acting', actions: 'assignAction' },
            ],
          },
        },
        confirming: {
          on: {
            ACTION_CONFIRMED: 'acting',
            ACTION_ABANDONED: 'viewing',
          },
        },
        acting: {
          invoke: {
            src: 'runAction',
            input: ({ context }) => ({ transactionId: context.transactionId, action: context.action! }),
            onDone: { target: 'viewing', actions: 'assignActionDone' },
            onError: [sessionEndedTo('viewing'), { target: 'viewing', actions: 'assignError' }],
          },
        },
      },
    },
  },
});
