/**
 * The console's content, referrer names and mail search: the offer's testimonials and
 * guarantee saved, refused when malformed (400 `{ error }`, nothing written) and filled into the offer page the
 * server sends; a referrer's name stored without a leading "Dr."; the mail list searched by recipient and telling
 * whether mail is sent. On PGlite and PostgreSQL.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveOwner } from '../../../server/admin/owners';
import { offerContent, orders, outbox, referrers } from '../../../server/db/schema';
import { DEFAULT_GUARANTEE, testimonialPlaceholders } from '../../../src/domain/offerContent';
import { DATABASES, startTestServer, type TestServer } from '../helper';

const OWNER = { email: 'owner@example.com', password: 'correct horse battery staple' };

/** The built page's testimonials and guarantee as src/prerender.tsx renders them: three slots of placeholders. */
const slot = (index: number) => {
  const { name, practice, quote } = testimonialPlaceholders(index);
  return `<figure class="q" data-offer-testimonial="${index}"><blockquote><p>“${quote}”</p></blockquote><p>${name}</p><p>${practice}</p></figure>`;
};
const INDEX_HTML = `<!doctype html><html><head><title>Checkout</title></head><body><div id="root"><p>__OFFER_GUARANTEE__</p><section aria-labelledby="testimonials-title" data-offer-testimonials=""><h2 id="testimonials-title">What Chiropractors Are Saying</h2>${[0, 1, 2].map(slot).join('')}</section></div></body></html>`;

const THREE = {
  testimonials: [
    { name: 'Dr. Ana Ruiz', practice: 'Ruiz Family Chiropractic', quote: 'We answer <half> the calls & sleep.' },
    { name: 'Dr. Ben Okafor', practice: 'Okafor Spine', quote: 'Notes done by five.' },
    { name: 'Dr. Cleo Park', practice: 'Park Sports Chiro', quote: 'The templates saved weeks. $& stays as typed.' },
  ],
  guarantee: '30 days or your money back.',
};

