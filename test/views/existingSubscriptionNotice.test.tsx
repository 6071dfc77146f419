/**
 * The checkout's notice before a second purchase (decision 0031): after the buyer types a complete email and
 * pauses, one check; 'You already have a subscription: manage it' links to /account while that email stays; an
 * incomplete email, an email without one, or a failed check shows nothing and the form goes on.
 */
import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { EMAIL_SETTLE_MS, existingSubscriptionMachine } from '../../src/machines/existingSubscriptionMachine';
import { CheckoutActor } from '../../src/views/checkout/checkoutActor';
import { ExistingSubscriptionNotice } from '../../src/views/checkout/ExistingSubscriptionNotice';
import { checkoutMachine } from '../../src/machines/checkoutMachine';
import { rememberPurchase } from '../../src/api/pendingPayment';
import { advance } from './support/timers';
import { stubFetch } from './support/fakeFetch';

const INPUT = { affiliateId: 'dr-sample', affiliateSource: 'http://localhost/', returnUrl: 'http://localhost/payment-success' };

function renderNotice(answer: (email: string) => Promise<boolean>) {
  const checked: string[] = [];
  const machine = existingSubscriptionMachine.provide({
    actors: {
      checkExistingSubscription: fromPromise(async ({ input }: { input: { email: string } }) => {
        checked.push(input.email);
        return answer(input.email);
      }),
    },
  });
  // The checkout's own statechart, without its calls: only the email field matters here.
  const checkout = createActor(checkoutMachine.provide({ delays: { initDelay: 1_000_000 } }), { input: INPUT }).start();
  render(
    <CheckoutActor.Provider actor={checkout}>
      <ExistingSubscriptionNotice machine={machine} />
    </CheckoutActor.Provider>,
  );
  const type = (value: string) => act(() => checkout.send({ type: 'FIELD_CHANGED', field: 'email', value }));
  return { checked, type };
}

vi.useFakeTimers();
afterEach(() => {
  vi.clearAllTimers();
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('the notice before a second purchase', () => {
  it('checks a complete email once the buyer pauses, and links to /account while that email stays', async () => {
    const { checked, type } = renderNotice(async (email) => email === 'ada@example.com');
    type('ada@exa');
    await advance(EMAIL_SETTLE_MS);
    expect(checked).toEqual([]);
    type('ada@example.co');
    await advance(EMAIL_SETTLE_MS / 2);
    type('ada@example.com');
    await advance(EMAIL_SETTLE_MS - 1);
    expect(checked).toEqual([]);
    await advance(1);
    expect(checked).toEqual(['ada@example.com']);
    expect(screen.getByText(/You already have a subscription:/)).toHaveTextContent('You already have a subscription: manage it.');
    expect(screen.getByRole('link', { name: 'manage it' })).toHaveAttribute('href', '/account');
    type('bob@example.com');
    expect(screen.queryByText(/You already have a subscription/)).toBeNull();
    await advance(EMAIL_SETTLE_MS);
    expect(checked).toEqual(['ada@example.com', 'bob@example.com']);
    expect(screen.queryByText(/You already have a subscription/)).toBeNull();
  });

  it("proves the browser holds the purchase it finalized with that purchase's ids (decision 0031)", async () => {
    rememberPurchase({
      transactionId: 'txn_41',
      subscriptionId: 'sub_41',
      customerId: 'cus_41',
      seats: 2,
      totalAmount: 98,
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      completedAt: Date.now(),
    });
    const bodies: unknown[] = [];
    stubFetch({
      '/api/account/subscription-check': (body) => {
        bodies.push(body);
        return { status: 200, body: { activeSubscription: true } };
      },
    });
    const checkout = createActor(checkoutMachine.provide({ delays: { initDelay: 1_000_000 } }), { input: INPUT }).start();
    render(
      <CheckoutActor.Provider actor={checkout}>
        <ExistingSubscriptionNotice />
      </CheckoutActor.Provider>,
    );
    act(() => checkout.send({ type: 'FIELD_CHANGED', field: 'email', value: 'ada@example.com' }));
    await advance(EMAIL_SETTLE_MS);
    expect(bodies).toEqual([{ email: 'ada@example.com', purchase: { transactionId: 'txn_41', customerId: 'cus_41' } }]);
    expect(screen.getByText(/You already have a subscription:/)).toBeInTheDocument();
  });

  it('shows nothing when the check fails', async () => {
    const { checked, type } = renderNotice(() => Promise.reject(new Error('Too many requests.')));
    type('ada@example.com');
    await advance(EMAIL_SETTLE_MS);
    expect(checked).toEqual(['ada@example.com']);
    expect(screen.queryByText(/You already have a subscription/)).toBeNull();
  });
});
