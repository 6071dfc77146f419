/**
 * Refunded invoices read so, with the amount, on the manage page and in the console, on both providers (the
 * sandbox, and Stripe through the stateful double): a partial refund reads 'partially_refunded' with what was
 * refunded, a full one 'refunded'. On PGlite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderDetail } from '../../../server/admin/reports';
import { refundOrder } from '../../../server/checkout/refundOrder';
import type { SubscriptionSession } from '../../../src/contract/checkout';
import { completePurchase, DATABASES, startTestServer, createBody, type TestServer } from '../helper';
import { startStatefulStripe, type StatefulStripe } from '../helpers/statefulStripe';
import { stripeTestEnv } from '../helpers/stripeEvents';

type Provider = 'sandbox' | 'stripe';
const CASES = DATABASES.flatMap((kind) => (['sandbox', 'stripe'] as Provider[]).map((provider) => [kind, provider] as const));

describe.each(CASES)('refunded invoices on %s with %s', (kind, provider) => {
  let stripe: StatefulStripe | undefined;
  let server: TestServer;
  beforeAll(async () => {
    stripe = provider === 'stripe' ? await startStatefulStripe() : undefined;
    server = await startTestServer(kind, { env: stripe ? stripeTestEnv(stripe.url) : {} });
  });
  afterAll(async () => {
    await server.close();
    await stripe?.close();
  });

  async function buy(quantity: number): Promise<SubscriptionSession> {
    if (!stripe) return (await completePurchase(server, quantity)).session;
    const session = (await server.post('/api/create-anon-subscription-intent', createBody(quantity))).json<SubscriptionSession>();
    expect(stripe.pay(session.clientSecret, { name: 'Jane Doe', email: 'jane@example.com' })).toBe(true);
    const finalized = await server.post('/api/finalize-anon-subscription', {
      subscriptionId: session.subscriptionId,
      customerId: session.customerId,
      transactionId: session.transactionId,
      name: 'Jane Doe',
      email: 'jane@example.com',
    });
    expect(finalized.statusCode, finalized.body).toBe(200);
    return session;
  }
  const invoicesOf = async (session: SubscriptionSession) =>
    (await server.context().provider.retrieveSubscriptionDetails(session.subscriptionId))!.invoices;

  it('a partial refund reads partly refunded with its amount, a second one to the full amount reads refunded', async () => {
    const session = await buy(3);
    expect(await invoicesOf(session)).toEqual([expect.objectContaining({ amountCents: 100_000, status: 'paid', refundedCents: 0 })]);

    const partial = await refundOrder(server.context(), {
      transactionId: session.transactionId,
      amountCents: 30_000,
      ownerId: 'owner-test',
    });
    expect(partial.ok).toBe(true);
    expect(await invoicesOf(session)).toEqual([
      expect.objectContaining({ amountCents: 100_000, status: 'partially_refunded', refundedCents: 30_000 }),
    ]);
    // The console's order page lists the same.
    const detail = await orderDetail(server.context(), session.transactionId);
    expect(detail!.invoices).toEqual([expect.objectContaining({ status: 'partially_refunded', refundedCents: 30_000 })]);

    const rest = await refundOrder(server.context(), { transactionId: session.transactionId, amountCents: 70_000, ownerId: 'owner-test' });
    expect(rest.ok).toBe(true);
    expect(await invoicesOf(session)).toEqual([
      expect.objectContaining({ amountCents: 100_000, status: 'refunded', refundedCents: 100_000 }),
    ]);
  });
});
