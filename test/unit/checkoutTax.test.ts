/**
 * The checkout's location step (src/machines/checkoutTax.ts, docs/decisions/0071) through the page's real client
 * (src/api/checkoutApi.ts) against a stubbed `fetch`: what the card form answered, the body of the location call
 * (src/contract/checkout.ts, LocateRequest), and the server's answers in its own words: a 422 naming the card
 * form's field is a refusal at that field (server/checkout/routes/locate.ts); anything else is a failure.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { locateSubscription } from '../../src/api/checkoutApi';
import { ApiError } from '../../src/api/client';
import type { SubscriptionSession, TaxQuote } from '../../src/contract/checkout';
import { PRODUCT_ID } from '../../src/domain/product';
import { TAX_LOCATION_MESSAGES } from '../../src/domain/tax';
import { locateBuyer } from '../../src/machines/checkoutTax';
import type { LocationCollection, PaymentGateway } from '../../src/payments/gateway';

const session: SubscriptionSession = {
  clientSecret: 'pi_3_secret_c',
  subscriptionId: 'sub_3',
  subscriptionItemId: 'si_3',
  customerId: 'cus_3',
  transactionId: 'txn_3',
};
const billingDetails = { name: 'Ada Lovelace', email: 'ada@example.com' };
const returnUrl = 'http://localhost/payment-success';

/** The card form, answering `collection` when asked for the location. */
function gatewayAnswering(collection: LocationCollection) {
  const collectLocation = vi.fn(async () => collection);
  const gateway: PaymentGateway = { provider: 'sandbox', collectLocation, confirmPayment: vi.fn(), focusCard: vi.fn() };
  return { gateway, collectLocation };
}

const hawaii: LocationCollection = { status: 'collected', location: { country: 'US', postalCode: '96813' } };

/** The server answers the location call with `status` and `body`; the requests it got are kept. */
function serverAnswering(status: number, body: unknown) {
  const fetchMock = vi.fn(async (_url: string, _init: RequestInit) => ({ ok: status < 300, status, json: async () => body }) as Response);
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const locate = (gateway: PaymentGateway) => locateBuyer({ gateway, session, billingDetails, returnUrl }, locateSubscription);

afterEach(() => vi.unstubAllGlobals());

describe('the location step', () => {
  it("asks the card form with the buyer's details, sends its country and ZIP with the session's ids, and answers the quote", async () => {
    const quote: TaxQuote = {
      clientSecret: 'pi_4_secret_d',
      subscriptionId: 'sub_4',
      subscriptionItemId: 'si_4',
      subtotalCents: 50_000,
      taxCents: 2_356,
      taxState: 'HI',
    };
    const fetchMock = serverAnswering(200, quote);
    const { gateway, collectLocation } = gatewayAnswering(hawaii);
    await expect(locate(gateway)).resolves.toEqual({ kind: 'quoted', quote });
    expect(collectLocation).toHaveBeenCalledWith({ billingDetails, returnUrl });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toMatch(/\/api\/locate-anon-subscription$/);
    expect(JSON.parse(init.body as string)).toEqual({
      subscriptionId: 'sub_3',
      subscriptionItemId: 'si_3',
      transactionId: 'txn_3',
      productId: PRODUCT_ID,
      country: 'US',
      postalCode: '96813',
    });
  });

  it('sends nothing when the card form shows what is missing, or could not read the card (with its words)', async () => {
    const fetchMock = serverAnswering(200, {});
    await expect(locate(gatewayAnswering({ status: 'incomplete' }).gateway)).resolves.toEqual({ kind: 'incomplete' });
    const failed = gatewayAnswering({ status: 'failed', message: 'Your card number is incomplete.' }).gateway;
    await expect(locate(failed)).resolves.toEqual({ kind: 'failed', message: 'Your card number is incomplete.' });
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("says a refused country or ZIP at its field, in the server's words", async () => {
    for (const [field, error] of [
      ['country', TAX_LOCATION_MESSAGES.countryNotSold],
      ['postalCode', TAX_LOCATION_MESSAGES.postalCodeInvalid],
    ] as const) {
      serverAnswering(422, { error, field });
      await expect(locate(gatewayAnswering(hawaii).gateway), field).resolves.toEqual({
        kind: 'refused',
        refusal: { field, message: error },
      });
    }
  });

  it('fails, with the error, on an answer that names no field of the card form', async () => {
    const answers: [number, unknown][] = [
      [422, { error: 'Unprocessable.', field: 'email' }],
      [422, { error: 'Unprocessable.' }],
      [422, 'Unprocessable.'],
      [422, null],
      [400, { error: 'Unknown product.', field: 'postalCode' }],
      [500, { error: 'Something went wrong.' }],
    ];
    for (const [status, body] of answers) {
      serverAnswering(status, body);
      const failure = await locate(gatewayAnswering(hawaii).gateway).then(
        () => null,
        (error: unknown) => error,
      );
      expect(failure, JSON.stringify([status, body])).toBeInstanceOf(ApiError);
      expect((failure as ApiError).status).toBe(status);
    }
  });
});
