/**
 * Referral links and attribution (docs/decisions/0017): the link's
 * cookie, its window, first touch, unknown and disabled slugs, the order's referrer resolved by the server
 * (never the body's affiliate_id), the provider's metadata, the referrer rendered into the page, and the funnel
 * events each step writes. On PGlite and PostgreSQL.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { funnelEvents, orders, referrers, sandboxCustomers, sandboxSubscriptions } from '../../../server/db/schema';
import { escapeHtml } from '../../../server/http/escapeHtml';
import { REFERRER_PLACEHOLDERS } from '../../../src/domain/offerReferrer';
import {
  createBody,
  DATABASES,
  finalize,
  HANDOFF_KEY,
  payWithCard,
  startTestServer,
  TEST_CARDS,
  updateBody,
  type TestServer,
} from '../helper';

const DAY_MS = 24 * 60 * 60 * 1000;

/** A page template as scripts/prerender.ts writes it: placeholders where the referrer goes. */
const TEMPLATE = `<!doctype html><html><head><title>Checkout</title><script type="module" src="/assets/index.js"></script></head><body><div id="root"><span class="badge">For Friends of Dr. ${REFERRER_PLACEHOLDERS.name} Only</span><q>${REFERRER_PLACEHOLDERS.quote}</q><code>${REFERRER_PLACEHOLDERS.shortLabel}</code></div></body></html>`;

/** Every replacement pattern of String.prototype.replace, with markup around them. */
const DOLLARS = "$& $` $' $1 $$ $<name> <$&>";

/** The page as it must be for `referrer`: TEMPLATE with the escaped texts in place of the placeholders. */
const filled = (referrer: { name: string; quote: string; shortLabel: string }) =>
  TEMPLATE.split(REFERRER_PLACEHOLDERS.name)
    .join(escapeHtml(referrer.name))
    .split(REFERRER_PLACEHOLDERS.quote)
    .join(escapeHtml(referrer.quote))
    .split(REFERRER_PLACEHOLDERS.shortLabel)
    .join(escapeHtml(referrer.shortLabel));

