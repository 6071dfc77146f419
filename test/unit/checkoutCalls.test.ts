/**
 * The checkout statechart's own calls (spec §3, §4) with its real actors and the page's real client against a
 * stubbed `fetch`: calls 1, 2, the location step and finalize each send the spec's body, and the card form is asked
 * to confirm the session's client secret with the buyer's trimmed details. The model test holds the same through the
 * page (test/model/specRequests.ts); this one runs in a fraction of a second, first in a mutation run.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import type { FinalizeResponse, TaxQuote, UpdateIntentResponse } from '../../src/contract/checkout';
import { checkoutMachine } from '../../src/machines/checkoutMachine';
import type { PaymentGateway } from '../../src/payments/gateway';
import { stubFetch } from '../views/support/fakeFetch';
import { memoryStorage, session } from './support/checkoutFixtures';

const updated: UpdateIntentResponse = { clientSecret: 'pi_2_secret_b', subscriptionId: 'sub_2', subscriptionItemId: 'si_2', taxCents: 0 };
const quote: TaxQuote = { ...updated, subtotalCents: 100_000, taxCents: 0, taxState: null };
const finalized: FinalizeResponse = {
  success: true,
  token: 'tok_1',
  loginDetails: { email: 'ada@example.com', password: 'p'.repeat(20), productPurchased: 'AI training' },
  signInLinkEmailed: false,
};

/** The server behind the page's client (the views' fake), answering each path with `answers`; what was sent, in order. */
function serverAnswering(answers: Record<string, unknown>) {
  const fetchMock = stubFetch(Object.fromEntries(Object.entries(answers).map(([path, body]) => [path, () => ({ status: 200, body })])));
  return () =>
    fetchMock.mock.calls.map(([url, init]) => ({
      path: new URL(url, 'http://localhost').pathname,
      body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
    }));
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.stubGlobal('localStorage', memoryStorage());
  vi.stubGlobal('sessionStorage', memoryStorage());
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("the checkout chart's calls", () => {
  it('sends calls 1 and 2, the location and finalize with the bodies of spec §3 and §4, and confirms the new client secret', async () => {
    const sent = serverAnswering({
      '/api/create-anon-subscription-intent': session,
      '/api/update-anon-subscription-intent': updated,
      '/api/locate-anon-subscription': quote,
      '/api/finalize-anon-subscription': finalized,
    });
    const confirmPayment = vi.fn(async () => ({ status: 'succeeded' as const, paymentIntentId: 'pi_2' }));
    const collectLocation = vi.fn(async () => ({ status: 'collected' as const, location: { country: 'US', postalCode: '10001' } }));
    const gateway: PaymentGateway = { provider: 'sandbox', collectLocation, confirmPayment, focusCard: vi.fn() };
    const actor = createActor(checkoutMachine, {
      input: { affiliateId: 'dr-sample', affiliateSource: 'http://localhost/?ref=x', returnUrl: 'http://localhost/payment-success' },
    }).start();

    await vi.advanceTimersByTimeAsync(500);
    actor.send({ type: 'SEAT_ADDED' });
    await vi.advanceTimersByTimeAsync(2000);
    expect(actor.getSnapshot().value).toBe('idle');
    actor.send({ type: 'PAYMENT_FORM_READY', clientSecret: updated.clientSecret, gateway });
    actor.send({ type: 'FIELD_CHANGED', field: 'firstName', value: ' Ada ' });
    actor.send({ type: 'FIELD_CHANGED', field: 'lastName', value: ' Lovelace ' });
    actor.send({ type: 'FIELD_CHANGED', field: 'email', value: ' ada@example.com ' });
    actor.send({ type: 'SUBMITTED' });
    await vi.advanceTimersByTimeAsync(0);

    expect(actor.getSnapshot().value).toBe('success');
    expect(sent().filter((call) => call.path !== '/api/config')).toEqual([
      {
        path: '/api/create-anon-subscription-intent',
        body: {
          productId: 'chiro-ai-training-monthly',
          quantity: 1,
          affiliate_id: 'dr-sample',
          affiliate_source: 'http://localhost/?ref=x',
        },
      },
      {
        path: '/api/update-anon-subscription-intent',
        body: {
          subscriptionId: 'sub_1',
          subscriptionItemId: 'si_1',
          transactionId: 'txn_1',
          quantity: 2,
          productId: 'chiro-ai-training-monthly',
        },
      },
      {
        path: '/api/locate-anon-subscription',
        body: {
          subscriptionId: 'sub_2',
          subscriptionItemId: 'si_2',
          transactionId: 'txn_1',
          productId: 'chiro-ai-training-monthly',
          country: 'US',
          postalCode: '10001',
        },
      },
      {
        path: '/api/finalize-anon-subscription',
        body: { subscriptionId: 'sub_2', customerId: 'cus_1', transactionId: 'txn_1', email: 'ada@example.com', name: 'Ada Lovelace' },
      },
    ]);
    const billingDetails = { name: 'Ada Lovelace', email: 'ada@example.com' };
    expect(collectLocation).toHaveBeenCalledWith({ billingDetails, returnUrl: 'http://localhost/payment-success' });
    expect(confirmPayment).toHaveBeenCalledWith({
      clientSecret: 'pi_2_secret_b',
      billingDetails,
      returnUrl: 'http://localhost/payment-success',
    });
  });
});
