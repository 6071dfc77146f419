import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRODUCT_ID } from '../../../src/domain/product';
import { orders, sandboxCustomers, sandboxSubscriptions } from '../../../server/db/schema';
import { createBody, DATABASES, startTestServer, type TestServer } from '../helper';

const CREATE = '/api/create-anon-subscription-intent';

describe.each(DATABASES)('POST /api/create-anon-subscription-intent on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(() => server.close());

  it('opens a checkout: a sandbox customer, an unpaid subscription and an order priced by the server', async () => {
    const response = await server.post(CREATE, createBody(3));
    expect(response.statusCode).toBe(200);
    const session = response.json();
    expect(Object.keys(session).sort()).toEqual(
      ['clientSecret', 'customerId', 'subscriptionId', 'subscriptionItemId', 'transactionId'].sort(),
    );
    expect(session.customerId).toMatch(/^cus_sbx_\w+$/);
    expect(session.subscriptionId).toMatch(/^sub_sbx_\w+$/);
    expect(session.subscriptionItemId).toMatch(/^si_sbx_\w+$/);
    expect(session.clientSecret).toMatch(/^pi_sbx_\w+_secret_\w+$/);
    expect(session.transactionId).toMatch(/^[0-9a-f-]{36}$/);

    const [order] = await server.db.select().from(orders).where(eq(orders.transactionId, session.transactionId));
    expect(order).toMatchObject({
      provider: 'sandbox',
      customerId: session.customerId,
      subscriptionId: session.subscriptionId,
      quantity: 3,
      amountCents: 100_000,
      status: 'open',
      revision: 0,
      affiliateId: 'dr-sample',
      affiliateSource: 'https://checkout.test/',
    });
    const [subscription] = await server.db.select().from(sandboxSubscriptions).where(eq(sandboxSubscriptions.id, session.subscriptionId));
    expect(subscription).toMatchObject({ quantity: 3, amountDueCents: 100_000, status: 'incomplete', amountPaidCents: 0 });
    expect(order?.paymentIntentId).toBe(subscription?.paymentIntentId);
  });

  it('gives each checkout its own transaction', async () => {
    const [a, b] = await Promise.all([server.post(CREATE, createBody(1)), server.post(CREATE, createBody(1))]);
    expect(a.json().transactionId).not.toBe(b.json().transactionId);
    expect(a.json().subscriptionId).not.toBe(b.json().subscriptionId);
  });

  const bad: Array<[string, unknown]> = [
    ['quantity 0', { ...createBody(), quantity: 0 }],
    ['quantity 1.5', { ...createBody(), quantity: 1.5 }],
    ['quantity 101 (above MAX_SEATS)', { ...createBody(), quantity: 101 }],
    ['quantity "3"', { ...createBody(), quantity: '3' }],
    ['quantity null', { ...createBody(), quantity: null }],
    ['a missing quantity', { productId: PRODUCT_ID, affiliate_id: 'dr-sample', affiliate_source: '' }],
    ['a missing productId', { quantity: 1, affiliate_id: 'dr-sample', affiliate_source: '' }],
    ['a missing affiliate_id', { productId: PRODUCT_ID, quantity: 1, affiliate_source: '' }],
    ['an extra field', { ...createBody(), price: 1 }],
    ['a wrong productId', { ...createBody(), productId: 'something-else' }],
    ['an empty affiliate_id', { ...createBody(), affiliate_id: '' }],
    ['a 65-character affiliate_id', { ...createBody(), affiliate_id: 'a'.repeat(65) }],
    ['a 2049-character affiliate_source', { ...createBody(), affiliate_source: 'a'.repeat(2049) }],
    ['a NUL in affiliate_source', { ...createBody(), affiliate_source: 'https://x.test/\u0000' }],
    ['an unpaired surrogate in affiliate_id', { ...createBody(), affiliate_id: 'dr-\uD800' }],
    ['an array body', [createBody()]],
    ['malformed JSON', '{"productId": "chiro'],
    ['an empty body', ''],
  ];
  it.each(bad)('answers 400 { error } and writes nothing for %s', async (_, body) => {
    const before = await Promise.all([server.rows(orders), server.rows(sandboxCustomers), server.rows(sandboxSubscriptions)]);
    const response = await server.post(CREATE, body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: expect.any(String) });
    const after = await Promise.all([server.rows(orders), server.rows(sandboxCustomers), server.rows(sandboxSubscriptions)]);
    expect(after).toEqual(before);
  });

  it('names the problem in the error', async () => {
    expect((await server.post(CREATE, { ...createBody(), quantity: 1.5 })).json().error).toBe('Seats must be a whole number.');
    expect((await server.post(CREATE, { ...createBody(), coupon: 'X' })).json().error).toBe("This request has an unknown field 'coupon'.");
    expect((await server.post(CREATE, { ...createBody(), productId: 'x' })).json().error).toBe('Unknown product.');
    expect((await server.post(CREATE, '{oops')).json().error).toBe('The request body is not valid JSON.');
    expect((await server.post(CREATE, { ...createBody(), affiliate_id: 'a\u0000' })).json().error).toBe(
      'Referral must not contain NUL characters or unpaired surrogates.',
    );
    // Characters outside the BMP are text like any other.
    expect((await server.post(CREATE, { ...createBody(), affiliate_source: 'https://x.test/?q=😀' })).statusCode).toBe(200);
  });

  it.each(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x'])(
    'answers 400 for Content-Type %s',
    async (contentType) => {
      const response = await server.post(CREATE, JSON.stringify(createBody()), { 'content-type': contentType });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ error: 'Content-Type must be application/json.' });
    },
  );

  it('accepts MAX_SEATS seats', async () => {
    expect((await server.post(CREATE, createBody(100))).statusCode).toBe(200);
  });

  describe('when the payment provider fails', () => {
    let failing: TestServer;
    beforeAll(async () => {
      failing = await server.derive({
        wrapProvider: (sandbox) => ({ ...sandbox, createSubscription: () => Promise.reject(new Error('provider down')) }),
      });
    });
    afterAll(() => failing.close());

    it('answers 502 { error } and writes no order', async () => {
      const before = await server.rows(orders);
      const response = await failing.post(CREATE, createBody(2));
      expect(response.statusCode).toBe(502);
      expect(response.json()).toEqual({ error: expect.stringMatching(/payment provider/) });
      expect(await server.rows(orders)).toBe(before);
    });
  });
});