describe.each(DATABASES)('referrals on %s', (kind) => {
  let server: TestServer;
  let distDir: string;
  const lines: string[] = [];

  beforeAll(async () => {
    distDir = await mkdtemp(join(tmpdir(), 'checkout-referrals-'));
    await mkdir(join(distDir, 'assets'));
    await writeFile(join(distDir, 'index.html'), TEMPLATE);
    await writeFile(join(distDir, 'shell.html'), '<!doctype html><html><head></head><body><div id="root"></div></body></html>');
    server = await startTestServer(kind, {
      distDir,
      env: { LOG_LEVEL: 'info', REFERRAL_WINDOW_DAYS: '60', MAX_SEATS: '40' },
      logStream: { write: (line) => void lines.push(line) },
    });
    await server.db.insert(referrers).values([
      { slug: 'jane-doe', displayName: 'Jane Doe', shortLabel: 'dr-jane', quote: 'My friends <b>deserve</b> this & more.' },
      { slug: 'john-roe', displayName: 'John Roe', shortLabel: 'dr-john', quote: 'Built for busy clinics.' },
      { slug: 'gone', displayName: 'Gone Away', shortLabel: 'dr-gone', quote: 'No longer referring.', status: 'disabled' },
      { slug: 'dollars', displayName: `Dr ${DOLLARS}`, shortLabel: `dr-${DOLLARS}`, quote: `Quote ${DOLLARS}` },
    ]);
  });
  afterAll(async () => {
    await server.close();
    await rm(distDir, { recursive: true, force: true });
  });

  const get = (url: string, cookie?: string, headers: Record<string, string> = {}) =>
    server.app.inject({ method: 'GET', url, headers: { ...(cookie ? { cookie } : {}), ...headers } });
  /** The `referral=…` pair a response sets, ready to send back as a Cookie header; undefined when none is set. */
  const referralCookieOf = (response: Awaited<ReturnType<typeof get>>) => {
    const cookie = response.cookies.find((each) => each.name === 'referral');
    return cookie ? `referral=${cookie.value}` : undefined;
  };
  /** A cookie signed as the server signs it, first touched `ageMs` ago. */
  const cookieFor = (slug: string, ageMs: number) =>
    `referral=${encodeURIComponent(server.app.signCookie(`${slug}.${Math.floor((Date.now() - ageMs) / 1000)}`))}`;
  const create = (cookie?: string, affiliateId = 'dr-jane') =>
    server.post('/api/create-anon-subscription-intent', { ...createBody(3), affiliate_id: affiliateId }, cookie ? { cookie } : {});
  const orderOf = async (transactionId: string) =>
    (await server.db.select().from(orders).where(eq(orders.transactionId, transactionId)))[0]!;
  const referrerId = async (slug: string) => (await server.db.select().from(referrers).where(eq(referrers.slug, slug)))[0]!.id;

  it('seeds the sample referrer on first start', async () => {
    const [sample] = await server.db.select().from(referrers).where(eq(referrers.slug, 'sample'));
    expect(sample).toMatchObject({ displayName: 'Sample', shortLabel: 'dr-sample', status: 'active' });
  });

  it('/r/{slug} sets an httpOnly, SameSite=Lax cookie for the attribution window and redirects to /', async () => {
    const response = await get('/r/jane-doe');
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/');
    const cookie = response.cookies.find((each) => each.name === 'referral')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/', maxAge: 60 * 24 * 60 * 60 });
    expect(server.app.unsignCookie(cookie.value)).toMatchObject({ valid: true, value: expect.stringMatching(/^jane-doe\.\d+$/) });
  });

  it('/?ref={slug} does the same', async () => {
    const response = await get('/?ref=john-roe');
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/');
    expect(server.app.unsignCookie(response.cookies.find((each) => each.name === 'referral')!.value).value).toMatch(/^john-roe\./);
  });

  it('an unknown or disabled slug leads to the default offer without a cookie, and is logged', async () => {
    for (const url of ['/r/nobody', '/r/gone', '/?ref=nobody']) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(302);
      expect(response.headers.location).toBe('/');
      expect(referralCookieOf(response), url).toBeUndefined();
    }
    expect(lines.filter((line) => line.includes('unknown or disabled referrer')).length).toBeGreaterThanOrEqual(3);
    const page = await get('/');
    expect(page.body).toContain('For Friends of Dr. Sample Only');
  });

  it('the first link within the window wins; an expired or disabled first touch is replaced', async () => {
    const jane = referralCookieOf(await get('/r/jane-doe'))!;
    expect(referralCookieOf(await get('/r/john-roe', jane))).toBeUndefined();
    expect((await get('/', jane)).body).toContain('For Friends of Dr. Jane Doe Only');

    const expired = cookieFor('jane-doe', 61 * DAY_MS);
    expect(referralCookieOf(await get('/r/john-roe', expired))).toMatch(/^referral=/);
    const disabled = cookieFor('gone', DAY_MS);
    expect(referralCookieOf(await get('/r/john-roe', disabled))).toMatch(/^referral=/);
  });

  it('renders the referrer into the page, escaped, with the same referrer as JSON for the browser, compressed as asked', async () => {
    const jane = cookieFor('jane-doe', 0);
    const page = await get('/', jane, { 'accept-encoding': 'br, gzip' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-encoding']).toBe('br');
    expect(page.headers.vary).toContain('Cookie');
    const html = brotliDecompressSync(page.rawPayload).toString();
    expect(html).toContain('For Friends of Dr. Jane Doe Only');
    expect(html).toContain('My friends &lt;b&gt;deserve&lt;/b&gt; this &amp; more.');
    expect(html).not.toContain('__OFFER_REFERRER');
    const json = /<script id="offer-referrer" type="application\/json">(.*?)<\/script>/.exec(html)?.[1];
    expect(JSON.parse(json!)).toEqual({ name: 'Jane Doe', shortLabel: 'dr-jane', quote: 'My friends <b>deserve</b> this & more.' });
    expect(json).not.toContain('<');
    // The template itself is never served.
    expect((await get('/index.html')).body).not.toContain('__OFFER_REFERRER');
    // Other pages carry the referrer too (the SPA may navigate to /).
    expect((await get('/payment-success', jane)).body).toContain('"name":"Jane Doe"');
    // Every page carries the server's seat limit, which the checkout's '+' and count box hold to.
    const limits = /<script id="checkout-limits" type="application\/json">(.*?)<\/script>/.exec(html)?.[1];
    expect(JSON.parse(limits!)).toEqual({ maxSeats: 40 });
  });

  it('renders `$` replacement patterns in every referrer field as the text they are, leaving the rest of the page as built', async () => {
    const dollars = { name: `Dr ${DOLLARS}`, shortLabel: `dr-${DOLLARS}`, quote: `Quote ${DOLLARS}` };
    const plain = { name: 'Jane Doe', shortLabel: 'dr-jane', quote: 'My friends <b>deserve</b> this & more.' };
    const island = /<script id="offer-referrer" type="application\/json">.*?<\/script>/;
    for (const [slug, referrer] of [
      ['dollars', dollars],
      ['jane-doe', plain],
    ] as const) {
      const html = (await get('/', cookieFor(slug, 0))).body;
      const json = island.exec(html)?.[0];
      expect(JSON.parse(json!.replace(/^<script[^>]*>|<\/script>$/g, ''))).toEqual(referrer);
      // Without the JSON islands (the referrer, the offer's content, the seat limit), the page is the template with
      // the escaped texts and nothing else.
      const content = /<script id="offer-content" type="application\/json">.*?<\/script>/;
      const limits = /<script id="checkout-limits" type="application\/json">.*?<\/script>/;
      expect(html.replace(json!, '').replace(content, '').replace(limits, ''), slug).toBe(filled(referrer));
      expect(html.match(/<script/g), slug).toHaveLength(4);
    }
    const html = (await get('/', cookieFor('dollars', 0))).body;
    expect(html).toContain(`For Friends of Dr. Dr $&amp; $\` $&#39; $1 $$ $&lt;name&gt; &lt;$&amp;&gt; Only</span>`);
  });

  it("attributes the order to the cookie's referrer, records the body's affiliate_id beside it, and writes the referrer to the provider's metadata", async () => {
    const response = await create(cookieFor('jane-doe', DAY_MS), 'dr-someone-else');
    expect(response.statusCode).toBe(200);
    const session = response.json();
    const order = await orderOf(session.transactionId);
    expect(order.referrerId).toBe(await referrerId('jane-doe'));
    expect(order.affiliateId).toBe('dr-someone-else');
    const [customer] = await server.db.select().from(sandboxCustomers).where(eq(sandboxCustomers.id, session.customerId));
    expect(customer!.metadata.referrer).toBe('jane-doe');
    const updated = await server.post('/api/update-anon-subscription-intent', updateBody(session, 4), {
      cookie: cookieFor('jane-doe', DAY_MS),
    });
    const [subscription] = await server.db
      .select()
      .from(sandboxSubscriptions)
      .where(eq(sandboxSubscriptions.id, updated.json().subscriptionId));
    expect(subscription!.referrer).toBe('jane-doe');
  });

  it('attributes nothing without a cookie, with a forged one, or past the window', async () => {
    const forged = `referral=${encodeURIComponent(`jane-doe.${Math.floor(Date.now() / 1000)}.forgedsignature`)}`;
    for (const cookie of [undefined, forged, cookieFor('jane-doe', 61 * DAY_MS), cookieFor('gone', DAY_MS)]) {
      const session = (await create(cookie)).json();
      expect((await orderOf(session.transactionId)).referrerId, String(cookie)).toBeNull();
    }
  });

  it('writes the funnel as the checkout goes: page view, opened, seats, submitted, failed with its decline code, paid, redeemed', async () => {
    const cookie = cookieFor('john-roe', 0);
    const john = await referrerId('john-roe');
    const viewsBefore = await server.db.select().from(funnelEvents).where(eq(funnelEvents.type, 'page_view'));
    expect((await get('/api/config?page=%2F', cookie)).statusCode).toBe(200);
    expect((await get('/api/config?page=%2Fpayment-success', cookie)).statusCode).toBe(200);
    const views = await server.db.select().from(funnelEvents).where(eq(funnelEvents.type, 'page_view'));
    expect(views.length - viewsBefore.length).toBe(1);
    expect(views.at(-1)!.referrerId).toBe(john);

    const session = (await create(cookie, 'dr-john')).json();
    const moved = (await server.post('/api/update-anon-subscription-intent', updateBody(session, 2))).json();
    expect((await payWithCard(server, moved.clientSecret, TEST_CARDS.insufficientFunds)).statusCode).toBe(402);
    expect((await payWithCard(server, moved.clientSecret)).statusCode).toBe(200);
    const finalized = (await finalize(server, { ...session, ...moved })).json();
    const redeemed = await server.post('/api/handoff/redeem', { token: finalized.token }, { authorization: `Bearer ${HANDOFF_KEY}` });
    expect(redeemed.statusCode).toBe(200);

    const events = await server.db
      .select()
      .from(funnelEvents)
      .where(eq(funnelEvents.transactionId, session.transactionId))
      .orderBy(asc(funnelEvents.id));
    expect(events.map((event) => [event.type, event.detail])).toEqual([
      ['checkout_opened', { seats: 3 }],
      ['seats_changed', { from: 3, to: 2 }],
      ['payment_submitted', null],
      ['payment_failed', { declineCode: 'insufficient_funds' }],
      ['payment_submitted', null],
      ['paid', { seats: 2, amountCents: 50_000 }],
      ['handoff_redeemed', null],
    ]);
    expect(new Set(events.map((event) => event.referrerId))).toEqual(new Set([john]));
  });
});
