import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FinalizeResponse, TaxQuote } from '../../../src/contract/checkout';
import { PRODUCT_NAME } from '../../../src/domain/product';
import { handoffTokens } from '../../../server/db/schema';
import { hashHandoffToken } from '../../../server/security/handoffToken';
import {
  completePurchase,
  DATABASES,
  finalize,
  handedOut,
  HANDOFF_KEY,
  locateBody,
  openCheckout,
  payWithCard,
  startTestServer,
  type TestServer,
} from '../helper';

const REDEEM = '/api/handoff/redeem';
const UNUSABLE = { error: 'This hand-off token is invalid, expired or already used.' };

describe.each(DATABASES)('POST /api/handoff/redeem on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(() => server.close());

  const redeem = (token: string, key = HANDOFF_KEY) => server.post(REDEEM, { token }, { authorization: `Bearer ${key}` });

  it('returns the order once, then 410', async () => {
    const { session, finalized } = await completePurchase(server, 4);
    const first = await redeem(finalized.token);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({
      transactionId: session.transactionId,
      email: 'ada@example.com',
      name: 'Ada Palmer',
      role: 'buyer',
      seatNumber: 1,
      seats: 4,
      monthlyTotalCents: 150_000,
      monthlyTaxCents: 0,
      taxState: null,
      productPurchased: PRODUCT_NAME,
      paidAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    const second = await redeem(finalized.token);
    expect(second.statusCode).toBe(410);
    expect(second.json()).toEqual(UNUSABLE);
  });

  it('answers a Honolulu order with its monthly amount before tax, its Hawaii tax and the state apart', async () => {
    const opened = await openCheckout(server, 3);
    const located = await server.post('/api/locate-anon-subscription', locateBody(opened, '96813'));
    expect(located.statusCode, located.body).toBe(200);
    const session = { ...opened, ...located.json<TaxQuote>() };
    expect((await payWithCard(server, session.clientSecret)).statusCode).toBe(200);
    const finalized = await finalize(server, session);
    expect(finalized.statusCode, finalized.body).toBe(200);
    const redeemed = await redeem(handedOut(finalized.json<FinalizeResponse>()).token);
    expect(redeemed.statusCode).toBe(200);
    // 4.712 % of $1,000 (docs/decisions/0070), as the webhooks and the manage page say it.
    expect(redeemed.json()).toMatchObject({ seats: 3, monthlyTotalCents: 100_000, monthlyTaxCents: 4_712, taxState: 'HI' });
  });

  it('redeems once when two redemptions race', async () => {
    const { finalized } = await completePurchase(server);
    const responses = await Promise.all([redeem(finalized.token), redeem(finalized.token)]);
    expect(responses.map((r) => r.statusCode).sort()).toEqual([200, 410]);
  });

  it('answers 410 for an expired token', async () => {
    const { finalized } = await completePurchase(server);
    await server.db
      .update(handoffTokens)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(handoffTokens.tokenHash, hashHandoffToken(finalized.token)));
    const response = await redeem(finalized.token);
    expect(response.statusCode).toBe(410);
    expect(response.json()).toEqual(UNUSABLE);
  });

  it('answers 410 for an unknown token', async () => {
    expect((await redeem('not-a-token')).statusCode).toBe(410);
  });

  it.each([
    ['a wrong key', { authorization: `Bearer ${'x'.repeat(HANDOFF_KEY.length)}` }],
    ['no key', {}],
    ['a key without the Bearer scheme', { authorization: HANDOFF_KEY }],
  ])('answers 401 for %s and leaves the token redeemable', async (_, headers) => {
    const { finalized } = await completePurchase(server);
    const response = await server.post(REDEEM, { token: finalized.token }, headers);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ error: expect.any(String) });
    expect((await redeem(finalized.token)).statusCode).toBe(200);
  });

  it('answers 400 for a body without a token', async () => {
    const response = await server.post(REDEEM, { tokens: 'x' }, { authorization: `Bearer ${HANDOFF_KEY}` });
    expect(response.statusCode).toBe(400);
  });

  describe('without HANDOFF_API_KEY', () => {
    let keyless: TestServer;
    beforeAll(async () => {
      keyless = await server.derive({ env: { HANDOFF_API_KEY: '' } });
    });
    afterAll(() => keyless.close());

    it('answers 503', async () => {
      const response = await keyless.post(REDEEM, { token: 'x' }, { authorization: 'Bearer anything' });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({ error: 'Hand-off redemption is not configured.' });
    });
  });
});
