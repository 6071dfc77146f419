/**
 * The console's refund statechart: the owner asks for a refund of one order, everything
 * (only within the 30-day guarantee) or an amount in cents, confirms it, and the server refunds and ends the
 * subscription (POST /api/admin/orders/:transactionId/refund, server/checkout/refundOrder.ts). The view renders a
 * snapshot and sends events; the call is an invoked actor. Money in integer cents.
 */
import { assertEvent, assign, emit, fromPromise, setup } from 'xstate';
import { sessionEndedActions, sessionEndedGuards, sessionEndedTo, type SessionEndedEmitted } from './consoleSessionEnded';
import { failureOf, outputOf } from './actorError';
import { adminApi } from '../api/adminApi';
import type { OrderDetail } from '../contract/admin';

interface RefundInput {
  transactionId: string;
}

interface RefundContext {
  transactionId: string;
  /** The amount asked for, in cents; null for everything left (the guarantee's full refund). */
  amountCents: number | null;
  /** The server's refusal or the network's failure, shown under the form. */
  error: string | null;
  /**
   * This refund's key: made when the owner first asks for an amount, kept while they retry it after a failure
   * (the server then refunds nothing twice), new when they ask for another amount.
   */
  requestKey: string | null;
}

type RefundEvent =
  /** The owner asked for a refund: `amountCents` null for everything left. */
  { type: 'REFUND_REQUESTED'; amountCents: number | null } | { type: 'REFUND_CONFIRMED' } | { type: 'REFUND_ABANDONED' };

export type RefundEmitted =
  /** The order as the server now reports it (cancelled, with its refunded amount). */
  | { type: 'refunded'; detail: OrderDetail }
  /** The console session ended: the console shows its sign-in form. */
  | SessionEndedEmitted;

export const refundMachine = setup({
  // Stryker disable next-line ObjectLiteral: TypeScript only, XState ignores `types` at run time
  types: {
    context: {} as RefundContext,
    input: {} as RefundInput,
    events: {} as RefundEvent,
    emitted: {} as RefundEmitted,
  },
  actors: {
    refundOrder: fromPromise<OrderDetail, { transactionId: string; amountCents: number | null; requestKey: string }>(({ input }) =>
      adminApi.refund(
        input.transactionId,
        input.amountCents === null ? { requestKey: input.requestKey } : { amountCents: input.amountCents, requestKey: input.requestKey },
      ),
    ),
  },
  guards: sessionEndedGuards,
  actions: {
    ...sessionEndedActions<RefundContext, RefundEvent>(),
    assignRequest: assign(({ context, event }) => {
      assertEvent(event, 'REFUND_REQUESTED');
      const retry = context.requestKey !== null && context.amountCents === event.amountCents;
      return { amountCents: event.amountCents, error: null, requestKey: retry ? context.requestKey : crypto.randomUUID() };
    }),
    assignError: assign(({ event }) => {
      const error = failureOf(event);
      return { error: error instanceof Error && error.message ? error.message : 'The refund could not be made. Please try again.' };
    }),
    emitRefunded: emit(({ event }) => ({ type: 'refunded' as const, detail: outputOf<OrderDetail>(event) })),
  },
}).createMachine({
  id: 'refund',
  context: ({ input }) => ({ transactionId: input.transactionId, amountCents: null, error: null, requestKey: null }),
  initial: 'idle',
  states: {
    idle: {
      on: { REFUND_REQUESTED: { target: 'confirming', actions: 'assignRequest' } },
    },
    confirming: {
      on: {
        REFUND_CONFIRMED: 'refunding',
        REFUND_ABANDONED: 'idle',
      },
    },
    refunding: {
      invoke: {
        src: 'refundOrder',
        input: ({ context }) => ({
          transactionId: context.transactionId,
          amountCents: context.amountCents,
          requestKey: context.requestKey!,
        }),
        onDone: { target: 'refunded', actions: 'emitRefunded' },
        onError: [sessionEndedTo('idle'), { target: 'idle', actions: 'assignError' }],
      },
    },
    refunded: { type: 'final' },
  },
});
