/**
 * Model-based test of the console's refund (src/machines/refundMachine.ts, its view src/views/admin/RefundPanel.tsx):
 * generated paths of the owner asking for everything or for an amount, confirming or keeping the subscription, and
 * the server refunding, refusing, failing or ending the session. Held to decisions 0024 and 0042 (pageRules.ts):
 * nothing is sent before the owner confirms; each request names the amount asked for (none for everything); a retry
 * of the same amount sends the key of the first attempt, another amount a new key; a refusal or failure is shown in
 * the server's or the console's words until the next request; a session that ended is handed to the console once;
 * a refund made closes the panel and hands the order as it now is to the order's screen.
 */
import { useActorRef } from '@xstate/react';
import { fireEvent, render, screen } from '@testing-library/react';
import { useEffect } from 'react';
import { expect, vi } from 'vitest';
import type { AnyEventObject, AnyMachineSnapshot } from 'xstate';
import { ApiError } from '../../src/api/client';
import type { OrderDetail } from '../../src/contract/admin';
import { refundMachine } from '../../src/machines/refundMachine';
import { RefundPanel } from '../../src/views/admin/RefundPanel';
import { answeredWith, answersOf, describePageModel, type SentRequest, type Step } from './pageModel';
import { REFUND, UNREACHABLE } from './pageRules';

const TRANSACTION = 'txn_model';
const DETAIL = { order: { transactionId: TRANSACTION, status: 'cancelled', refundedCents: 50_000 }, events: [] } as unknown as OrderDetail;
const REFUSED = new ApiError('That is more than was paid and not yet refunded.', 400);
const PROVIDER_DOWN = new ApiError('The payment provider could not be reached.', 502);
const NETWORK = new ApiError(UNREACHABLE.console, 0);
const SIGNED_OUT = new ApiError('Please sign in to the console.', 401);

/** What the owner may ask for: everything (the field left empty, within the guarantee) or $250, typed in dollars. */
const AMOUNTS = [
  { cents: null, typed: '', named: REFUND.everything },
  { cents: 25_000, typed: '250.00', named: '$250' },
] as const;
const amountOf = (cents: number | null) => AMOUNTS.find((each) => each.cents === cents)!;

const requested = (amountCents: number | null) => ({ type: 'REFUND_REQUESTED', amountCents });
const confirmed = { type: 'REFUND_CONFIRMED' };
const abandoned = { type: 'REFUND_ABANDONED' };
/** The server's answer to the refund call in flight (the statechart's only invoke). */
const answered = (answer: unknown): AnyEventObject =>
  answer instanceof Error
    ? { type: 'xstate.error.actor.0.refund.refunding', error: answer, actorId: '0.refund.refunding' }
    : { type: 'xstate.done.actor.0.refund.refunding', output: answer, actorId: '0.refund.refunding' };

let onUnauthorised = vi.fn();
let onRefunded = vi.fn();

/** The order's screen as far as the refund goes: it invokes the refund statechart and hears what it emits. */
function RefundOfOneOrder({ paidAt }: { paidAt: string }) {
  const actorRef = useActorRef(refundMachine, { input: { transactionId: TRANSACTION } });
  useEffect(() => {
    const refunded = actorRef.on('refunded', (event) => onRefunded(event.detail));
    return () => refunded.unsubscribe();
  }, [actorRef]);
  // The limit is left to the server here (refundableCents null, as when the provider could not be asked):
  // test/views/refundPanel.test.tsx checks the form's own.
  return <RefundPanel actorRef={actorRef} paidAt={paidAt} refundableCents={null} onUnauthorised={onUnauthorised} />;
}

/**
 * What each sent request must carry, one per confirmation: the amount asked for last, and which refund it is by
 * decision 0042 (a request for the same amount as the one asked before it is the same refund, a retry; another
 * amount starts a new one).
 */
function confirmedRefunds(history: Step[]): Array<{ cents: number | null; refund: number }> {
  const confirmed: Array<{ cents: number | null; refund: number }> = [];
  let refund = -1;
  let cents: number | null | undefined;
  for (const { event } of history) {
    if (event.type === 'REFUND_REQUESTED') {
      if (refund < 0 || event.amountCents !== cents) refund++;
      cents = event.amountCents as number | null;
    }
    if (event.type === 'REFUND_CONFIRMED') confirmed.push({ cents: cents ?? null, refund });
  }
  return confirmed;
}

/** The words under the form: the last failure's (the server's, or the console's when it was not reached), cleared by a request. */
function expectedError(history: Step[]): string | null {
  let error: string | null = null;
  for (const { event } of history) {
    if (event.type === 'REFUND_REQUESTED') error = null;
    const failure = (event as { error?: ApiError }).error;
    if (failure && failure.status !== 401) error = failure.status === 0 ? UNREACHABLE.console : failure.message;
  }
  return error;
}

