/**
 * Seat changes and payments in Stripe mode, against a stateful Stripe double that behaves as Stripe does
 * (helpers/statefulStripe.ts: an idempotency key reused with other parameters is refused, a paid subscription
 * can be cancelled, a paid invoice cannot be voided). On PGlite and PostgreSQL.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FinalizeResponse, SubscriptionSession } from '../../../../src/contract/checkout';
import { accounts, orders } from '../../../../server/db/schema';
import { createBody, DATABASES, startTestServer, updateBody, type TestServer } from '../../helper';
import { startStatefulStripe, type StatefulStripe } from '../../helpers/statefulStripe';
import { createStripeClient } from '../../../../server/payments/stripe/client';
import { TEST_SECRET_KEY } from '../../helpers/stripeDouble';
import { stripeTestEnv } from '../../helpers/stripeEvents';

const UPDATE = '/api/update-anon-subscription-intent';
const FINALIZE = '/api/finalize-anon-subscription';
const BUYER = { name: 'Jane Doe', email: 'jane@example.com' };

describe.each(DATABASES)('seat changes and payments against a stateful Stripe on %s', (kind) => {
  let stripe: StatefulStripe;
  let server: TestServer;
  beforeAll(async () => {
    stripe = await startStatefulStripe();
    server = await startTestServer(kind, {
      env: stripeTestEnv(stripe.url),
    });
  });
  afterAll(async () => {
    await server.close();
    await stripe.close();
  });

  const orderOf = async (transactionId: string) =>
    (await server.db.select().from(orders).where(eq(orders.transactionId, transactionId)))[0]!;
  const accountsOf = (transactionId: string) => server.db.select().from(accounts).where(eq(accounts.transactionId, transactionId));

  async function open(quantity = 1): Promise<SubscriptionSession> {
    const response = await server.post('/api/create-anon-subscription-intent', createBody(quantity));
    expect(response.statusCode, response.body).toBe(200);
    return response.json<SubscriptionSession>();
  }
  const change = (session: Pick<SubscriptionSession, 'subscriptionId' | 'subscriptionItemId' | 'transactionId'>, quantity: number) =>
    server.post(UPDATE, updateBody(session, quantity));
  const finalize = (session: SubscriptionSession) =>
    server.post(FINALIZE, {
      subscriptionId: session.subscriptionId,
      customerId: session.customerId,
      transactionId: session.transactionId,
      ...BUYER,
    });

  /** The order's current subscription as the double holds it. */
  const currentSubscription = async (transactionId: string) => stripe.subscription((await orderOf(transactionId)).subscriptionId)!;

  it('1 → 3 → 4 (cancel refused) → 5 → 4 → 3: never an idempotency error, never a cancelled subscription', async () => {
    let session = await open(1);
    const firstClientSecret = session.clientSecret;
    const moves: Array<[number, number]> = [];
    const step = async (quantity: number) => {
      const response = await change(session, quantity);
      moves.push([quantity, response.statusCode]);
      if (response.statusCode === 200) session = { ...session, ...response.json<Partial<SubscriptionSession>>() };
      expect(response.body).not.toContain('idempotency');
      const current = await currentSubscription(session.transactionId);
      expect(current.status).toBe('incomplete');
      expect(stripe.invoiceOf(current.id)?.status).toBe('open');
      expect((await orderOf(session.transactionId)).quantity).toBe(current.quantity);
    };
    await step(3);
    stripe.failNext('POST', /^\/v1\/invoices\/[^/]+\/void$/);
    await step(4);
    await step(5);
    await step(4);
    await step(3);
    expect(moves).toEqual([
      [3, 200],
      [4, 502],
      [5, 200],
      [4, 200],
      [3, 200],
    ]);
    // Every replaced subscription is cancelled with its invoice voided: nothing but the current one can be paid.
    const others = stripe.subscriptionsOf(session.transactionId).filter((subscription) => subscription.id !== session.subscriptionId);
    expect(others.map((subscription) => subscription.status)).toEqual(others.map(() => 'canceled'));
    expect(others.map((subscription) => stripe.invoiceOf(subscription.id)?.status)).toEqual(others.map(() => 'void'));
    // A tab still holding the first client secret cannot pay it.
    expect(stripe.pay(firstClientSecret, BUYER)).toBe(false);

    expect(stripe.pay(session.clientSecret, BUYER)).toBe(true);
    const finalized = await finalize(session);
    expect(finalized.statusCode).toBe(200);
    expect(await orderOf(session.transactionId)).toMatchObject({ status: 'paid', quantity: 3, amountCents: 100_000 });
  });

  it('finalize refuses a subscription that was paid and then cancelled', async () => {
    const session = await open(1);
    expect(stripe.pay(session.clientSecret, BUYER)).toBe(true);
    stripe.cancel(session.subscriptionId);
    const response = await finalize(session);
    expect(response.statusCode).toBe(402);
    expect(await accountsOf(session.transactionId)).toHaveLength(0);
  });

  it('payment first, then a seat change: the change is refused, the paid seats are what the order records', async () => {
    const session = await open(1);
    expect(stripe.pay(session.clientSecret, BUYER)).toBe(true);
    const response = await change(session, 3);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ error: 'This order has already been paid.' });
    expect(stripe.subscription(session.subscriptionId)?.status).toBe('active');
    expect((await finalize(session)).statusCode).toBe(200);
    expect(await orderOf(session.transactionId)).toMatchObject({ status: 'paid', quantity: 1, amountCents: 50_000 });
    expect(await accountsOf(session.transactionId)).toHaveLength(1);
  });

  it('seat change first, then the old tab pays: the old payment cannot happen, nothing is charged without an order', async () => {
    const session = await open(1);
    const changed = await change(session, 3);
    expect(changed.statusCode).toBe(200);
    expect(stripe.pay(session.clientSecret, BUYER)).toBe(false);
    const charged = stripe.subscriptionsOf(session.transactionId).filter((subscription) => subscription.status === 'active');
    expect(charged).toEqual([]);
    expect((await finalize(session)).statusCode).toBe(404);
    expect(await orderOf(session.transactionId)).toMatchObject({ status: 'open', quantity: 3 });
  });

  it('the payment lands while the change runs (between its check and the void): the change is refused, the payment counts', async () => {
    const session = await open(1);
    stripe.onNext('POST', /^\/v1\/invoices\/[^/]+\/void$/, () => {
      expect(stripe.pay(session.clientSecret, BUYER)).toBe(true);
    });
    const response = await change(session, 3);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ error: 'This order has already been paid.' });
    expect(stripe.subscription(session.subscriptionId)?.status).toBe('active');
    // The replacement the change made is cancelled and cannot be paid.
    const replacement = stripe.subscriptionsOf(session.transactionId).find((subscription) => subscription.id !== session.subscriptionId)!;
    expect(replacement.status).toBe('canceled');
    const finalized = await finalize(session);
    expect(finalized.statusCode).toBe(200);
    expect(finalized.json<FinalizeResponse>().success).toBe(true);
    expect(await orderOf(session.transactionId)).toMatchObject({ status: 'paid', quantity: 1, amountCents: 50_000 });
    expect(stripe.customer(session.customerId)).toMatchObject({ email: BUYER.email, name: BUYER.name });
  });

  it('the change moves the order while a finalize of the old subscription runs: nothing unpaid is recorded as paid', async () => {
    const session = await open(1);
    // The change wins the race to the order; the page's finalize of the old subscription answers 404 or 409.
    const [changed, finalized] = await Promise.all([change(session, 3), finalize(session)]);
    expect(changed.statusCode).toBe(200);
    expect([402, 404, 409]).toContain(finalized.statusCode);
    expect(await orderOf(session.transactionId)).toMatchObject({ status: 'open', quantity: 3 });
    expect(await accountsOf(session.transactionId)).toHaveLength(0);
  });
});

