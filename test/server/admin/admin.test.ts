/**
 * The owner's console API (docs/decisions/0018): nothing without a
 * session, sign-in and sign-out, cross-site refusal, referrers, and the figures from a fixture of orders and
 * funnel events with known revenue and conversion. On PGlite and PostgreSQL.
 */
import { eq } from 'drizzle-orm';
import { featureMail } from '../../../server/app';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { saveOwner } from '../../../server/admin/owners';
import { accountLinks, funnelEvents, orders, referrers, sessions } from '../../../server/db/schema';
import { completePurchase, DATABASES, startTestServer, type TestServer } from '../helper';
import { deliverDue } from '../../../server/outbox/outboxWorker';

const OWNER = { email: 'owner@example.com', password: 'correct horse battery staple' };
const DAY_MS = 24 * 60 * 60 * 1000;

/** Every console route, with a request that succeeds once signed in. */
const ROUTES = [
  { method: 'GET', url: '/api/admin/session' },
  { method: 'GET', url: '/api/admin/orders' },
  { method: 'GET', url: '/api/admin/orders.csv' },
  { method: 'GET', url: '/api/admin/orders/FIXTURE' },
  { method: 'GET', url: '/api/admin/referrers' },
  {
    method: 'POST',
    url: '/api/admin/referrers',
    body: { slug: 'route-check', displayName: 'Route Check', shortLabel: 'dr-route', quote: 'Hello.' },
    status: 201,
  },
  { method: 'PATCH', url: '/api/admin/referrers/SAMPLE', body: { quote: 'Still the sample.' } },
  { method: 'GET', url: '/api/admin/dashboard' },
  { method: 'GET', url: '/api/admin/mail' },
  { method: 'GET', url: '/api/admin/referrers/report.csv' },
] as const;