function expectRequests(history: Step[], requests: SentRequest[]): void {
  const confirmed = confirmedRefunds(history);
  expect(requests, 'a request for each confirmation, none before').toHaveLength(confirmed.length);
  const keys = new Map<number, string>();
  requests.forEach((request, index) => {
    const { cents, refund } = confirmed[index]!;
    expect(request.method).toBe('POST');
    expect(request.path).toBe(`/api/admin/orders/${TRANSACTION}/refund`);
    const body = request.body as { amountCents?: number; requestKey: string };
    expect(body.amountCents, 'the amount asked for, in cents; none for everything').toBe(cents ?? undefined);
    expect(body.requestKey, 'a request key').toMatch(/^[A-Za-z0-9_-]{8,64}$/);
    const earlier = keys.get(refund);
    if (earlier) expect(body.requestKey, 'a retry of the same amount sends the same key').toBe(earlier);
    else expect([...keys.values()], 'another amount is a new refund, with a new key').not.toContain(body.requestKey);
    keys.set(refund, body.requestKey);
  });
}

describePageModel({
  name: 'refund',
  machine: refundMachine,
  input: { transactionId: TRANSACTION },
  // The request key is made afresh for each new amount: the model state keeps only whether there is one, so the
  // graph is finite; the requests' keys are checked against decision 0042 below.
  serializeState: (snapshot) => {
    const { requestKey, ...context } = snapshot.context as { requestKey: string | null };
    return JSON.stringify({ value: snapshot.value, context, keyed: requestKey !== null });
  },
  rulePaths: [
    // The provider failed, the owner asks again for the same amount: the same refund, refunded once.
    [requested(25_000), confirmed, answered(PROVIDER_DOWN), requested(25_000), confirmed, answered(DETAIL)],
    // The session ended mid-refund: asked again after signing in, still the same refund.
    [requested(null), confirmed, answered(SIGNED_OUT), requested(null), abandoned, requested(null), confirmed, answered(DETAIL)],
    // Failures between other amounts: each new amount is a new refund; coming back to an earlier one is new too.
    [requested(25_000), confirmed, answered(NETWORK), requested(null), confirmed, answered(REFUSED), requested(25_000), confirmed],
  ],
  callsByState: { 'refund.refunding': 'refund' },
  routes: [{ method: 'POST', path: /^\/api\/admin\/orders\/[^/]+\/refund$/, kind: 'refund' }],
  eventsAt(snapshot: AnyMachineSnapshot): AnyEventObject[] {
    const events = answersOf(snapshot, 'refund.refunding', [DETAIL], [REFUSED, PROVIDER_DOWN, NETWORK, SIGNED_OUT]);
    if (snapshot.matches('idle')) events.push(...AMOUNTS.map((each) => ({ type: 'REFUND_REQUESTED', amountCents: each.cents })));
    if (snapshot.matches('confirming')) events.push({ type: 'REFUND_CONFIRMED' }, { type: 'REFUND_ABANDONED' });
    return events;
  },
  render() {
    onUnauthorised = vi.fn();
    onRefunded = vi.fn();
    // Paid two days ago: within the 30-day guarantee, so an empty field asks for everything.
    render(<RefundOfOneOrder paidAt={new Date(Date.now() - 2 * 86_400_000).toISOString()} />);
  },
  act(event) {
    if (event.type === 'REFUND_REQUESTED') {
      fireEvent.change(screen.getByRole('textbox', { name: /Amount in dollars/ }), {
        target: { value: amountOf(event.amountCents as number | null).typed },
      });
      fireEvent.click(screen.getByRole('button', { name: REFUND.refund }));
    } else if (event.type === 'REFUND_CONFIRMED') fireEvent.click(screen.getByRole('button', { name: REFUND.confirm }));
    else if (event.type === 'REFUND_ABANDONED') fireEvent.click(screen.getByRole('button', { name: REFUND.abandon }));
    else throw new Error(`The model test cannot make ${event.type} happen`);
  },
  expectShows(state, history, requests) {
    expectRequests(history, requests);
    const asked = history.findLast((step) => step.event.type === 'REFUND_REQUESTED')?.event.amountCents as number | null | undefined;
    const form = screen.queryByRole('form', { name: 'Refund' });
    const question = screen.queryByRole('alertdialog', { name: 'Confirm the refund' });
    expect(form !== null, 'the refund form').toBe(state.matches('idle'));
    expect(question !== null, 'the question before refunding').toBe(state.matches('confirming'));
    if (question) expect(question).toHaveTextContent(REFUND.question(amountOf(asked ?? null).named));
    expect(screen.queryByText(REFUND.refunding) !== null, REFUND.refunding).toBe(state.matches('refunding'));
    const refunded = history.some((step) => step.event.type.startsWith('xstate.done.actor.'));
    // A refund made closes the panel and hands the order, as the server now reports it, to the order's screen.
    expect(screen.queryByRole('heading', { name: 'Refund' }) === null, 'the panel closed').toBe(refunded);
    expect(onRefunded.mock.calls, 'the order as it now is').toEqual(refunded ? [[DETAIL]] : []);
    const error = expectedError(history);
    if (error && form) expect(screen.getByRole('alert')).toHaveTextContent(error);
    else expect(screen.queryByRole('alert')).toBeNull();
    expect(onUnauthorised, 'the console asked to sign in again').toHaveBeenCalledTimes(answeredWith(history, SIGNED_OUT));
  },
});