describe.each(DATABASES)("the console's content, referrer names and mail on %s", (kind) => {
  let server: TestServer;
  let distDir: string;
  let cookie: string;

  beforeAll(async () => {
    distDir = await mkdtemp(join(tmpdir(), 'checkout-content-'));
    await writeFile(join(distDir, 'index.html'), INDEX_HTML);
    server = await startTestServer(kind, { distDir, env: { SIGN_INS_PER_15_MINUTES: '1000' } });
    await saveOwner(server.db, OWNER.email, OWNER.password);
    const signedIn = await server.post('/api/admin/sign-in', OWNER);
    cookie = `owner_session=${signedIn.cookies.find((each) => each.name === 'owner_session')!.value}`;
  });
  afterAll(async () => {
    await server.close();
    await rm(distDir, { recursive: true, force: true });
  });

  const request = (method: 'GET' | 'PUT' | 'POST' | 'PATCH', url: string, body?: unknown, withSession = true) =>
    server.app.inject({
      method,
      url,
      headers: { ...(withSession ? { cookie } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
  const page = async () => (await server.app.inject({ method: 'GET', url: '/' })).body;

  it('shows no testimonials and the default guarantee until the owner saves some: no invented names', async () => {
    expect((await request('GET', '/api/admin/content')).json()).toEqual({ testimonials: [], guarantee: DEFAULT_GUARANTEE });
    const html = await page();
    expect(html).toContain('data-offer-testimonials="" hidden');
    for (const index of [0, 1, 2]) expect(html).toContain(`data-offer-testimonial="${index}" hidden`);
    expect(html).not.toContain('__OFFER_');
    expect(html).not.toMatch(/Sample Practitioner|— Dr\. Sample/);
    expect(html).toContain(`<p>${DEFAULT_GUARANTEE}</p>`);
    expect(html).toContain(
      `<script id="offer-content" type="application/json">${JSON.stringify({ testimonials: [], guarantee: DEFAULT_GUARANTEE })}</script>`,
    );
  });

  it('saves three testimonials and the guarantee and the page shows them at once, escaped', async () => {
    const saved = await request('PUT', '/api/admin/content', THREE);
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual(THREE);
    expect((await request('GET', '/api/admin/content')).json()).toEqual(THREE);
    const html = await page();
    expect(html).not.toContain('hidden');
    expect(html).toContain('<p>Dr. Ana Ruiz</p><p>Ruiz Family Chiropractic</p>');
    expect(html).toContain('“We answer &lt;half&gt; the calls &amp; sleep.”');
    expect(html).toContain('$&amp; stays as typed.');
    expect(html).toContain('<p>30 days or your money back.</p>');
    expect(html).not.toContain('__OFFER_');
  });

  it('hides the slots of testimonials not entered, and trims what it stores', async () => {
    const one = { testimonials: [{ name: '  Dr. Ana Ruiz ', practice: 'Ruiz', quote: ' Fewer calls. ' }], guarantee: ' Money back. ' };
    expect((await request('PUT', '/api/admin/content', one)).json()).toEqual({
      testimonials: [{ name: 'Dr. Ana Ruiz', practice: 'Ruiz', quote: 'Fewer calls.' }],
      guarantee: 'Money back.',
    });
    const html = await page();
    expect(html).toContain('data-offer-testimonial="0">');
    expect(html).toContain('data-offer-testimonial="1" hidden');
    expect(html).toContain('data-offer-testimonial="2" hidden');
    expect(html).not.toContain('data-offer-testimonials="" hidden');
  });

  it.each([
    ['four testimonials', { ...THREE, testimonials: [...THREE.testimonials, THREE.testimonials[0]] }],
    ['a blank name', { ...THREE, testimonials: [{ ...THREE.testimonials[0], name: '   ' }] }],
    ['no practice', { ...THREE, testimonials: [{ name: 'Dr. A', quote: 'Q' }] }],
    ['an unknown field', { ...THREE, testimonials: [{ ...THREE.testimonials[0], stars: 5 }] }],
    ['an empty guarantee', { ...THREE, guarantee: '' }],
    ['a quote of 601 characters', { ...THREE, testimonials: [{ ...THREE.testimonials[0], quote: 'x'.repeat(601) }] }],
    ['a NUL character', { ...THREE, guarantee: 'Money\u0000back' }],
    ['no guarantee', { testimonials: [] }],
    ['not an object', [1, 2]],
  ])('refuses %s with 400 { error } and keeps what was saved', async (_, body) => {
    await request('PUT', '/api/admin/content', THREE);
    const refused = await request('PUT', '/api/admin/content', body);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ error: expect.any(String) });
    expect((await request('GET', '/api/admin/content')).json()).toEqual(THREE);
    expect(await server.rows(offerContent)).toBe(1);
  });

  it('answers 401 without a session', async () => {
    expect((await request('GET', '/api/admin/content', undefined, false)).statusCode).toBe(401);
    expect((await request('PUT', '/api/admin/content', THREE, false)).statusCode).toBe(401);
  });

  it('stores a referrer\'s name without a leading "Dr." (one rule with the console\'s form)', async () => {
    const created = await request('POST', '/api/admin/referrers', {
      slug: 'mark-lee',
      displayName: 'Dr. Mark Lee',
      shortLabel: 'dr-lee',
      quote: 'Q.',
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().displayName).toBe('Mark Lee');
    const renamed = await request('PATCH', `/api/admin/referrers/${created.json().id}`, { displayName: 'dr  Mark   Lee' });
    expect(renamed.json().displayName).toBe('Mark Lee');
    const drew = await request('PATCH', `/api/admin/referrers/${created.json().id}`, { displayName: 'Drew Lee' });
    expect(drew.json().displayName).toBe('Drew Lee');
    const nothingLeft = await request('POST', '/api/admin/referrers', {
      slug: 'nobody',
      displayName: 'Dr. ',
      shortLabel: 'x',
      quote: 'Q.',
    });
    expect(nothingLeft.statusCode).toBe(400);
    expect(nothingLeft.json().error).toMatch(/after 'Dr\.'/);
    const taken = await request('POST', '/api/admin/referrers', {
      slug: 'mark-lee',
      displayName: 'Mark Lee',
      shortLabel: 'x',
      quote: 'Q.',
    });
    expect(taken.statusCode).toBe(409);
  });

  describe('mail', () => {
    beforeAll(async () => {
      await server.db.insert(orders).values({
        transactionId: 'txn-mail-search',
        provider: 'sandbox',
        customerId: 'cus_mail',
        subscriptionId: 'sub_mail',
        subscriptionItemId: 'si_mail',
        quantity: 1,
        amountCents: 50000,
        clientSecret: 'cs_mail',
        affiliateId: 'dr-sample',
        affiliateSource: 'http://localhost/',
        email: 'Grace.Hopper@example.com',
      });
      await server.db.insert(outbox).values([
        { kind: 'mail', topic: 'order_confirmation', dedupeKey: 'm1', transactionId: 'txn-mail-search', payload: {}, status: 'sent' },
        {
          kind: 'mail',
          topic: 'order_confirmation',
          dedupeKey: 'm2',
          payload: {},
          status: 'held',
          rendered: { to: 'ada@example.com', subject: 'Active', text: 'Manage: http://localhost:3000/account?token=[hidden]' },
        },
        { kind: 'mail', topic: 'account_link', dedupeKey: 'm3', payload: { email: 'ada_lovelace@example.com' }, status: 'dropped' },
      ]);
      const [referrer] = await server.db
        .insert(referrers)
        .values({ slug: 'mail-kate', displayName: 'Kate', shortLabel: 'dr-kate', quote: 'Q', email: 'kate.payee@example.com' })
        .returning();
      await server.db.insert(outbox).values([
        {
          kind: 'mail',
          topic: 'seat_invitation',
          dedupeKey: 'm4',
          transactionId: 'txn-mail-search',
          payload: { seatId: 'seat-x', seatNumber: 2, seatEmail: 'invited.member@example.com', seatName: 'Member', role: 'member' },
          status: 'sent',
        },
        {
          kind: 'mail',
          topic: 'partner_payout_paid',
          dedupeKey: 'm5',
          payload: { referrerId: referrer!.id, amountCents: 20_000, reference: 'PP-1', batchId: 1 },
          status: 'sent',
        },
      ]);
    });

    const mails = async (query = '') =>
      (await request('GET', `/api/admin/mail${query}`)).json<{ mails: Array<{ recipient: string }>; delivery: string }>();

    it('finds mails by part of the recipient, in any case, on the server', async () => {
      expect((await mails('?to=GRACE')).mails.map((mail) => mail.recipient)).toEqual(['Grace.Hopper@example.com']);
      expect((await mails('?to=ada')).mails.map((mail) => mail.recipient)).toEqual(['ada_lovelace@example.com', 'ada@example.com']);
      // % and _ are the text typed, not patterns.
      expect((await mails('?to=ada_')).mails.map((mail) => mail.recipient)).toEqual(['ada_lovelace@example.com']);
      expect((await mails('?to=%25')).mails).toEqual([]);
      expect((await mails()).mails.length).toBeGreaterThanOrEqual(5);
      // An invitation is the invited member's mail, not the buyer's; a payout mail the referrer's.
      expect((await mails('?to=invited.member')).mails.map((mail) => mail.recipient)).toEqual(['invited.member@example.com']);
      expect((await mails('?to=grace')).mails.map((mail) => mail.recipient)).toEqual(['Grace.Hopper@example.com']);
      expect((await mails('?to=kate.payee')).mails.map((mail) => mail.recipient)).toEqual(['kate.payee@example.com']);
      expect((await request('GET', `/api/admin/mail?to=${'x'.repeat(255)}`)).statusCode).toBe(400);
      expect((await request('GET', '/api/admin/mail?from=a')).statusCode).toBe(400);
    });

    it('tells the console that mail is held without SMTP_URL, and sent with it', async () => {
      expect((await mails()).delivery).toBe('held');
      const sending = await server.derive({ env: { SMTP_URL: 'smtp://127.0.0.1:1', SIGN_INS_PER_15_MINUTES: '1000' } });
      try {
        const response = await sending.app.inject({ method: 'GET', url: '/api/admin/mail?to=grace', headers: { cookie } });
        expect(response.json().delivery).toBe('smtp');
      } finally {
        await sending.close();
      }
    });
  });
});