describe('the stateful Stripe double behaves as Stripe does', () => {
  let stripe: StatefulStripe;
  beforeAll(async () => {
    stripe = await startStatefulStripe();
  });
  afterAll(() => stripe.close());

  it('replays an idempotency key with the same parameters and refuses it with others; cancels a paid subscription', async () => {
    const client = createStripeClient({ secretKey: TEST_SECRET_KEY, apiBase: stripe.url });
    const first = await client.customers.create({ metadata: { transactionId: 't1' } }, { idempotencyKey: 'k1' });
    const replay = await client.customers.create({ metadata: { transactionId: 't1' } }, { idempotencyKey: 'k1' });
    expect(replay.id).toBe(first.id);
    await expect(client.customers.create({ metadata: { transactionId: 't2' } }, { idempotencyKey: 'k1' })).rejects.toMatchObject({
      type: 'StripeIdempotencyError',
    });
    const prices = await client.prices.list({ lookup_keys: ['chiro_ai_training_monthly'] });
    const subscription = await client.subscriptions.create(
      {
        customer: first.id,
        items: [{ price: prices.data[0]!.id, quantity: 3 }],
        metadata: { transactionId: 't1' },
        expand: ['latest_invoice.confirmation_secret'],
      },
      { idempotencyKey: 'k2' },
    );
    expect(subscription.status).toBe('incomplete');
    const invoice = subscription.latest_invoice as { amount_due: number; confirmation_secret: { client_secret: string } };
    expect(invoice.amount_due).toBe(100_000);
    expect(stripe.pay(invoice.confirmation_secret.client_secret)).toBe(true);
    await expect(client.invoices.voidInvoice(stripe.invoiceOf(subscription.id)!.id)).rejects.toMatchObject({
      type: 'StripeInvalidRequestError',
    });
    expect((await client.subscriptions.cancel(subscription.id)).status).toBe('canceled');
  });
});
