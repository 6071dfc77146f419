/**
 * Bad input is a 4xx, always: property-based bodies (fast-check) for every POST endpoint, arbitrary JSON and
 * bodies of the right shape with hostile strings (NUL, unpaired surrogates, huge numbers, wrong types), on
 * PGlite and PostgreSQL. No answer may be a 5xx, and no order may be half-written. FUZZ_RUNS bodies per
 * endpoint (1,000 in `npm test`; `npm run bench:fuzz` runs 10,000 and prints the figures).
 */
import fc from 'fast-check';
import { count, eq, isNull, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SubscriptionSession } from '../../src/contract/checkout';
import { PRODUCT_ID } from '../../src/domain/product';
import { accounts, handoffTokens, orders } from '../../server/db/schema';
import { DATABASES, HANDOFF_KEY, openCheckout, startTestServer, type TestServer } from './helper';

const RUNS = Number(process.env.FUZZ_RUNS ?? 1000);

/** Strings a careless or hostile client sends. */
const hostileText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '\u0000',
    'a\u0000b',
    '\uD800',
    'x\uDFFFy',
    '\uDBFF\uDFFF',
    '😀',
    ' ',
    '',
    'a'.repeat(300),
    '<script>',
    "'; drop table orders; --",
  ),
);
const hostileValue = fc.oneof(
  hostileText,
  fc.integer(),
  fc.double(),
  fc.constant(null),
  fc.boolean(),
  fc.array(fc.string(), { maxLength: 2 }),
  fc.object({ maxDepth: 1 }),
);
const quantity = fc.oneof(fc.integer({ min: -5, max: 150 }), fc.constantFrom(1e308, -0, 2 ** 53, 1.5), hostileValue);

/** A body of the endpoint's shape, every field either plausible or hostile, sometimes one missing or extra. */
function shaped(fields: Record<string, fc.Arbitrary<unknown>>) {
  return fc.record(fields, { requiredKeys: [] }).chain((body) =>
    fc.oneof(
      fc.constant(body),
      fc.record({ extra: hostileValue }).map((extra) => ({ ...body, ...extra })),
    ),
  );
}

function endpoints(session: SubscriptionSession): Record<string, fc.Arbitrary<unknown>> {
  const id = (valid: string) => fc.oneof(fc.constant(valid), hostileText, hostileValue);
  return {
    '/api/create-anon-subscription-intent': shaped({
      productId: id(PRODUCT_ID),
      quantity,
      affiliate_id: id('dr-sample'),
      affiliate_source: id('https://checkout.test/'),
    }),
    '/api/update-anon-subscription-intent': shaped({
      subscriptionId: id(session.subscriptionId),
      subscriptionItemId: id(session.subscriptionItemId),
      transactionId: id(session.transactionId),
      quantity,
      productId: id(PRODUCT_ID),
    }),
    '/api/finalize-anon-subscription': shaped({
      subscriptionId: id(session.subscriptionId),
      customerId: id(session.customerId),
      transactionId: id(session.transactionId),
      email: id('ada@example.com'),
      name: id('Ada Palmer'),
    }),
    '/api/finalize-from-payment-intent': shaped({
      paymentIntentId: id(session.clientSecret.split('_secret_')[0]!),
      clientSecret: id(session.clientSecret),
      email: id('ada@example.com'),
    }),
    '/api/handoff/redeem': shaped({ token: id('a'.repeat(43)) }),
    '/api/sandbox/payment-intents/confirm': shaped({
      clientSecret: id(session.clientSecret),
      card: fc.oneof(
        shaped({
          number: id('4000 0000 0000 0002'),
          expMonth: fc.oneof(fc.integer({ min: -1, max: 13 }), hostileValue),
          expYear: fc.oneof(fc.integer({ min: 0, max: 2200 }), hostileValue),
          cvc: id('123'),
          postalCode: id('10001'),
        }),
        hostileValue,
      ),
      billingDetails: fc.oneof(shaped({ name: id('Ada Palmer'), email: id('ada@example.com') }), hostileValue),
    }),
    '/api/sandbox/payment-intents/authenticate': shaped({
      clientSecret: id(session.clientSecret),
      outcome: fc.oneof(fc.constantFrom('completed', 'failed'), hostileValue),
    }),
  };
}

/** Arbitrary JSON documents, and texts that are not JSON at all. */
const anyBody = fc.oneof(
  fc.jsonValue().map((value) => JSON.stringify(value)),
  fc.string({ unit: 'binary', maxLength: 60 }),
);

describe.each(DATABASES)('fuzzed bodies on %s', (kind) => {
  let server: TestServer;
  let session: SubscriptionSession;
  const statuses = new Map<number, number>();
  beforeAll(async () => {
    server = await startTestServer(kind);
    session = await openCheckout(server, 1);
  });
  afterAll(async () => {
    if (process.env.FUZZ_RUNS) console.log(`${kind}: ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`);
    await server.close();
  });

  const send = async (url: string, payload: string) => {
    const response = await server.app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${HANDOFF_KEY}` },
      payload,
    });
    statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
    return response;
  };

  it(`answers ${RUNS * 2} bodies per endpoint, shaped or arbitrary, without a 5xx, and writes no half order`, async () => {
    let created = 0;
    for (const [url, body] of Object.entries(endpoints(session))) {
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            body.map((value) => JSON.stringify(value)),
            anyBody,
          ),
          async (payload) => {
            const response = await send(url, payload);
            if (url.includes('create') && response.statusCode === 200) created += 1;
            expect(response.statusCode, `${url} ${payload.slice(0, 200)} → ${response.body}`).toBeLessThan(500);
            if (response.statusCode >= 400) expect(response.json()).toEqual({ error: expect.any(String) });
          },
        ),
        { numRuns: RUNS * 2 },
      );
    }
    const [orderRows] = await server.db.select({ n: count() }).from(orders);
    expect(orderRows!.n).toBe(created + 1);
    // Accounts only for paid orders; tokens only for orders with an account.
    const accountsOfUnpaid = await server.db
      .select({ id: accounts.id })
      .from(accounts)
      .innerJoin(orders, eq(orders.transactionId, accounts.transactionId))
      .where(ne(orders.status, 'paid'));
    expect(accountsOfUnpaid).toEqual([]);
    const tokensWithoutAccount = await server.db
      .select({ hash: handoffTokens.tokenHash })
      .from(handoffTokens)
      .leftJoin(accounts, eq(accounts.transactionId, handoffTokens.transactionId))
      .where(isNull(accounts.id));
    expect(tokensWithoutAccount).toEqual([]);
  });
});
