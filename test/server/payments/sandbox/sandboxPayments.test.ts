import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxSubscriptions } from '../../../../server/db/schema';
import { createSandboxProvider } from '../../../../server/payments/sandbox/provider';
import { DEFAULT_TAX_REGISTRATIONS } from '../../../../src/domain/tax';
import { confirmBody, DATABASES, finalize, openCheckout, payWithCard, startTestServer, TEST_CARDS, type TestServer } from '../../helper';

const CONFIRM = '/api/sandbox/payment-intents/confirm';
const AUTHENTICATE = '/api/sandbox/payment-intents/authenticate';
const AUTH_FAILED = 'We are unable to authenticate your payment method. Please choose a different payment method and try again.';

describe.each(DATABASES)('sandbox payment confirmation on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(() => server.close());

  const intentOf = async (clientSecret: string) =>
    (await server.db.select().from(sandboxSubscriptions).where(eq(sandboxSubscriptions.clientSecret, clientSecret)))[0];

  it('4242 succeeds: the subscription becomes active, paid in full, only the last four digits kept', async () => {
    const session = await openCheckout(server, 3);
    const response = await payWithCard(server, session.clientSecret, TEST_CARDS.succeeds);
    expect(response.statusCode).toBe(200);
    const intent = await intentOf(session.clientSecret);
    expect(response.json()).toEqual({ status: 'succeeded', paymentIntentId: intent!.paymentIntentId });
    expect(intent).toMatchObject({ status: 'active', paymentStatus: 'succeeded', amountPaidCents: 100_000, cardLast4: '4242' });
    expect(JSON.stringify(intent)).not.toContain('4242424242424242');

    const again = await payWithCard(server, session.clientSecret, TEST_CARDS.succeeds);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ status: 'succeeded', paymentIntentId: intent!.paymentIntentId });
  });

  it('keeps the billing name and email with an accepted card, for the provider to read back; a decline clears them', async () => {
    const session = await openCheckout(server, 1);
    await payWithCard(server, session.clientSecret, TEST_CARDS.authentication);
    const intent = await intentOf(session.clientSecret);
    expect(intent).toMatchObject({ billingName: 'Ada Palmer', billingEmail: 'ada@example.com' });
    const provider = createSandboxProvider(server.db, DEFAULT_TAX_REGISTRATIONS);
    await expect(provider.retrievePaymentBuyer(intent!.paymentIntentId)).resolves.toEqual({ name: 'Ada Palmer', email: 'ada@example.com' });
    await expect(provider.retrievePaymentBuyer('pi_sbx_unknown')).resolves.toBeNull();

    await server.post(AUTHENTICATE, { clientSecret: session.clientSecret, outcome: 'failed' });
    expect(await intentOf(session.clientSecret)).toMatchObject({ billingName: null, billingEmail: null });
    await payWithCard(server, session.clientSecret, TEST_CARDS.declined);
    expect(await intentOf(session.clientSecret)).toMatchObject({ billingName: null, billingEmail: null });
  });

  it.each([
    [TEST_CARDS.declined, 'Your card was declined.'],
    [TEST_CARDS.insufficientFunds, 'Your card has insufficient funds.'],
  ])('%s is declined with 402 and the intent stays payable with another card', async (number, message) => {
    const session = await openCheckout(server);
    const declined = await payWithCard(server, session.clientSecret, number);
    expect(declined.statusCode).toBe(402);
    expect(declined.json()).toEqual({ error: message, code: 'card_declined' });
    expect(await intentOf(session.clientSecret)).toMatchObject({ paymentStatus: 'requires_payment_method', amountPaidCents: 0 });
    expect((await finalize(server, session)).statusCode).toBe(402);

    expect((await payWithCard(server, session.clientSecret, TEST_CARDS.succeeds)).statusCode).toBe(200);
    expect((await finalize(server, session)).statusCode).toBe(200);
  });

  it('3155 asks for authentication; completing it pays, and finalize then succeeds', async () => {
    const session = await openCheckout(server, 2);
    const challenged = await payWithCard(server, session.clientSecret, TEST_CARDS.authentication);
    expect(challenged.statusCode).toBe(200);
    expect(challenged.json()).toMatchObject({ status: 'requires_action' });
    expect(await intentOf(session.clientSecret)).toMatchObject({ paymentStatus: 'requires_action', status: 'incomplete' });
    expect((await finalize(server, session)).statusCode).toBe(402);

    const completed = await server.post(AUTHENTICATE, { clientSecret: session.clientSecret, outcome: 'completed' });
    expect(completed.statusCode).toBe(200);
    expect(completed.json()).toEqual({ status: 'succeeded', paymentIntentId: challenged.json().paymentIntentId });
    expect(await intentOf(session.clientSecret)).toMatchObject({ status: 'active', amountPaidCents: 50_000, cardLast4: '3155' });
    expect((await finalize(server, session)).statusCode).toBe(200);
  });

  it('3155 failed authentication answers 402 and the intent can be paid with another card', async () => {
    const session = await openCheckout(server);
    await payWithCard(server, session.clientSecret, TEST_CARDS.authentication);
    const failed = await server.post(AUTHENTICATE, { clientSecret: session.clientSecret, outcome: 'failed' });
    expect(failed.statusCode).toBe(402);
    expect(failed.json()).toEqual({ error: AUTH_FAILED, code: 'payment_intent_authentication_failure' });
    expect(await intentOf(session.clientSecret)).toMatchObject({ paymentStatus: 'requires_payment_method', cardLast4: null });
    expect((await finalize(server, session)).statusCode).toBe(402);
    expect((await payWithCard(server, session.clientSecret)).statusCode).toBe(200);
  });

  it('authenticates only an intent that waits for it', async () => {
    const session = await openCheckout(server);
    const early = await server.post(AUTHENTICATE, { clientSecret: session.clientSecret, outcome: 'completed' });
    expect(early.statusCode).toBe(400);
    expect(early.json()).toEqual({ error: expect.any(String) });
    expect(await intentOf(session.clientSecret)).toMatchObject({ paymentStatus: 'requires_payment_method' });
    const unknown = await server.post(AUTHENTICATE, { clientSecret: 'pi_sbx_x_secret_y', outcome: 'completed' });
    expect(unknown.statusCode).toBe(404);
    const badOutcome = await server.post(AUTHENTICATE, { clientSecret: session.clientSecret, outcome: 'maybe' });
    expect(badOutcome.statusCode).toBe(400);
  });

  it('answers 404 for an unknown client secret', async () => {
    const response = await server.post(CONFIRM, confirmBody('pi_sbx_nope_secret_nope'));
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: expect.any(String) });
  });

  it.each([
    ['a real card', { number: '5555 5555 5555 4444' }, 'Sandbox mode accepts test cards only.'],
    ['a number failing Luhn', { number: '4242 4242 4242 4241' }, 'Your card number is invalid.'],
    ['a past expiry', { expMonth: 1, expYear: 2020 }, "Your card's expiration date is in the past."],
    ['a two-digit CVC', { cvc: '12' }, "Your card's security code is incomplete."],
    ['letters in the number', { number: '4242-4242-4242-4242' }, undefined],
    ['a month 13', { expMonth: 13 }, undefined],
    ['an extra card field', { holder: 'Ada' }, undefined],
  ])('refuses %s with 400 and leaves the intent unpaid', async (_, cardChange, message) => {
    const session = await openCheckout(server);
    const body = confirmBody(session.clientSecret);
    const response = await server.post(CONFIRM, { ...body, card: { ...body.card, ...cardChange } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: message ?? expect.any(String) });
    expect(await intentOf(session.clientSecret)).toMatchObject({ paymentStatus: 'requires_payment_method', cardLast4: null });
  });

  it('pays once when two confirmations race', async () => {
    const session = await openCheckout(server);
    const responses = await Promise.all([payWithCard(server, session.clientSecret), payWithCard(server, session.clientSecret)]);
    expect(responses.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(await intentOf(session.clientSecret)).toMatchObject({ amountPaidCents: 50_000 });
  });

  describe('with another provider', () => {
    let stripeNamed: TestServer;
    beforeAll(async () => {
      stripeNamed = await server.derive({ wrapProvider: (sandbox) => ({ ...sandbox, name: 'stripe' }) });
    });
    afterAll(() => stripeNamed.close());

    it('the sandbox routes are not registered', async () => {
      const response = await stripeNamed.post(CONFIRM, confirmBody('pi_sbx_x_secret_y'));
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: expect.any(String) });
    });
  });
});
