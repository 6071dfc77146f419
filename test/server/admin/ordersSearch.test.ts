/**
 * The console's orders found by buyer and without the checkouts nobody paid: `buyer` matches part of the email or
 * the name in any case, its `%`, `_` and `\` taken literally; an unfiltered list and its CSV leave out unpaid
 * checkouts unless `unpaid=shown` (or the "Not paid" status) asks for them; bad parameters are a 400 in words. On
 * PGlite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveOwner } from '../../../server/admin/owners';
import type { OrderRow } from '../../../src/contract/admin';
import { confirmBody, DATABASES, openCheckout, startTestServer, type TestServer } from '../helper';

const OWNER = { email: 'search-owner@example.com', password: 'correct horse battery staple' };

describe.each(DATABASES)("the console's orders search on %s", (kind) => {
  let server: TestServer;
  let owner: string;
  let grace: string;
  let ada: string;
  let unpaid: string;

  /** Buys one seat as `buyer`, paid and finalized. */
  async function buy(buyer: { email: string; name: string }) {
    const session = await openCheckout(server, 1);
    const paid = await server.post('/api/sandbox/payment-intents/confirm', confirmBody(session.clientSecret, undefined, buyer));
    expect(paid.statusCode, paid.body).toBe(200);
    const finalized = await server.post('/api/finalize-anon-subscription', {
      subscriptionId: session.subscriptionId,
      customerId: session.customerId,
      transactionId: session.transactionId,
      ...buyer,
    });
    expect(finalized.statusCode, finalized.body).toBe(200);
    return session.transactionId;
  }

  beforeAll(async () => {
    server = await startTestServer(kind);
    await saveOwner(server.db, OWNER.email, OWNER.password);
    const signedIn = await server.post('/api/admin/sign-in', OWNER);
    owner = `owner_session=${signedIn.cookies.find((each) => each.name === 'owner_session')!.value}`;
    grace = await buy({ email: 'grace.hopper@navy.example', name: 'Grace 100% Hopper' });
    ada = await buy({ email: 'ada@example.com', name: 'Ada Palmer' });
    unpaid = (await openCheckout(server, 2)).transactionId;
  });
  afterAll(() => server.close());

  const get = (url: string) => server.app.inject({ method: 'GET', url, headers: { cookie: owner } });
  const listed = async (query: string) => {
    const response = await get(`/api/admin/orders${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response
      .json<{ orders: OrderRow[] }>()
      .orders.map((row) => row.transactionId)
      .sort();
  };
  const sorted = (...ids: string[]) => [...ids].sort();

  it('leaves unpaid checkouts out unless the owner asks for them', async () => {
    expect(await listed('')).toEqual(sorted(grace, ada));
    expect(await listed('?unpaid=shown')).toEqual(sorted(grace, ada, unpaid));
    expect(await listed('?status=open')).toEqual([unpaid]);
    expect(await listed('?status=active')).toEqual(sorted(grace, ada));
  });

  it("finds orders by part of the buyer's email or name, in any case, taking %, _ and \\ literally", async () => {
    expect(await listed('?buyer=GRACE')).toEqual([grace]);
    expect(await listed('?buyer=hopper%40navy')).toEqual([grace]);
    expect(await listed('?buyer=%20palm%20')).toEqual([ada]);
    expect(await listed(`?buyer=${encodeURIComponent('100%')}`)).toEqual([grace]);
    expect(await listed(`?buyer=${encodeURIComponent('%')}`)).toEqual([grace]);
    expect(await listed('?buyer=_')).toEqual([]);
    expect(await listed(`?buyer=${encodeURIComponent('\\')}`)).toEqual([]);
    expect(await listed('?buyer=ada&status=active')).toEqual([ada]);
    expect(await listed('?buyer=nobody')).toEqual([]);
  });

  it('exports the same orders as CSV', async () => {
    const all = await get('/api/admin/orders.csv');
    expect(all.statusCode).toBe(200);
    expect(all.body).toContain(grace);
    expect(all.body).toContain(ada);
    expect(all.body).not.toContain(unpaid);
    expect((await get('/api/admin/orders.csv?unpaid=shown')).body).toContain(unpaid);
    const found = await get('/api/admin/orders.csv?buyer=grace');
    expect(found.body).toContain(grace);
    expect(found.body).not.toContain(ada);
  });

  it('refuses bad parameters with a 400 in words', async () => {
    for (const [query, error] of [
      [`?buyer=${'a'.repeat(255)}`, 'Buyer must be at most 254 characters.'],
      ['?buyer=', 'Buyer is required.'],
      ['?unpaid=yes', 'Unpaid checkouts must be shown.'],
      ['?buyer=%00', 'Buyer must not contain NUL characters or unpaired surrogates.'],
    ] as const) {
      for (const path of ['/api/admin/orders', '/api/admin/orders.csv']) {
        const response = await get(`${path}${query}`);
        expect(response.statusCode, `${path}${query}`).toBe(400);
        expect(response.json(), `${path}${query}`).toEqual({ error });
      }
    }
  });
});
