/**
 * POST /api/finalize-from-payment-intent: the payment-success page finalizes from the `payment_intent` and
 * `payment_intent_client_secret` a 3-D Secure redirect appends to the return URL, with the email the buyer paid
 * with (the page's pending-payment record). On the
 * sandbox (its authentication challenge stands in for the redirect), and on Stripe through the local double.
 */
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { FinalizeReturnResponse, SubscriptionSession } from '../../../src/contract/checkout';
import { PRODUCT_NAME } from '../../../src/domain/product';
import { accounts, handoffTokens, orders } from '../../../server/db/schema';
import { DATABASES, finalize, openCheckout, payWithCard, startTestServer, TEST_CARDS, updateBody, type TestServer } from '../helper';
import { fixture, startStripeDouble, type StripeDouble } from '../helpers/stripeDouble';
import { insertStripeOrder, paymentIntentFor, stripeTestEnv, subscriptionFor } from '../helpers/stripeEvents';

const RETURN = '/api/finalize-from-payment-intent';

/** What Stripe appends to the return URL (the PaymentIntent id is the client secret's prefix), and the buyer's email. */
function returnBody(session: Pick<SubscriptionSession, 'clientSecret'>, email = 'ada@example.com') {
  return { paymentIntentId: session.clientSecret.split('_secret_')[0]!, clientSecret: session.clientSecret, email };
}

describe.each(DATABASES)('POST /api/finalize-from-payment-intent with the sandbox on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(() => server.close());

  const accountsOf = (transactionId: string) => server.db.select().from(accounts).where(eq(accounts.transactionId, transactionId));
  const tokensOf = (transactionId: string) => server.db.select().from(handoffTokens).where(eq(handoffTokens.transactionId, transactionId));

  /** Pays `session` with the card that asks for authentication, and completes the challenge. */
  async function payWithAuthentication(session: SubscriptionSession) {
    expect((await payWithCard(server, session.clientSecret, TEST_CARDS.authentication)).json()).toMatchObject({
      status: 'requires_action',
    });
    const completed = await server.post('/api/sandbox/payment-intents/authenticate', {
      clientSecret: session.clientSecret,
      outcome: 'completed',
    });
    expect(completed.json()).toMatchObject({ status: 'succeeded' });
  }

  it('finalizes from the return parameters and answers the record the page stores (spec §3)', async () => {
    const session = await openCheckout(server, 3);
    await payWithAuthentication(session);

    const response = await server.post(RETURN, returnBody(session));

    expect(response.statusCode).toBe(200);
    expect(response.json<FinalizeReturnResponse>()).toEqual({
      success: true,
      token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      loginDetails: { email: 'ada@example.com', password: expect.any(String), productPurchased: PRODUCT_NAME },
      signInLinkEmailed: false,
      seatCount: 3,
      totalAmount: 1000,
      email: 'ada@example.com',
      name: 'Ada Palmer',
      transactionId: session.transactionId,
    });
    const [order] = await server.db.select().from(orders).where(eq(orders.transactionId, session.transactionId));
    expect(order).toMatchObject({ status: 'paid', email: 'ada@example.com', name: 'Ada Palmer' });
    expect(await accountsOf(session.transactionId)).toHaveLength(1);
  });

  it('answers the same credentials on a repeat (a reload of the return page), never a second account', async () => {
    const session = await openCheckout(server, 1);
    await payWithCard(server, session.clientSecret);

    const first = (await server.post(RETURN, returnBody(session))).json<FinalizeReturnResponse>();
    const again = await server.post(RETURN, returnBody(session, ' ADA@example.com '));

    expect(again.statusCode).toBe(200);
    expect(again.json<FinalizeReturnResponse>()).toEqual(first);
    expect(await accountsOf(session.transactionId)).toHaveLength(1);
  });

  it('keeps the details recorded first: the billing details the payment completed the order with', async () => {
    const session = await openCheckout(server, 2);
    await payWithCard(server, session.clientSecret);
    await server.post('/api/finalize-anon-subscription', {
      subscriptionId: session.subscriptionId,
      customerId: session.customerId,
      transactionId: session.transactionId,
      email: 'later@example.com',
      name: 'Later Typed',
    });

    const response = (await server.post(RETURN, returnBody(session))).json<FinalizeReturnResponse>();

    expect(response).toMatchObject({ email: 'ada@example.com', name: 'Ada Palmer', loginDetails: { email: 'ada@example.com' } });
  });

  it("answers 404 'Unknown checkout' when the email is not the one the buyer paid with, and issues nothing", async () => {
    const session = await openCheckout(server, 1);
    await payWithCard(server, session.clientSecret);

    const response = await server.post(RETURN, returnBody(session, 'someone.else@example.com'));

    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'Unknown checkout' });
    expect(await tokensOf(session.transactionId)).toHaveLength(0);
  });

  it("answers 404 'Unknown checkout' when the client secret is not the order's", async () => {
    const session = await openCheckout(server, 1);
    await payWithCard(server, session.clientSecret);

    const response = await server.post(RETURN, {
      ...returnBody(session),
      clientSecret: `${returnBody(session).paymentIntentId}_secret_guessed`,
    });

    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'Unknown checkout' });
    expect(await tokensOf(session.transactionId)).toHaveLength(0);
  });

  it("answers 404 'Unknown checkout' for an unknown PaymentIntent, or one a seat change replaced", async () => {
    const session = await openCheckout(server, 1);
    const unknown = await server.post(RETURN, {
      paymentIntentId: 'pi_sbx_unknown',
      clientSecret: 'pi_sbx_unknown_secret_x',
      email: 'ada@example.com',
    });
    const changed = await server.post('/api/update-anon-subscription-intent', updateBody(session, 2));
    expect(changed.statusCode).toBe(200);
    const replaced = await server.post(RETURN, returnBody(session));

    expect([unknown.statusCode, replaced.statusCode]).toEqual([404, 404]);
    expect(replaced.json()).toEqual({ error: 'Unknown checkout' });
  });

  it('answers 402 before the payment succeeded, and writes nothing', async () => {
    const session = await openCheckout(server, 1);
    await payWithCard(server, session.clientSecret, TEST_CARDS.authentication);

    const response = await server.post(RETURN, returnBody(session));

    // The challenge was never completed, so the PaymentIntent carries the billing details but is not paid.
    expect(response.statusCode).toBe(402);
    expect(response.json()).toEqual({ error: 'Payment has not been completed for this order.' });
    expect(await accountsOf(session.transactionId)).toHaveLength(0);
  });

  it('answers 422 when the payment carries no billing details (nothing was ever confirmed)', async () => {
    const session = await openCheckout(server, 1);
    const response = await server.post(RETURN, returnBody(session));
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ error: 'The payment carries no billing name and email. Please contact support.' });
  });

  it.each([
    ['a missing client secret', { paymentIntentId: 'pi_sbx_1', email: 'ada@example.com' }, 'Client secret is required.'],
    ['a missing email', { paymentIntentId: 'pi_sbx_1', clientSecret: 'pi_sbx_1_secret_1' }, 'Email is required.'],
    [
      'an unknown field',
      { paymentIntentId: 'pi_sbx_1', clientSecret: 'pi_sbx_1_secret_1', email: 'ada@example.com', transactionId: 'x' },
      "This request has an unknown field 'transactionId'.",
    ],
    [
      'a number for the id',
      { paymentIntentId: 1, clientSecret: 'pi_sbx_1_secret_1', email: 'ada@example.com' },
      'Payment intent id must be text.',
    ],
    ['an empty client secret', { paymentIntentId: 'pi_sbx_1', clientSecret: '', email: 'ada@example.com' }, 'Client secret is required.'],
  ])('answers 400 { error } in words for %s', async (_case, body, words) => {
    const response = await server.post(RETURN, body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: words });
  });

  it('still answers the page’s own finalize afterwards', async () => {
    const session = await openCheckout(server, 1);
    await payWithCard(server, session.clientSecret);
    expect((await server.post(RETURN, returnBody(session))).statusCode).toBe(200);
    expect((await finalize(server, session)).statusCode).toBe(200);
    expect(await accountsOf(session.transactionId)).toHaveLength(1);
  });
});

