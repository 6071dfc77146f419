/**
 * Ids, slugs and free text are checked by each route's schema before they reach SQL (docs/decisions/0052): a NUL
 * or a malformed id in a path names nothing and is 404, a malformed id in a query is 400, each with `{ error }`,
 * none logged as a failure and none changing anything; a referral link with a slug that is no slug leads to the
 * default offer. On PGlite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveOwner } from '../../../server/admin/owners';
import { orderRefunds, referrers } from '../../../server/db/schema';
import { completePurchase, DATABASES, startTestServer, type TestServer } from '../helper';

const OWNER = { email: 'inputs-owner@example.com', password: 'a long owner password for inputs' };
const NOT_A_UUID = 'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz';

describe.each(DATABASES)('ids and slugs checked before SQL on %s', (kind) => {
  let server: TestServer;
  let cookie: string;
  const failures: string[] = [];

  beforeAll(async () => {
    server = await startTestServer(kind, {
      env: { LOG_LEVEL: 'error' },
      logStream: { write: (line) => void failures.push(line) },
    });
    await saveOwner(server.db, OWNER.email, OWNER.password);
    const signedIn = await server.post('/api/admin/sign-in', OWNER);
    cookie = `owner_session=${signedIn.cookies.find((each) => each.name === 'owner_session')!.value}`;
  });
  afterAll(() => server.close());

  const send = (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, body?: unknown) =>
    server.app.inject({
      method,
      url,
      headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });

  it('answers a console path whose id is not an id with 404, a query id with 400, and changes nothing', async () => {
    const { session } = await completePurchase(server);
    const before = [await server.rows(orderRefunds), JSON.stringify(await server.db.select().from(referrers))];
    const notFound = [
      await send('GET', '/api/admin/orders/%00'),
      await send('GET', '/api/admin/orders/a%00b/commissions'),
      await send('POST', '/api/admin/orders/%00/refund', {}),
      await send('POST', '/api/admin/orders/%00/actions', { action: 'resend_confirmation' }),
      await send('PUT', `/api/admin/commissions/referrers/${NOT_A_UUID}`, { email: 'jane@example.com' }),
      await send('PUT', '/api/admin/commissions/referrers/%00', { email: 'jane@example.com' }),
      await send('PATCH', `/api/admin/referrers/${NOT_A_UUID}`, { status: 'disabled' }),
      await send('POST', '/api/account/team/not-a-seat/revoke', {}),
    ];
    for (const response of notFound) {
      expect(response.statusCode, response.body).toBe(404);
      expect(response.json()).toEqual({ error: expect.any(String) });
    }
    for (const url of ['/api/admin/orders?referrer=x', '/api/admin/orders.csv?referrer=x', '/api/admin/orders?referrer=%00']) {
      const response = await send('GET', url);
      expect(response.statusCode, url).toBe(400);
      expect(response.json(), url).toEqual({ error: expect.any(String) });
    }
    // Well-formed ids still work: the order, and the list filtered by no referrer.
    expect((await send('GET', `/api/admin/orders/${session.transactionId}`)).statusCode).toBe(200);
    expect((await send('GET', '/api/admin/orders?referrer=none')).statusCode).toBe(200);
    expect([await server.rows(orderRefunds), JSON.stringify(await server.db.select().from(referrers))]).toEqual(before);
    expect(failures).toEqual([]);
  });

  it('sends a referral link whose slug is no slug to the default offer, without an error', async () => {
    for (const url of ['/?ref=%00', '/r/%00', '/r/a%00b', '/?ref=%ED%A0%80', `/r/${'a'.repeat(60)}`, '/?ref=dr--x']) {
      const response = await server.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(302);
      expect(response.headers.location, url).toBe('/');
      expect(
        response.cookies.find((each) => each.name === 'referral'),
        url,
      ).toBeUndefined();
    }
    expect(failures).toEqual([]);
  });
});