describe.each(DATABASES)("the owner's console API on %s", (kind) => {
  let server: TestServer;
  let sampleId: string;

  beforeAll(async () => {
    server = await startTestServer(kind, { env: { SIGN_INS_PER_15_MINUTES: '1000' } });
    await saveOwner(server.db, OWNER.email, OWNER.password);
    sampleId = (await server.db.select().from(referrers).where(eq(referrers.slug, 'sample')))[0]!.id;
  });
  afterAll(() => server.close());

  const signIn = async (credentials: { email: string; password: string } = OWNER, headers: Record<string, string> = {}) =>
    server.post('/api/admin/sign-in', credentials, headers);
  const sessionCookie = async () => {
    const response = await signIn();
    expect(response.statusCode).toBe(200);
    const cookie = response.cookies.find((each) => each.name === 'owner_session')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/admin' });
    return `owner_session=${cookie.value}`;
  };
  const call = (route: { method: string; url: string; body?: unknown }, cookie?: string, headers: Record<string, string> = {}) =>
    server.app.inject({
      method: route.method as 'GET',
      url: route.url.replace('SAMPLE', sampleId).replace('FIXTURE', 'txn-fixture-paid'),
      headers: { ...(cookie ? { cookie } : {}), ...(route.body ? { 'content-type': 'application/json' } : {}), ...headers },
      ...(route.body ? { payload: JSON.stringify(route.body) } : {}),
    });

  describe('with a fixture of orders and events', () => {
    beforeAll(async () => {
      const now = Date.now();
      const [jane] = await server.db
        .insert(referrers)
        .values({ slug: 'jane-doe', displayName: 'Jane Doe', shortLabel: 'dr-jane', quote: 'Q' })
        .returning();
      const order = (
        transactionId: string,
        quantity: number,
        amountCents: number,
        referrerId: string | null,
        extra: Partial<typeof orders.$inferInsert> = {},
      ) => ({
        transactionId,
        provider: 'sandbox',
        customerId: `cus_${transactionId}`,
        subscriptionId: `sub_${transactionId}`,
        subscriptionItemId: `si_${transactionId}`,
        clientSecret: `secret_${transactionId}`,
        quantity,
        amountCents,
        affiliateId: 'dr-jane',
        affiliateSource: 'https://checkout.test/',
        referrerId,
        createdAt: new Date(now - 2 * DAY_MS),
        ...extra,
      });
      await server.db.insert(orders).values([
        // Jane: 3 seats paid ($1,000/month), 1 open (abandoned), 2 seats paid then cancelled.
        order('txn-fixture-paid', 3, 100_000, jane!.id, {
          status: 'paid',
          paidAt: new Date(now - DAY_MS),
          email: '=cmd|calc!A1',
          name: 'Ada Palmer',
        }),
        order('txn-fixture-open', 1, 50_000, jane!.id),
        order('txn-fixture-cancelled', 2, 50_000, jane!.id, {
          status: 'cancelled',
          paidAt: new Date(now - 2 * DAY_MS),
          cancelledAt: new Date(now - DAY_MS),
        }),
        // No link: 1 seat paid ($500/month).
        order('txn-fixture-direct', 1, 50_000, null, { status: 'paid', paidAt: new Date(now - DAY_MS) }),
      ]);
      const at = (hoursAgo: number) => new Date(now - hoursAgo * 60 * 60 * 1000);
      const event = (
        type: typeof funnelEvents.$inferInsert.type,
        transactionId: string | null,
        referrerId: string | null,
        hoursAgo: number,
        detail?: Record<string, string | number>,
      ) => ({
        type,
        transactionId,
        referrerId,
        occurredAt: at(hoursAgo),
        detail: detail ?? null,
      });
      await server.db
        .insert(funnelEvents)
        .values([
          ...Array.from({ length: 8 }, () => event('page_view', null, jane!.id, 50)),
          event('checkout_opened', 'txn-fixture-paid', jane!.id, 48),
          event('checkout_opened', 'txn-fixture-open', jane!.id, 48),
          event('checkout_opened', 'txn-fixture-cancelled', jane!.id, 48),
          event('payment_submitted', 'txn-fixture-paid', jane!.id, 47),
          event('payment_failed', 'txn-fixture-paid', jane!.id, 47, { declineCode: 'insufficient_funds' }),
          event('payment_submitted', 'txn-fixture-paid', jane!.id, 46),
          event('paid', 'txn-fixture-paid', jane!.id, 24),
          event('payment_submitted', 'txn-fixture-cancelled', jane!.id, 47),
          event('paid', 'txn-fixture-cancelled', jane!.id, 47),
          event('cancelled', 'txn-fixture-cancelled', jane!.id, 24),
          ...Array.from({ length: 4 }, () => event('page_view', null, null, 30)),
          event('checkout_opened', 'txn-fixture-direct', null, 30),
          event('payment_submitted', 'txn-fixture-direct', null, 29),
          event('paid', 'txn-fixture-direct', null, 24),
        ]);
    });

    it('answers 401 { error } on every route without a session, and 2xx with one', async () => {
      for (const route of ROUTES) {
        const refused = await call(route);
        expect(refused.statusCode, `${route.method} ${route.url}`).toBe(401);
        expect(refused.json().error).toBe('Please sign in to the console.');
      }
      const cookie = await sessionCookie();
      for (const route of ROUTES) {
        const response = await call(route, cookie);
        expect(response.statusCode, `${route.method} ${route.url}: ${response.body}`).toBe('status' in route ? route.status : 200);
      }
    });

    it('gives revenue, paid orders and seats, abandoned checkouts, cancellations, failed payments and conversion by referrer', async () => {
      const cookie = await sessionCookie();
      const response = await call({ method: 'GET', url: '/api/admin/dashboard' }, cookie);
      const figures = response.json();
      expect(figures).toMatchObject({
        // $1,000 (Jane's 3 seats) + $500 (direct); the cancelled order no longer counts.
        mrrCents: 150_000,
        paidOrders: 3,
        paidSeats: 6,
        abandonedCheckouts: 1,
        cancellations: 1,
        failedPayments: 1,
      });
      const jane = figures.byReferrer.find((row: { referrer: { slug: string } | null }) => row.referrer?.slug === 'jane-doe');
      expect(jane).toMatchObject({ views: 8, opened: 3, submitted: 2, paid: 2, paidSeats: 5, mrrCents: 100_000 });
      const direct = figures.byReferrer.find((row: { referrer: unknown }) => row.referrer === null);
      expect(direct).toMatchObject({ views: 4, opened: 1, submitted: 1, paid: 1, paidSeats: 1, mrrCents: 50_000 });
      // A period before any of it: nothing, and revenue as it stood then.
      const before = (await call({ method: 'GET', url: '/api/admin/dashboard?from=2020-01-01&to=2020-01-31' }, cookie)).json();
      expect(before).toMatchObject({ from: '2020-01-01', to: '2020-01-31', mrrCents: 0, paidOrders: 0, failedPayments: 0 });
      expect((await call({ method: 'GET', url: '/api/admin/dashboard?from=2020-02-01&to=2020-01-01' }, cookie)).statusCode).toBe(400);
      expect((await call({ method: 'GET', url: '/api/admin/dashboard?from=yesterday' }, cookie)).statusCode).toBe(400);
    });

    it('filters orders by status and referrer, shows an order with its events, and exports CSV safe for spreadsheets', async () => {
      const cookie = await sessionCookie();
      const janeId = (await server.db.select().from(referrers).where(eq(referrers.slug, 'jane-doe')))[0]!.id;
      const paid = (await call({ method: 'GET', url: `/api/admin/orders?status=active&referrer=${janeId}` }, cookie)).json().orders;
      expect(paid.map((row: { transactionId: string }) => row.transactionId)).toEqual(['txn-fixture-paid']);
      expect(paid[0]).toMatchObject({ quantity: 3, amountCents: 100_000, referrer: { slug: 'jane-doe', displayName: 'Jane Doe' } });
      const direct = (await call({ method: 'GET', url: '/api/admin/orders?referrer=none' }, cookie)).json().orders;
      expect(direct.map((row: { transactionId: string }) => row.transactionId)).toEqual(['txn-fixture-direct']);

      const detail = (await call({ method: 'GET', url: '/api/admin/orders/txn-fixture-paid' }, cookie)).json();
      expect(detail.events.map((event: { type: string }) => event.type)).toEqual([
        'checkout_opened',
        'payment_submitted',
        'payment_failed',
        'payment_submitted',
        'paid',
      ]);
      expect((await call({ method: 'GET', url: '/api/admin/orders/txn-nope' }, cookie)).statusCode).toBe(404);

      const csv = await call({ method: 'GET', url: '/api/admin/orders.csv?status=active' }, cookie);
      expect(csv.headers['content-type']).toContain('text/csv');
      const lines = csv.body.trim().split('\n');
      expect(lines[0]).toMatch(/^transaction_id,status,seats,monthly_total_usd,email,name,referrer/);
      const row = lines.find((line) => line.startsWith('txn-fixture-paid'))!;
      expect(row).toContain(',1000.00,');
      expect(row).toContain(",'=cmd|calc!A1,");
      expect(lines[0]).toMatch(/,status_in_words,cancel_at,cancellation_reason,past_due_since$/);
      expect(row).toMatch(/,Active,,,$/);
      const report = await call({ method: 'GET', url: '/api/admin/referrers/report.csv' }, cookie);
      expect(report.body).toMatch(/^referrer,name,page_views,checkouts_opened,payments_submitted,paid_orders,paid_seats,mrr_usd/);
      expect(report.body).toContain('jane-doe,Jane Doe,8,3,2,2,5,1000.00');
    });
  });

  it('refuses a wrong password and an unknown email alike, and limits sign-in attempts per address', async () => {
    const limited = await server.derive({ env: { SIGN_INS_PER_15_MINUTES: '3' } });
    try {
      const attempt = (body: { email: string; password: string }) =>
        limited.post('/api/admin/sign-in', body, { 'x-forwarded-for': '203.0.113.50' });
      const wrong = await attempt({ email: OWNER.email, password: 'not the password at all' });
      const unknown = await attempt({ email: 'nobody@example.com', password: OWNER.password });
      expect([wrong.statusCode, unknown.statusCode]).toEqual([401, 401]);
      expect(wrong.json()).toEqual(unknown.json());
      expect(wrong.cookies.find((each) => each.name === 'owner_session')).toBeUndefined();
      expect((await attempt(OWNER)).statusCode).toBe(200);
      expect((await attempt(OWNER)).statusCode).toBe(429);
    } finally {
      await limited.close();
    }
  });

  it('throttles failed sign-ins per owner email from any addresses: past the limit even the right password waits for the window', async () => {
    const other = { email: 'second-owner@example.com', password: 'another long owner password' };
    await saveOwner(server.db, other.email, other.password);
    // Every attempt from another client address (a rotated IPv6 prefix), each within the per-address limit.
    const throttled = await server.derive({ env: { TRUST_PROXY: '1', SIGN_INS_PER_15_MINUTES: '3' } });
    let address = 0;
    const attempt = (body: { email: string; password: string }) =>
      throttled.post('/api/admin/sign-in', body, { 'x-forwarded-for': `2001:db8:${(address += 1).toString(16)}::1` });
    try {
      for (const email of [OWNER.email, 'nobody-here@example.com']) {
        const statuses = [];
        for (let n = 0; n < 11; n += 1) statuses.push((await attempt({ email, password: `wrong password ${n}` })).statusCode);
        expect(statuses, email).toEqual([...Array<number>(10).fill(401), 429]);
      }
      const refused = await attempt({ ...OWNER, email: OWNER.email.toUpperCase() });
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual({ error: expect.any(String) });
      expect(refused.cookies.find((each) => each.name === 'owner_session')).toBeUndefined();
      // Known and unknown emails are throttled alike.
      expect((await attempt({ email: 'nobody-here@example.com', password: 'x' })).json()).toEqual(refused.json());
      // Parallel guesses are counted one by one: no more than the limit are ever checked.
      const burst = await Promise.all(Array.from({ length: 14 }, () => attempt({ email: 'burst@example.com', password: 'guess' })));
      expect(burst.map((each) => each.statusCode).sort()).toEqual([...Array<number>(10).fill(401), 429, 429, 429, 429]);
      // Another owner is unaffected.
      expect((await attempt(other)).statusCode).toBe(200);

      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Date.now() + 15 * 60 * 1000 + 1000);
      expect((await attempt(OWNER)).statusCode).toBe(200);
    } finally {
      vi.useRealTimers();
      await throttled.close();
    }
  });

  it('shows a mail held without SMTP_URL, with its text and no token; a re-send needs SMTP_URL', async () => {
    const { session } = await completePurchase(server, 2);
    const linksBefore = await server.rows(accountLinks);
    const report = await deliverDue({ db: server.db, config: server.config, log: server.app.log, mailer: null, mail: featureMail() });
    expect(report.held).toBeGreaterThanOrEqual(1);
    // No link is minted for a held mail: nothing in the row could open the manage page.
    expect(await server.rows(accountLinks)).toBe(linksBefore);
    const cookie = await sessionCookie();
    const mails = (await call({ method: 'GET', url: '/api/admin/mail' }, cookie)).json().mails;
    const held = mails.find((mail: { transactionId: string }) => mail.transactionId === session.transactionId);
    expect(held).toMatchObject({
      topic: 'order_confirmation',
      status: 'held',
      rendered: { to: 'ada@example.com', subject: expect.stringContaining('is active') },
    });
    expect(held.rendered.text).toContain('2 seats');
    expect(held.rendered.text).toContain('Manage your subscription: http://localhost:3000/account?token=[hidden]');
    expect(held.rendered.text).not.toMatch(/token=(?!\[hidden\])/);

    const resend = { method: 'POST', url: `/api/admin/mail/${held.id}/resend` };
    expect((await call(resend)).statusCode).toBe(401);
    const refused = await call(resend, cookie);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatch(/SMTP_URL/);
    // An id that is not one names no mail (docs/decisions/0052).
    expect((await call({ method: 'POST', url: '/api/admin/mail/abc/resend' }, cookie)).statusCode).toBe(404);
  });

  it('signing out ends the session on the server', async () => {
    const cookie = await sessionCookie();
    expect((await call({ method: 'GET', url: '/api/admin/session' }, cookie)).json()).toEqual({ email: OWNER.email });
    const sessionsBefore = (await server.db.select().from(sessions)).length;
    expect((await call({ method: 'POST', url: '/api/admin/sign-out' }, cookie)).statusCode).toBe(204);
    expect((await server.db.select().from(sessions)).length).toBe(sessionsBefore - 1);
    expect((await call({ method: 'GET', url: '/api/admin/session' }, cookie)).statusCode).toBe(401);
  });

  it('refuses a change sent from another site', async () => {
    const cookie = await sessionCookie();
    const body = { slug: 'cross-site', displayName: 'X', shortLabel: 'dr-x', quote: 'Q' };
    const forged = await call({ method: 'POST', url: '/api/admin/referrers', body }, cookie, { origin: 'https://evil.example' });
    expect(forged.statusCode).toBe(403);
    expect(await server.db.select().from(referrers).where(eq(referrers.slug, 'cross-site'))).toEqual([]);
    const own = await call({ method: 'POST', url: '/api/admin/referrers', body }, cookie, { origin: 'http://localhost:80' });
    expect(own.statusCode).toBe(201);
  });

  it('adds, edits and disables referrers; a taken or malformed slug changes nothing', async () => {
    const cookie = await sessionCookie();
    const add = (body: object) => call({ method: 'POST', url: '/api/admin/referrers', body }, cookie);
    const created = await add({ slug: 'mary-major', displayName: 'Mary Major', shortLabel: 'dr-mary', quote: 'Join us.' });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ slug: 'mary-major', status: 'active' });
    expect((await add({ slug: 'mary-major', displayName: 'Other', shortLabel: 'dr-o', quote: 'Q' })).statusCode).toBe(409);
    for (const slug of ['Mary Major', '-x', 'a', 'x'.repeat(41), '../admin']) {
      const refused = await add({ slug, displayName: 'Bad', shortLabel: 'dr-bad', quote: 'Q' });
      expect(refused.statusCode, slug).toBe(400);
      expect(refused.json().error).toEqual(expect.any(String));
    }
    const id = created.json().id;
    const edited = await call(
      { method: 'PATCH', url: `/api/admin/referrers/${id}`, body: { displayName: 'Mary Major-Minor', status: 'disabled' } },
      cookie,
    );
    expect(edited.json()).toMatchObject({ displayName: 'Mary Major-Minor', status: 'disabled' });
    expect(
      (await server.app.inject({ method: 'GET', url: '/r/mary-major' })).cookies.find((each) => each.name === 'referral'),
    ).toBeUndefined();
    expect((await call({ method: 'PATCH', url: '/api/admin/referrers/not-an-id', body: { quote: 'Q' } }, cookie)).statusCode).toBe(404);
    expect((await call({ method: 'PATCH', url: `/api/admin/referrers/${id}`, body: {} }, cookie)).statusCode).toBe(400);
  });
});
