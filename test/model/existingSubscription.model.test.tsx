/**
 * Model-based test of the notice before a second purchase (src/machines/existingSubscriptionMachine.ts, its view
 * src/views/checkout/ExistingSubscriptionNotice.tsx under the checkout's own statechart): generated paths of the
 * buyer typing an incomplete, a complete and a pasted email, the pause, and the check answering yes, no or failing.
 * Held to decision 0031 (pageRules.ts): one check only once a complete email has stayed unchanged 800 ms, for that
 * email trimmed and nothing else; the notice, with its link to /account, only while the email the check said yes to
 * stays in the field; a failed check shows nothing.
 */
import { act, render, screen } from '@testing-library/react';
import { expect } from 'vitest';
import { createActor, type AnyActorRef, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import { ApiError } from '../../src/api/client';
import { checkoutMachine } from '../../src/machines/checkoutMachine';
import { existingSubscriptionMachine } from '../../src/machines/existingSubscriptionMachine';
import { CheckoutActor } from '../../src/views/checkout/checkoutActor';
import { ExistingSubscriptionNotice } from '../../src/views/checkout/ExistingSubscriptionNotice';
import { answersOf, describePageModel, type Step } from './pageModel';
import { EXISTING_SUBSCRIPTION, UNREACHABLE } from './pageRules';

const INPUT = { affiliateId: 'dr-sample', affiliateSource: 'http://localhost/', returnUrl: 'http://localhost/payment-success' };
/** What the buyer may have in the field: nothing, an incomplete address, a complete one, one pasted with spaces. */
const TYPED = ['', 'ada@exa', 'ada@example.com', ' bo@example.com '];
const NETWORK = new ApiError(UNREACHABLE.signIn, 0);

let checkout: AnyActorRef;

/** The notice must show: the last thing that happened is a check answering yes (any change of email hides it). */
function noticeExpected(history: Step[]): boolean {
  const last = history.at(-1)?.event;
  return last?.type.startsWith('xstate.done.actor.') === true && (last as { output?: unknown }).output === true;
}

describePageModel({
  name: 'existingSubscription',
  machine: existingSubscriptionMachine,
  callsByState: { checkExistingSubscription: 'check' },
  routes: [
    { method: 'POST', path: /^\/api\/account\/subscription-check$/, kind: 'check', toBody: (output) => ({ activeSubscription: output }) },
  ],
  eventsAt(snapshot: AnyMachineSnapshot): AnyEventObject[] {
    const email = (snapshot.context as { email: string }).email;
    const events: AnyEventObject[] = [
      ...answersOf(snapshot, 'checkExistingSubscription', [true, false], [NETWORK]),
      ...TYPED.filter((each) => each.trim() !== email).map((each) => ({ type: 'EMAIL_CHANGED', email: each })),
    ];
    if (snapshot.matches('settling')) events.push({ type: 'xstate.after.emailSettled.existingSubscription.settling' });
    return events;
  },
  render() {
    // The checkout's statechart holds the field; its own calls are not part of this model (its timer never fires here).
    checkout = createActor(checkoutMachine.provide({ delays: { initDelay: 1_000_000_000 } }), { input: INPUT }).start();
    render(
      <CheckoutActor.Provider actor={checkout as never}>
        <ExistingSubscriptionNotice />
      </CheckoutActor.Provider>,
    );
  },
  act(event) {
    if (event.type !== 'EMAIL_CHANGED') throw new Error(`The model test cannot make ${event.type} happen`);
    act(() => checkout.send({ type: 'FIELD_CHANGED', field: 'email', value: event.email }));
  },
  delayOf: (event) => {
    if (event.type.startsWith('xstate.after.emailSettled.')) return EXISTING_SUBSCRIPTION.settleMs;
    throw new Error(`No rule for ${event.type}`);
  },
  expectShows(state, history, requests) {
    // One check per pause, each for the complete address then in the field, trimmed, and nothing else.
    const checks = history.filter((step) => step.event.type.startsWith('xstate.after.')).length;
    expect(requests).toHaveLength(checks);
    const typed = history.filter((step) => step.event.type === 'EMAIL_CHANGED').at(-1)?.event as { email: string } | undefined;
    if (state.matches('checking')) expect(requests.at(-1)?.body).toEqual({ email: typed?.email.trim() });
    for (const request of requests) expect((request.body as { email: string }).email).toMatch(/^[^\s@]+@[^\s@]+\.[^\s@]+$/);
    const notice = screen.queryByText(/You already have a subscription/);
    expect(notice !== null, 'the notice').toBe(noticeExpected(history));
    if (notice) {
      expect(notice).toHaveTextContent(EXISTING_SUBSCRIPTION.notice);
      expect(screen.getByRole('link', { name: EXISTING_SUBSCRIPTION.manageLink.name })).toHaveAttribute(
        'href',
        EXISTING_SUBSCRIPTION.manageLink.href,
      );
    }
  },
});