describe.each(DATABASES)('POST /api/finalize-from-payment-intent with Stripe on %s', (kind) => {
  let stripe: StripeDouble;
  let server: TestServer;
  beforeAll(async () => {
    stripe = await startStripeDouble();
    server = await startTestServer(kind, {
      env: stripeTestEnv(stripe.url),
    });
  });
  afterAll(async () => {
    await server.close();
    await stripe.close();
  });
  afterEach(() => {
    const unexpected = [...stripe.unexpected];
    const pending = stripe.pending();
    stripe.reset();
    expect(unexpected).toEqual([]);
    expect(pending).toEqual([]);
  });

  it('reads the buyer from the PaymentIntent’s billing details and finalizes the paid order', async () => {
    const order = await insertStripeOrder(server, 3);
    stripe
      .on(
        'GET',
        `/v1/payment_intents/${order.paymentIntentId}`,
        200,
        paymentIntentFor(order, { name: 'Jane Doe', email: 'jane@example.com' }),
      )
      .on('GET', `/v1/subscriptions/${order.subscriptionId}`, 200, subscriptionFor(order))
      .on('POST', `/v1/customers/${order.customerId}`, 200, fixture('customer-updated'));

    const response = await server.post(RETURN, {
      paymentIntentId: order.paymentIntentId,
      clientSecret: order.clientSecret,
      email: 'jane@example.com',
    });

    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      success: true,
      loginDetails: { email: 'jane@example.com' },
      seatCount: 3,
      totalAmount: 1000,
      email: 'jane@example.com',
      name: 'Jane Doe',
      transactionId: order.transactionId,
    });
    const customerUpdate = stripe.requests.find((request) => request.method === 'POST');
    expect(Object.fromEntries(customerUpdate?.params ?? [])).toEqual({ email: 'jane@example.com', name: 'Jane Doe' });
  });

  it('answers 502 when Stripe cannot be reached, and writes nothing', async () => {
    const order = await insertStripeOrder(server, 1);
    stripe.on('GET', `/v1/payment_intents/${order.paymentIntentId}`, 500, fixture('error-api'), { 'stripe-should-retry': 'false' });

    const response = await server.post(RETURN, {
      paymentIntentId: order.paymentIntentId,
      clientSecret: order.clientSecret,
      email: 'jane@example.com',
    });

    expect(response.statusCode).toBe(502);
    expect(await server.db.select().from(accounts).where(eq(accounts.transactionId, order.transactionId))).toEqual([]);
  });
});
