import { verify } from '@node-rs/argon2';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FinalizeResponse } from '../../../src/contract/checkout';
import { PRODUCT_NAME } from '../../../src/domain/product';
import { accounts, handoffTokens, orders, outbox, sandboxCustomers } from '../../../server/db/schema';
import { reconcileOrders } from '../../../server/checkout/reconcileOrders';
import { hashHandoffToken } from '../../../server/security/handoffToken';
import {
  completePurchase,
  DATABASES,
  finalize,
  finalizeBody,
  HANDOFF_KEY,
  handedOut,
  openCheckout,
  payWithCard,
  startTestServer,
  testCipher,
  type TestServer,
} from '../helper';

const FINALIZE = '/api/finalize-anon-subscription';

/** The answer once the first hand-off window has passed (docs/decisions/0026): no credentials, a link mailed. */
const WITHOUT_CREDENTIALS: FinalizeResponse = { success: true, token: null, loginDetails: null, signInLinkEmailed: true };

describe.each(DATABASES)('POST /api/finalize-anon-subscription on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(() => server.close());

  const accountOf = async (transactionId: string) => server.db.select().from(accounts).where(eq(accounts.transactionId, transactionId));
  const tokensOf = async (transactionId: string) =>
    server.db.select().from(handoffTokens).where(eq(handoffTokens.transactionId, transactionId));
  const redeem = (token: string) => server.post('/api/handoff/redeem', { token }, { authorization: `Bearer ${HANDOFF_KEY}` });
  const signInMailsOf = async (transactionId: string) =>
    (await server.db.select().from(outbox).where(eq(outbox.transactionId, transactionId))).filter((row) => row.topic === 'account_link');
  const expireTokensOf = (transactionId: string) =>
    server.db
      .update(handoffTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(handoffTokens.transactionId, transactionId));

  it('creates the account once the card payment succeeded and hands over credentials and a token', async () => {
    const session = await openCheckout(server, 3);
    expect((await payWithCard(server, session.clientSecret)).json()).toMatchObject({ status: 'succeeded' });
    const response = await server.post(FINALIZE, finalizeBody(session, { email: '  ada@example.com ', name: ' Ada Palmer ' }));
    expect(response.statusCode).toBe(200);
    const body = handedOut(response.json<FinalizeResponse>());
    expect(body).toEqual({
      success: true,
      token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      loginDetails: { email: 'ada@example.com', password: expect.any(String), productPurchased: PRODUCT_NAME },
      signInLinkEmailed: false,
    });
    expect(body.loginDetails.password.length).toBeGreaterThanOrEqual(16);
    expect(body.loginDetails.password).toMatch(/^[A-Za-z0-9]+$/);

    const [account, ...more] = await accountOf(session.transactionId);
    expect(more).toHaveLength(0);
    expect(account).toMatchObject({ email: 'ada@example.com', name: 'Ada Palmer' });
    expect(account!.passwordHash).toMatch(/^\$argon2id\$v=19\$m=1024,t=1,p=1\$/);
    expect(account!.passwordHash).not.toContain(body.loginDetails.password);
    expect(await verify(account!.passwordHash!, body.loginDetails.password)).toBe(true);

    const [order] = await server.db.select().from(orders).where(eq(orders.transactionId, session.transactionId));
    expect(order).toMatchObject({ status: 'paid', email: 'ada@example.com', name: 'Ada Palmer' });
    expect(order!.paidAt).toBeInstanceOf(Date);
    const [token] = await tokensOf(session.transactionId);
    expect(token!.tokenHash).toBe(hashHandoffToken(body.token));
    const ttlMinutes = (token!.expiresAt.getTime() - token!.createdAt.getTime()) / 60_000;
    expect(ttlMinutes).toBeCloseTo(30, 1);

    const [customer] = await server.db.select().from(sandboxCustomers).where(eq(sandboxCustomers.id, session.customerId));
    expect(customer).toMatchObject({ email: 'ada@example.com', name: 'Ada Palmer' });
  });

  it('answers 402 and writes nothing before the payment succeeded', async () => {
    const session = await openCheckout(server, 1);
    const response = await finalize(server, session);
    expect(response.statusCode).toBe(402);
    expect(response.json()).toEqual({ error: 'Payment has not been completed for this order.' });
    expect(await accountOf(session.transactionId)).toHaveLength(0);
    expect(await tokensOf(session.transactionId)).toHaveLength(0);
    const [order] = await server.db.select().from(orders).where(eq(orders.transactionId, session.transactionId));
    expect(order).toMatchObject({ status: 'open', email: null, paidAt: null });
  });

  it('answers 402 after a declined card', async () => {
    const session = await openCheckout(server, 1);
    expect((await payWithCard(server, session.clientSecret, '4000000000000002')).statusCode).toBe(402);
    expect((await finalize(server, session)).statusCode).toBe(402);
    expect(await accountOf(session.transactionId)).toHaveLength(0);
  });

  it('answers 404 Unknown checkout for ids that do not belong together', async () => {
    const { session } = await completePurchase(server);
    const other = await openCheckout(server);
    for (const body of [
      { ...finalizeBody(session), transactionId: '00000000-0000-0000-0000-000000000000' },
      { ...finalizeBody(session), subscriptionId: other.subscriptionId },
      { ...finalizeBody(session), customerId: other.customerId },
      finalizeBody({ ...other, subscriptionId: session.subscriptionId, customerId: session.customerId }),
    ]) {
      const response = await server.post(FINALIZE, body);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: 'Unknown checkout' });
    }
    expect(await accountOf(other.transactionId)).toHaveLength(0);
  });

  it('answers the same credentials and token on a repeat while the token is live: one account, nothing rotated', async () => {
    const { session, finalized: first } = await completePurchase(server);
    // The same buyer: the email compares without regard to case; the name recorded first is kept.
    const repeat = await server.post(FINALIZE, finalizeBody(session, { email: 'ADA@Example.com', name: 'Someone Else' }));
    expect(repeat.statusCode).toBe(200);
    const second = repeat.json<FinalizeResponse>();
    expect(second).toEqual(first);
    expect(second.loginDetails).toMatchObject({ email: 'ada@example.com', productPurchased: PRODUCT_NAME });

    const rows = await accountOf(session.transactionId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ email: 'ada@example.com', name: 'Ada Palmer' });
    expect(await verify(rows[0]!.passwordHash!, first.loginDetails.password)).toBe(true);
    expect(await tokensOf(session.transactionId)).toHaveLength(1);
    expect((await redeem(first.token)).statusCode).toBe(200);
  });

  it('keeps the password and token only encrypted, and wipes them when the token is redeemed', async () => {
    const { session, finalized } = await completePurchase(server);
    const [account] = await accountOf(session.transactionId);
    const [token] = await tokensOf(session.transactionId);
    expect(account!.passwordCiphertext).toMatch(/^v1\./);
    expect(account!.passwordCiphertext).not.toContain(finalized.loginDetails.password);
    expect(server.cipher.decrypt(account!.passwordCiphertext!, session.transactionId)).toBe(finalized.loginDetails.password);
    expect(server.cipher.decrypt(token!.tokenCiphertext!, session.transactionId)).toBe(finalized.token);
    expect(() => server.cipher.decrypt(account!.passwordCiphertext!, 'another-order')).toThrow();

    expect((await redeem(finalized.token)).statusCode).toBe(200);
    const [wipedAccount] = await accountOf(session.transactionId);
    const [wipedToken] = await tokensOf(session.transactionId);
    expect(wipedAccount!.passwordCiphertext).toBeNull();
    expect(wipedToken!.tokenCiphertext).toBeNull();
    expect(await verify(wipedAccount!.passwordHash!, finalized.loginDetails.password)).toBe(true);
  });

  it('the ids and another email after the window get neither a password nor the account', async () => {
    const { session, finalized } = await completePurchase(server);
    await expireTokensOf(session.transactionId);
    const [before] = await accountOf(session.transactionId);
    const response = await server.post(FINALIZE, finalizeBody(session, { email: 'mallory@evil.example', name: 'Mallory' }));
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ error: 'This email is not the one this order was paid with.' });
    const [after] = await accountOf(session.transactionId);
    expect(after).toEqual(before);
    expect(await verify(after!.passwordHash!, finalized.loginDetails.password)).toBe(true);
    expect(await tokensOf(session.transactionId)).toHaveLength(1);
    expect(await signInMailsOf(session.transactionId)).toHaveLength(0);
  });

  it('refuses another email within the window too, answering nothing and changing nothing', async () => {
    const { session, finalized } = await completePurchase(server);
    const response = await server.post(FINALIZE, finalizeBody(session, { email: 'other@example.com', name: 'Ada Palmer' }));
    expect(response.statusCode).toBe(403);
    expect(response.body).not.toContain(finalized.loginDetails.password);
    expect((await finalize(server, session)).json<FinalizeResponse>()).toEqual(finalized);
  });

  it('refuses a first finalize whose email is not the billing email the payment recorded', async () => {
    const session = await openCheckout(server, 1);
    await payWithCard(server, session.clientSecret);
    // As with Stripe before its webhook: the order holds no buyer yet, the payment's billing details do.
    await server.db.update(orders).set({ email: null, name: null }).where(eq(orders.transactionId, session.transactionId));
    const refused = await server.post(FINALIZE, finalizeBody(session, { email: 'mallory@evil.example', name: 'Mallory' }));
    expect(refused.statusCode).toBe(403);
    const [untouched] = await accountOf(session.transactionId);
    expect(untouched).toMatchObject({ passwordHash: null, passwordCiphertext: null });
    expect(await tokensOf(session.transactionId)).toHaveLength(0);

    const first = handedOut((await finalize(server, session)).json<FinalizeResponse>());
    const [account] = await accountOf(session.transactionId);
    expect(await verify(account!.passwordHash!, first.loginDetails.password)).toBe(true);
  });

  it('answers no credentials when the kept ones no longer decrypt (the key was replaced); the password stays', async () => {
    const { session, finalized: first } = await completePurchase(server);
    const otherKey = await server.derive({ cipher: testCipher() });
    const second = await finalize(otherKey, session);
    await otherKey.close();
    expect(second.statusCode).toBe(200);
    expect(second.json()).toEqual(WITHOUT_CREDENTIALS);
    const [account] = await accountOf(session.transactionId);
    expect(await verify(account!.passwordHash!, first.loginDetails.password)).toBe(true);
    expect((await redeem(first.token)).statusCode).toBe(200);
  });

  it('after the window: no password issued or answered, the buyer’s still works, one sign-in link mail an hour', async () => {
    const { session, finalized: first } = await completePurchase(server);
    const { session: live } = await completePurchase(server);
    await expireTokensOf(session.transactionId);
    const report = await reconcileOrders(server.context());
    expect(report.wipedCredentials).toBeGreaterThanOrEqual(1);
    const [wiped] = await accountOf(session.transactionId);
    expect(wiped!.passwordCiphertext).toBeNull();
    // Another order's live credentials stay.
    expect((await accountOf(live.transactionId))[0]!.passwordCiphertext).toMatch(/^v1\./);
    expect((await tokensOf(live.transactionId))[0]!.tokenCiphertext).toMatch(/^v1\./);
    expect((await tokensOf(session.transactionId))[0]!.tokenCiphertext).toBeNull();

    for (let repeat = 0; repeat < 3; repeat += 1) {
      const response = await finalize(server, session);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual(WITHOUT_CREDENTIALS);
    }
    const [account] = await accountOf(session.transactionId);
    expect(account!.passwordHash).toBe(wiped!.passwordHash);
    expect(await verify(account!.passwordHash!, first.loginDetails.password)).toBe(true);
    expect(await tokensOf(session.transactionId)).toHaveLength(1);
    expect((await redeem(first.token)).statusCode).toBe(410);
    const mails = await signInMailsOf(session.transactionId);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ kind: 'mail', status: 'pending', payload: {} });
    expect(await signInMailsOf(live.transactionId)).toHaveLength(0);
  });

  it('answers every racing finalize with the same working credentials and creates one account', async () => {
    const session = await openCheckout(server, 2);
    await payWithCard(server, session.clientSecret);
    const responses = await Promise.all(Array.from({ length: 8 }, () => finalize(server, session)));
    expect(responses.map((r) => r.statusCode)).toEqual(Array(8).fill(200));
    const bodies = responses.map((r) => handedOut(r.json<FinalizeResponse>()));
    expect(new Set(bodies.map((body) => body.loginDetails.password)).size).toBe(1);
    expect(new Set(bodies.map((body) => body.token)).size).toBe(1);
    expect(await accountOf(session.transactionId)).toHaveLength(1);
    expect((await tokensOf(session.transactionId)).filter((t) => !t.revokedAt)).toHaveLength(1);
    const [account] = await accountOf(session.transactionId);
    expect(await verify(account!.passwordHash!, bodies[0]!.loginDetails.password)).toBe(true);
  });

  it('answers the order’s success without credentials once the hand-off token was redeemed, changing no password', async () => {
    const { session, finalized } = await completePurchase(server);
    expect((await redeem(finalized.token)).statusCode).toBe(200);
    const [before] = await accountOf(session.transactionId);
    const response = await finalize(server, session);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(WITHOUT_CREDENTIALS);
    const [after] = await accountOf(session.transactionId);
    expect(after!.passwordHash).toBe(before!.passwordHash);
    expect(await verify(after!.passwordHash!, finalized.loginDetails.password)).toBe(true);
    expect(await tokensOf(session.transactionId)).toHaveLength(1);
    expect(await signInMailsOf(session.transactionId)).toHaveLength(1);
  });

  it.each([
    ['an invalid email', { email: 'ada@example' }, 'Email is invalid'],
    ['an email with a space', { email: 'ada palmer@example.com' }, 'Email is invalid'],
    ['a blank name', { name: '   ' }, 'Name is required'],
    ['an empty name', { name: '' }, undefined],
    ['a 201-character name', { name: 'a'.repeat(201) }, undefined],
    ['an extra field', { password: 'chosen' }, undefined],
    ['a numeric email', { email: 42 }, undefined],
  ])('answers 400 and issues no credentials for %s', async (_, change, message) => {
    const session = await openCheckout(server);
    await payWithCard(server, session.clientSecret);
    const response = await server.post(FINALIZE, { ...finalizeBody(session), ...change });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: message ?? expect.any(String) });
    // The payment itself completed the order (one account, no password yet); the refused finalize added nothing.
    const [account, ...more] = await accountOf(session.transactionId);
    expect(more).toHaveLength(0);
    expect(account).toMatchObject({ passwordHash: null, passwordCiphertext: null, email: 'ada@example.com' });
    expect(await tokensOf(session.transactionId)).toHaveLength(0);
  });

  it('answers 400 for a missing field', async () => {
    const session = await openCheckout(server);
    const { email: _, ...body } = finalizeBody(session);
    const response = await server.post(FINALIZE, body);
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe('Email is required.');
  });

  describe('when the provider reports a wrong amount', () => {
    let misreporting: TestServer;
    beforeAll(async () => {
      misreporting = await server.derive({
        wrapProvider: (sandbox) => ({
          ...sandbox,
          async retrieveSubscriptionPayment(id) {
            const payment = await sandbox.retrieveSubscriptionPayment(id);
            const invoice = payment?.firstInvoice;
            return payment && invoice ? { ...payment, firstInvoice: { ...invoice, amountPaidCents: 100 } } : payment;
          },
        }),
      });
    });
    afterAll(() => misreporting.close());

    it('answers 402 when the amount paid is not the price of the seats', async () => {
      const session = await openCheckout(misreporting, 1);
      await payWithCard(misreporting, session.clientSecret);
      expect((await finalize(misreporting, session)).statusCode).toBe(402);
      expect(await accountOf(session.transactionId)).toHaveLength(0);
    });
  });
});
