/**
 * One session mechanism for buyers (/account) and owners (/admin) (docs/decisions/0022): sign-out ends a session on
 * the server, new credentials and a new owner password end the other sessions, the absolute lifetime ends a
 * session however much it is used, the cookie's Secure follows PUBLIC_URL or a trusted proxy, and a cross-site
 * Origin is refused on every state-changing /api/account and /api/admin request. On PGlite and PostgreSQL.
 */
import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { issueAccountLink } from '../../../server/account/accountLinks';
import { saveOwner } from '../../../server/admin/owners';
import { accounts, referrers, sessions } from '../../../server/db/schema';
import { completePurchase, DATABASES, startTestServer, type TestServer } from '../helper';

const SITE = 'https://checkout.test';
const OWNER = { email: 'sessions-owner@example.com', password: 'correct horse battery staple' };
const MINUTE_MS = 60 * 1000;
const HOUR_MS = 60 * MINUTE_MS;

describe.each(DATABASES)('sessions on %s', (kind) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(kind, { env: { PUBLIC_URL: SITE, SIGN_INS_PER_15_MINUTES: '1000' } });
    await saveOwner(server.db, OWNER.email, OWNER.password);
  });
  afterAll(() => server.close());
  afterEach(() => {
    vi.useRealTimers();
  });

  const cookieOf = (response: { cookies: { name: string; value: string }[] }, name: string) => {
    const cookie = response.cookies.find((each) => each.name === name);
    expect(cookie, `${name} cookie`).toBeDefined();
    return `${name}=${cookie!.value}`;
  };
  /** Opens a manage-page session on `transactionId` with a fresh link, on `on` (default: the https site). */
  async function buyerSession(transactionId: string, on: TestServer = server) {
    const token = await issueAccountLink(on.db, transactionId, 'manage', 15);
    const opened = await on.post('/api/account/session', { token });
    expect(opened.statusCode).toBe(200);
    return opened;
  }
  const buyerCookie = async (transactionId: string) => cookieOf(await buyerSession(transactionId), 'account_session');
  const account = (cookie: string) => server.app.inject({ method: 'GET', url: '/api/account', headers: { cookie } });
  async function ownerSignIn(credentials = OWNER, on: TestServer = server) {
    const response = await on.post('/api/admin/sign-in', credentials);
    expect(response.statusCode).toBe(200);
    return response;
  }
  const ownerCookie = async (credentials = OWNER) => cookieOf(await ownerSignIn(credentials), 'owner_session');
  const ownerSession = (cookie: string) => server.app.inject({ method: 'GET', url: '/api/admin/session', headers: { cookie } });

  it('a copied /account session cookie answers 401 after sign-out', async () => {
    const { session } = await completePurchase(server);
    const cookie = await buyerCookie(session.transactionId);
    const copy = cookie;
    expect((await account(copy)).statusCode).toBe(200);
    const signedOut = await server.post('/api/account/sign-out', {}, { cookie });
    expect(signedOut.statusCode).toBe(204);
    expect(signedOut.cookies.find((each) => each.name === 'account_session')).toMatchObject({ value: '', path: '/api/account' });
    expect((await account(copy)).statusCode).toBe(401);
    expect(await server.db.select().from(sessions).where(eq(sessions.subject, session.transactionId))).toEqual([]);
  });

  it('new credentials end the order’s other buyer sessions and keep the current one and other orders’', async () => {
    const { session } = await completePurchase(server);
    const { session: otherOrder } = await completePurchase(server);
    const current = await buyerCookie(session.transactionId);
    const elsewhere = await buyerCookie(session.transactionId);
    const otherBuyer = await buyerCookie(otherOrder.transactionId);
    expect((await account(elsewhere)).statusCode).toBe(200);

    const issued = await server.post('/api/account/credentials', {}, { cookie: current });
    expect(issued.statusCode).toBe(200);
    expect((await account(elsewhere)).statusCode).toBe(401);
    expect((await account(current)).statusCode).toBe(200);
    expect((await account(otherBuyer)).statusCode).toBe(200);
  });

  it('a session used all the time ends at its absolute lifetime; an unused one after the idle hour', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2031-03-01T08:00:00Z') });
    const { session } = await completePurchase(server);
    const cookie = await buyerCookie(session.transactionId);
    const signedInAt = Date.now();
    // Used every 50 minutes: the idle hour never runs out, ACCOUNT_SESSION_MAX_HOURS (12) does.
    for (let elapsed = 50 * MINUTE_MS; elapsed < server.config.ACCOUNT_SESSION_MAX_HOURS * HOUR_MS; elapsed += 50 * MINUTE_MS) {
      vi.setSystemTime(signedInAt + elapsed);
      expect((await account(cookie)).statusCode, `after ${elapsed / MINUTE_MS} minutes`).toBe(200);
    }
    vi.setSystemTime(signedInAt + server.config.ACCOUNT_SESSION_MAX_HOURS * HOUR_MS + MINUTE_MS);
    expect((await account(cookie)).statusCode).toBe(401);

    const idle = await buyerCookie(session.transactionId);
    vi.setSystemTime(Date.now() + 59 * MINUTE_MS);
    expect((await account(idle)).statusCode).toBe(200);
    vi.setSystemTime(Date.now() + HOUR_MS + MINUTE_MS);
    expect((await account(idle)).statusCode).toBe(401);
  });

  it('the owner’s session ends at OWNER_SESSION_MAX_HOURS however much it is used', async () => {
    const cookie = await ownerCookie();
    expect((await ownerSession(cookie)).statusCode).toBe(200);
    const idHash = createHash('sha256').update(cookie.slice('owner_session='.length)).digest('hex');
    // Signed in just under the absolute lifetime ago and used a minute ago: still live, then one minute too old.
    const maxMs = server.config.OWNER_SESSION_MAX_HOURS * HOUR_MS;
    await server.db
      .update(sessions)
      .set({ createdAt: new Date(Date.now() - maxMs + MINUTE_MS) })
      .where(eq(sessions.idHash, idHash));
    expect((await ownerSession(cookie)).statusCode).toBe(200);
    await server.db
      .update(sessions)
      .set({ createdAt: new Date(Date.now() - maxMs - MINUTE_MS) })
      .where(eq(sessions.idHash, idHash));
    expect((await ownerSession(cookie)).statusCode).toBe(401);
  });

  it('a new owner password (npm run owner:create) ends that owner’s sessions, not another owner’s', async () => {
    const other = { email: 'other-owner@example.com', password: 'another long passphrase' };
    await saveOwner(server.db, other.email, other.password);
    const first = await ownerCookie();
    const second = await ownerCookie();
    const otherOwner = await ownerCookie(other);
    expect((await ownerSession(first)).statusCode).toBe(200);

    expect(await saveOwner(server.db, OWNER.email, 'a brand new long passphrase')).toBe('updated');
    expect((await ownerSession(first)).statusCode).toBe(401);
    expect((await ownerSession(second)).statusCode).toBe(401);
    expect((await ownerSession(otherOwner)).statusCode).toBe(200);
    await saveOwner(server.db, OWNER.email, OWNER.password);
  });

  it('refuses a cross-site Origin on POST /api/account/credentials and an admin POST, changing nothing; same-origin passes', async () => {
    const { session } = await completePurchase(server);
    const cookie = await buyerCookie(session.transactionId);
    const passwordHash = async () =>
      (await server.db.select().from(accounts).where(eq(accounts.transactionId, session.transactionId)))[0]!.passwordHash;
    const before = await passwordHash();
    for (const origin of ['https://evil.example', 'https://shop.checkout.test', 'http://checkout.test', 'null']) {
      const forged = await server.post('/api/account/credentials', {}, { cookie, origin });
      expect(forged.statusCode, origin).toBe(403);
      expect(forged.json(), origin).toEqual({ error: expect.any(String) });
    }
    expect(await passwordHash()).toBe(before);

    const admin = await ownerCookie();
    const body = { slug: 'cross-site-session', displayName: 'X', shortLabel: 'dr-x', quote: 'Q' };
    const forgedAdmin = await server.post('/api/admin/referrers', body, { cookie: admin, origin: 'https://evil.example' });
    expect(forgedAdmin.statusCode).toBe(403);
    expect(await server.db.select().from(referrers).where(eq(referrers.slug, body.slug))).toEqual([]);

    // Routes without a session yet are covered too.
    expect((await server.post('/api/account/link', { email: 'ada@example.com' }, { origin: 'https://evil.example' })).statusCode).toBe(403);
    expect((await server.post('/api/account/session', { token: 'x'.repeat(43) }, { origin: 'https://evil.example' })).statusCode).toBe(403);
    expect((await server.post('/api/admin/sign-in', OWNER, { origin: 'https://evil.example' })).statusCode).toBe(403);
    // Reading is not refused (GET changes nothing).
    expect(
      (await server.app.inject({ method: 'GET', url: '/api/account', headers: { cookie, origin: 'https://evil.example' } })).statusCode,
    ).toBe(200);

    const own = await server.post('/api/account/credentials', {}, { cookie, origin: SITE });
    expect(own.statusCode).toBe(200);
    expect(await passwordHash()).not.toBe(before);
    expect((await server.post('/api/admin/referrers', body, { cookie: admin, origin: `${SITE}:443` })).statusCode).toBe(201);
  });

  it('sets Secure when PUBLIC_URL is https or a trusted proxy says https, never from an untrusted header', async () => {
    const { session } = await completePurchase(server);
    const secureOf = (response: { cookies: { name: string; secure?: boolean }[] }, name: string) =>
      response.cookies.find((each) => each.name === name)?.secure ?? false;
    expect(secureOf(await buyerSession(session.transactionId), 'account_session')).toBe(true);
    expect(secureOf(await ownerSignIn(), 'owner_session')).toBe(true);

    const plain = await server.derive({ env: { SIGN_INS_PER_15_MINUTES: '1000' } });
    const proxied = await server.derive({ env: { TRUST_PROXY: '1', SIGN_INS_PER_15_MINUTES: '1000' } });
    try {
      const viaProxy = async (on: TestServer) => {
        const token = await issueAccountLink(on.db, session.transactionId, 'manage', 15);
        return on.post('/api/account/session', { token }, { 'x-forwarded-proto': 'https' });
      };
      expect(secureOf(await buyerSession(session.transactionId, plain), 'account_session')).toBe(false);
      expect(secureOf(await viaProxy(plain), 'account_session')).toBe(false);
      expect(secureOf(await viaProxy(proxied), 'account_session')).toBe(true);
      expect(secureOf(await ownerSignIn(OWNER, plain), 'owner_session')).toBe(false);
      const opened = await buyerSession(session.transactionId, plain);
      expect(opened.cookies.find((each) => each.name === 'account_session')).toMatchObject({
        httpOnly: true,
        sameSite: 'Strict',
        path: '/api/account',
      });
    } finally {
      await plain.close();
      await proxied.close();
    }
  });
});
