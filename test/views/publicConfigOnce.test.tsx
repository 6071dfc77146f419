/**
 * GET /api/config is read once per page load: the checkout statechart starts it beside call 1, the payment form
 * reads that answer, and the hand-off to the success site reuses it.
 */
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { SubscriptionSession } from '../../src/contract/checkout';
import { resolveSuccessSiteUrl } from '../../src/api/successSite';
import { renderCheckout, registerCheckoutTestEnvironment } from './support/checkoutHarness';
import { stubFetch } from './support/fakeFetch';
import { advance, deferred } from './support/timers';

registerCheckoutTestEnvironment();

const configRequests = (fetchMock: ReturnType<typeof vi.fn>) =>
  fetchMock.mock.calls.filter(([url]) => new URL(String(url), 'http://localhost').pathname === '/api/config').length;

describe('the public configuration', () => {
  it('is requested when the checkout starts, before call 1 answers, and once for the whole page', async () => {
    const fetchMock = stubFetch();
    const create = deferred<SubscriptionSession>();
    renderCheckout({ createIntent: () => create.promise });
    expect(configRequests(fetchMock)).toBe(1);

    await advance(500);
    create.resolve({
      clientSecret: 'pi_sbx_1_secret_a',
      subscriptionId: 'sub_sbx_1',
      subscriptionItemId: 'si_sbx_1',
      customerId: 'cus_sbx_1',
      transactionId: 'txn_1',
    });
    await advance(0);
    expect(screen.getByLabelText('Card number')).toBeInTheDocument();

    const url = await resolveSuccessSiteUrl('token-1', 'checkout.example.com');
    expect(url).toBe('https://agreement.example.com/?token=token-1');
    expect(configRequests(fetchMock)).toBe(1);
  });
});
