/**
 * The console's refund statechart (src/machines/refundMachine.ts): request, confirm or abandon, the call's answer,
 * its refusal shown, a session that ended handed to the console.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, toPromise, waitFor } from 'xstate';
import { ApiError } from '../../src/api/client';
import type { OrderDetail } from '../../src/contract/admin';
import { refundMachine, type RefundEmitted } from '../../src/machines/refundMachine';

const DETAIL = { order: { transactionId: 'txn_1', status: 'cancelled', refundedCents: 50_000 }, events: [] } as unknown as OrderDetail;

/** The machine with its call answered by `answer`; records the calls and what it emitted. */
type Call = { transactionId: string; amountCents: number | null; requestKey: string };

function start(answer: (input: Call) => Promise<OrderDetail>) {
  const calls: Call[] = [];
  const emitted: RefundEmitted[] = [];
  const actor = createActor(
    refundMachine.provide({
      actors: {
        refundOrder: fromPromise(({ input }: { input: Call }) => {
          calls.push(input);
          return answer(input);
        }),
      },
    }),
    { input: { transactionId: 'txn_1' } },
  );
  actor.on('*', (event) => emitted.push(event));
  actor.start();
  return { actor, calls, emitted };
}

describe('the refund statechart', () => {
  it('asks before refunding, then refunds everything and hands the console the order as it now is', async () => {
    const { actor, calls, emitted } = start(async () => DETAIL);
    actor.send({ type: 'REFUND_REQUESTED', amountCents: null });
    expect(actor.getSnapshot().value).toBe('confirming');
    expect(calls).toEqual([]);
    actor.send({ type: 'REFUND_CONFIRMED' });
    await toPromise(actor);
    expect(calls).toEqual([{ transactionId: 'txn_1', amountCents: null, requestKey: expect.stringMatching(/^[A-Za-z0-9_-]{8,64}$/) }]);
    expect(emitted).toEqual([{ type: 'refunded', detail: DETAIL }]);
  });

  it('abandoned at the question: nothing is called, the form is back', () => {
    const { actor, calls } = start(async () => DETAIL);
    actor.send({ type: 'REFUND_REQUESTED', amountCents: 25_000 });
    actor.send({ type: 'REFUND_ABANDONED' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(calls).toEqual([]);
  });

  it('a refusal is shown, and cleared by the next request, which sends its amount in cents', async () => {
    let refuse = true;
    const { actor, calls } = start(async () => {
      if (refuse) throw new ApiError('That is more than was paid and not yet refunded.', 400);
      return DETAIL;
    });
    actor.send({ type: 'REFUND_REQUESTED', amountCents: 200_000 });
    actor.send({ type: 'REFUND_CONFIRMED' });
    await waitFor(actor, (snapshot) => snapshot.matches('idle'));
    expect(actor.getSnapshot().context.error).toBe('That is more than was paid and not yet refunded.');
    refuse = false;
    actor.send({ type: 'REFUND_REQUESTED', amountCents: 25_000 });
    expect(actor.getSnapshot().context.error).toBeNull();
    actor.send({ type: 'REFUND_CONFIRMED' });
    await toPromise(actor);
    expect(calls.map((call) => call.amountCents)).toEqual([200_000, 25_000]);
  });

  it('a retry of the same amount after a failure sends the same key (refunded once); another amount is a new refund', async () => {
    let fail = true;
    const { actor, calls } = start(async () => {
      if (fail) throw new ApiError('The payment provider could not be reached.', 502);
      return DETAIL;
    });
    actor.send({ type: 'REFUND_REQUESTED', amountCents: 30_000 });
    actor.send({ type: 'REFUND_CONFIRMED' });
    await waitFor(actor, (snapshot) => snapshot.matches('idle'));
    actor.send({ type: 'REFUND_REQUESTED', amountCents: 30_000 });
    actor.send({ type: 'REFUND_CONFIRMED' });
    await waitFor(actor, (snapshot) => snapshot.matches('idle'));
    actor.send({ type: 'REFUND_REQUESTED', amountCents: 20_000 });
    fail = false;
    actor.send({ type: 'REFUND_CONFIRMED' });
    await toPromise(actor);
    expect(calls[1]!.requestKey).toBe(calls[0]!.requestKey);
    expect(calls[2]!.requestKey).not.toBe(calls[0]!.requestKey);
  });

  it('a failure without words is shown in the console’s own', async () => {
    const { actor } = start(async () => {
      throw new Error('');
    });
    actor.send({ type: 'REFUND_REQUESTED', amountCents: null });
    actor.send({ type: 'REFUND_CONFIRMED' });
    await waitFor(actor, (snapshot) => snapshot.matches('idle'));
    expect(actor.getSnapshot().context.error).toBe('The refund could not be made. Please try again.');
  });

  it('a session that ended is handed to the console, not shown as a refusal', async () => {
    const { actor, emitted } = start(async () => {
      throw new ApiError('Please sign in to the console.', 401);
    });
    actor.send({ type: 'REFUND_REQUESTED', amountCents: null });
    actor.send({ type: 'REFUND_CONFIRMED' });
    await waitFor(actor, (snapshot) => snapshot.matches('idle'));
    expect(emitted).toEqual([{ type: 'unauthorised' }]);
    expect(actor.getSnapshot().context.error).toBeNull();
  });
});
