/**
 * Card testing contained (sandbox): a checkout takes at most three refused confirmations, then its payment is
 * closed, also across seat changes; an address opens a bounded number of checkouts per hour and sends a bounded
 * number of confirmations per minute, and after 3 refusals in an hour it must solve a proof-of-work challenge for
 * every further checkout, while other addresses are not affected. On PGlite and PostgreSQL.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { solveChallenge } from 'altcha-lib';
import { orders } from '../../../../server/db/schema';
import { CHALLENGE_REQUIRED } from '../../../../server/payments/sandbox/routes';
import {
  confirmBody,
  createBody,
  DATABASES,
  openCheckout,
  payWithCard,
  startTestServer,
  TEST_CARDS,
  updateBody,
  type TestServer,
} from '../../helper';

describe.each(DATABASES)('card testing on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(() => server.close());

  it('closes a checkout’s payment after three refused confirmations, even for a good card or after a seat change', async () => {
    const session = await openCheckout(server, 1);
    expect((await payWithCard(server, session.clientSecret, TEST_CARDS.declined)).statusCode).toBe(402);
    expect((await payWithCard(server, session.clientSecret, TEST_CARDS.insufficientFunds)).statusCode).toBe(402);
    await payWithCard(server, session.clientSecret, TEST_CARDS.authentication);
    const failedAuthentication = await server.post('/api/sandbox/payment-intents/authenticate', {
      clientSecret: session.clientSecret,
      outcome: 'failed',
    });
    expect(failedAuthentication.statusCode).toBe(402);

    const good = await payWithCard(server, session.clientSecret, TEST_CARDS.succeeds);
    expect(good.statusCode).toBe(402);
    expect(good.json()).toEqual({
      error: 'This payment was declined too many times. Please refresh the page to start again.',
      code: 'too_many_attempts',
    });

    const changed = await server.post('/api/update-anon-subscription-intent', updateBody(session, 2));
    expect(changed.statusCode).toBe(200);
    expect((await payWithCard(server, changed.json<{ clientSecret: string }>().clientSecret, TEST_CARDS.succeeds)).statusCode).toBe(402);
    const [order] = await server.db.select().from(orders).where(eq(orders.transactionId, session.transactionId));
    expect(order!.status).toBe('open');

    const fresh = await openCheckout(server, 1);
    expect((await payWithCard(server, fresh.clientSecret, TEST_CARDS.succeeds)).statusCode).toBe(200);
  });

  it('still lets a buyer pay after two declines', async () => {
    const session = await openCheckout(server, 1);
    await payWithCard(server, session.clientSecret, TEST_CARDS.declined);
    await payWithCard(server, session.clientSecret, TEST_CARDS.declined);
    expect((await payWithCard(server, session.clientSecret, TEST_CARDS.succeeds)).json()).toMatchObject({ status: 'succeeded' });
  });

  describe('with 3 checkouts an hour and 2 confirmations a minute per address', () => {
    let limited: TestServer;
    beforeAll(async () => {
      limited = await server.derive({ env: { CHECKOUTS_PER_HOUR: '3', CONFIRMATIONS_PER_MINUTE: '2' } });
    });
    afterAll(() => limited.close());

    const from = (remoteAddress: string, url: string, body: unknown) =>
      limited.app.inject({
        method: 'POST',
        url,
        remoteAddress,
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      });

    it('refuses a fourth checkout from one address, not from another', async () => {
      const statuses = [];
      for (let i = 0; i < 4; i += 1)
        statuses.push((await from('198.51.100.1', '/api/create-anon-subscription-intent', createBody())).statusCode);
      expect(statuses).toEqual([200, 200, 200, 429]);
      expect((await from('198.51.100.2', '/api/create-anon-subscription-intent', createBody())).statusCode).toBe(200);
    });

    it('refuses a third confirmation within a minute from one address, not from another', async () => {
      const session = (await from('198.51.100.3', '/api/create-anon-subscription-intent', createBody())).json<{ clientSecret: string }>();
      const confirm = (address: string) =>
        from(address, '/api/sandbox/payment-intents/confirm', confirmBody(session.clientSecret, TEST_CARDS.declined));
      const statuses = [
        (await confirm('198.51.100.4')).statusCode,
        (await confirm('198.51.100.4')).statusCode,
        (await confirm('198.51.100.4')).statusCode,
      ];
      expect(statuses).toEqual([402, 402, 429]);
      expect((await confirm('198.51.100.5')).statusCode).toBe(402);
    });
  });

  describe('with a challenge after 3 refusals per address', () => {
    let guarded: TestServer;
    beforeAll(async () => {
      guarded = await server.derive({ env: { DECLINES_BEFORE_CHALLENGE: '3' } });
    });
    afterAll(() => guarded.close());

    const from = (remoteAddress: string, url: string, body: unknown) =>
      guarded.app.inject({
        method: 'POST',
        url,
        remoteAddress,
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      });
    const newCheckout = async (address: string) =>
      (await from(address, '/api/create-anon-subscription-intent', createBody())).json<{ clientSecret: string; transactionId: string }>();
    const confirm = (address: string, clientSecret: string, card: string, challenge?: string) =>
      from(address, '/api/sandbox/payment-intents/confirm', { ...confirmBody(clientSecret, card), ...(challenge ? { challenge } : {}) });

    /** Solves a 428's challenge as the card form does. */
    async function solved(response: { json: () => unknown }): Promise<string> {
      const { challenge } = response.json() as {
        challenge: { algorithm: string; challenge: string; maxnumber: number; salt: string; signature: string };
      };
      const solution = await solveChallenge(challenge.challenge, challenge.salt, challenge.algorithm, challenge.maxnumber).promise;
      return Buffer.from(JSON.stringify({ ...challenge, number: solution!.number })).toString('base64');
    }

    it('asks an address with 3 refusals this hour for proof of work before any card, and takes a solved one once per checkout', async () => {
      const tester = '198.51.100.20';
      for (let i = 0; i < 3; i += 1) {
        const session = await newCheckout(tester);
        expect((await confirm(tester, session.clientSecret, TEST_CARDS.declined)).statusCode).toBe(402);
      }
      const next = await newCheckout(tester);
      const asked = await confirm(tester, next.clientSecret, TEST_CARDS.succeeds);
      expect(asked.statusCode).toBe(428);
      expect(asked.json()).toMatchObject({ error: CHALLENGE_REQUIRED, challenge: { algorithm: 'SHA-256' } });
      const [unpaid] = await guarded.db.select().from(orders).where(eq(orders.transactionId, next.transactionId));
      expect(unpaid!.status).toBe('open');

      expect((await confirm(tester, next.clientSecret, TEST_CARDS.succeeds, 'bm90IGEgc29sdXRpb24=')).statusCode).toBe(428);
      const other = await newCheckout(tester);
      const solvedForOther = await solved(await confirm(tester, other.clientSecret, TEST_CARDS.succeeds));
      expect((await confirm(tester, next.clientSecret, TEST_CARDS.succeeds, solvedForOther)).statusCode).toBe(428);

      const solution = await solved(asked);
      const paid = await confirm(tester, next.clientSecret, TEST_CARDS.succeeds, solution);
      expect(paid.statusCode).toBe(200);
      expect(paid.json()).toMatchObject({ status: 'succeeded' });
    });

    it('leaves other addresses alone, and counts failed authentications as refusals', async () => {
      const buyer = '198.51.100.21';
      const session = await newCheckout(buyer);
      expect((await confirm(buyer, session.clientSecret, TEST_CARDS.succeeds)).statusCode).toBe(200);

      const other = '198.51.100.22';
      for (let i = 0; i < 3; i += 1) {
        const attempt = await newCheckout(other);
        expect((await confirm(other, attempt.clientSecret, TEST_CARDS.authentication)).statusCode).toBe(200);
        const failed = await from(other, '/api/sandbox/payment-intents/authenticate', {
          clientSecret: attempt.clientSecret,
          outcome: 'failed',
        });
        expect(failed.statusCode).toBe(402);
      }
      const after = await newCheckout(other);
      expect((await confirm(other, after.clientSecret, TEST_CARDS.succeeds)).statusCode).toBe(428);
    });
  });
});
