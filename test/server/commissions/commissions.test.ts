/**
 * Referrers are paid (docs/decisions/0035), on PGlite and PostgreSQL, against real parts (a real SMTP
 * server receives the mails): a referred purchase earns 20 % held; the sandbox clock (SANDBOX_CLOCK=1) releases it
 * and books the renewal; a replayed invoice books once; a refund within the guarantee reverses; a referrer buying
 * through their own link earns nothing, flagged; a rule change applies to later invoices; payout batches (one entry
 * in one live batch, even when two are created at once; void; paid with a reference and a mail); a refund after
 * the payout claws back; and the referrer's page, signed in from the mail, shows only their own.
 */
import { and, eq } from 'drizzle-orm';
import { featureMail } from '../../../server/app';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveOwner } from '../../../server/admin/owners';
import { commissionEntries, outbox, partnerLinks, payoutBatchEntries } from '../../../server/db/schema';
import { deleteExpiredRecords } from '../../../server/checkout/retention';
import { applyPaymentEvent } from '../../../server/checkout/applyPaymentEvent';
import { deliverDue, smtpMailer, type OutboxContext } from '../../../server/outbox/outboxWorker';
import { startMailCatcher, type MailCatcher } from '../../support/mailCatcher';
import { confirmBody, createBody, DATABASES, startTestServer, type TestServer } from '../helper';
import type { PartnerView } from '../../../src/contract/commissions';

const OWNER = { email: 'owner@example.com', password: 'correct horse battery staple' };
const JANE = 'jane@example.com';
const BOB = 'bob@example.com';

describe.each(DATABASES)('commissions on %s', (kind) => {
  let server: TestServer;
  let mail: MailCatcher;
  let outboxContext: OutboxContext;
  let owner: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    mail = await startMailCatcher();
    server = await startTestServer(kind, {
      env: { SMTP_URL: mail.url, PUBLIC_URL: 'https://checkout.test', SANDBOX_CLOCK: '1', ACCOUNT_LINKS_PER_15_MINUTES: '1000' },
    });
    outboxContext = {
      db: server.db,
      config: server.config,
      log: server.app.log,
      mailer: smtpMailer(mail.url, server.config.MAIL_FROM),
      mail: featureMail(),
    };
    await saveOwner(server.db, OWNER.email, OWNER.password);
    const signedIn = await server.post('/api/admin/sign-in', OWNER);
    owner = `owner_session=${signedIn.cookies.find((each) => each.name === 'owner_session')!.value}`;
    for (const [slug, email] of [
      ['jane', JANE],
      ['bob', BOB],
    ] as const) {
      const created = await server.post(
        '/api/admin/referrers',
        { slug, displayName: slug, shortLabel: `dr-${slug}`, quote: 'Q' },
        { cookie: owner },
      );
      ids[slug] = created.json<{ id: string }>().id;
      expect((await put(`/api/admin/commissions/referrers/${ids[slug]}`, { email })).statusCode).toBe(204);
    }
  });
  afterAll(async () => {
    await server.close();
    await mail.close();
  });

  const put = (url: string, body: unknown) =>
    server.app.inject({
      method: 'PUT',
      url,
      headers: { cookie: owner, 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
  const get = (url: string, cookie = owner) => server.app.inject({ method: 'GET', url, headers: { cookie } });
  const advance = (days: number) => server.post('/api/sandbox/clock/advance', { days });
  const entriesOf = (transactionId: string) =>
    server.db.select().from(commissionEntries).where(eq(commissionEntries.transactionId, transactionId)).orderBy(commissionEntries.id);

  let buyers = 0;
  /** A purchase of `quantity` seats through `slug`'s link by `email` (a new buyer when left out). */
  async function buy(slug: string, quantity = 3, email = `buyer${(buyers += 1)}@example.com`) {
    const link = await server.app.inject({ method: 'GET', url: `/r/${slug}` });
    const cookie = `referral=${link.cookies.find((each) => each.name === 'referral')!.value}`;
    const opened = await server.post('/api/create-anon-subscription-intent', createBody(quantity), { cookie });
    expect(opened.statusCode).toBe(200);
    const session = opened.json<{ clientSecret: string; transactionId: string; subscriptionId: string }>();
    const paid = await server.post('/api/sandbox/payment-intents/confirm', {
      ...confirmBody(session.clientSecret),
      billingDetails: { name: 'Ada Palmer', email },
    });
    expect(paid.statusCode).toBe(200);
    return session;
  }

  /** Signs in to /partner as the referrer of `email` from the link in their mail; returns the cookie. */
  async function partnerSession(email: string): Promise<string> {
    expect((await server.post('/api/partner/link', { email })).statusCode).toBe(202);
    await deliverDue(outboxContext);
    const received = await mail.waitFor(email, /^Your link to your partner page$/);
    const token = /\/partner\?token=([\w-]+)/.exec(received.text)![1];
    const opened = await server.post('/api/partner/session', { token });
    expect(opened.statusCode).toBe(204);
    const cookie = opened.cookies.find((each) => each.name === 'partner_session')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/partner' });
    // The link works once.
    expect((await server.post('/api/partner/session', { token })).statusCode).toBe(401);
    return `partner_session=${cookie.value}`;
  }
  const partner = async (cookie: string) => {
    const response = await get('/api/partner', cookie);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<PartnerView>();
  };

  let first: { transactionId: string; subscriptionId: string };
  let jane: string;

  it('a referred 3-seat purchase ($1,000) earns 20 %, $200.00, held; the referrer sees it on their page', async () => {
    first = await buy('jane');
    expect(await entriesOf(first.transactionId)).toEqual([
      expect.objectContaining({ kind: 'earned', amountCents: 20_000, invoiceCents: 100_000, seats: 3, selfReferral: false, ruleId: null }),
    ]);
    // Jane hears of it at once, with the day it becomes payable (30 days on, after the guarantee).
    await deliverDue(outboxContext);
    const earned = await mail.waitFor(JANE, /^You earned \$200\.00 in referral commission$/);
    const [entry] = await entriesOf(first.transactionId);
    const payable = new Date(entry!.earnedAt.getTime() + 30 * 86_400_000).toLocaleDateString('en-US', {
      month: 'long',
      day: 'numeric',
      year: 'numeric',
      timeZone: 'UTC',
    });
    expect(earned.text).toContain('Ada P., a practice you referred, paid $1,000.00. Your commission: $200.00.');
    expect(earned.text).toContain(`payable from ${payable}.`);
    jane = await partnerSession(JANE);
    const view = await partner(jane);
    expect(view.totals).toEqual({ held: 20_000, payable: 0, inPayout: 0, paid: 0, reversed: 0 });
    expect(view.link).toBe('https://checkout.test/r/jane');
    expect(view.qrSvg).toMatch(/^<svg/);
    expect(view.funnel).toMatchObject({ practicesPaid: 1, activeSeats: 3, monthlyRevenueCents: 100_000, checkoutsOpened: 1 });
    expect(view.practices).toEqual([
      expect.objectContaining({
        name: 'Ada P.',
        seats: 3,
        status: 'paid',
        entries: [expect.objectContaining({ amountCents: 20_000, state: 'held' })],
      }),
    ]);
  });

  it('the ledger refuses to change or delete an entry: a correction is a new entry that reverses it', async () => {
    const mine = eq(commissionEntries.transactionId, first.transactionId);
    const refusal = (query: PromiseLike<unknown>) =>
      Promise.resolve(query).then(
        () => 'done',
        (error: unknown) => String(error instanceof Error && error.cause instanceof Error ? error.cause.message : error),
      );
    expect(await refusal(server.db.update(commissionEntries).set({ amountCents: 0 }).where(mine))).toMatch(
      /commission_entries is append-only/,
    );
    expect(await refusal(server.db.delete(commissionEntries).where(mine))).toMatch(/commission_entries is append-only/);
    expect(await entriesOf(first.transactionId)).toEqual([expect.objectContaining({ kind: 'earned', amountCents: 20_000 })]);
  });

  it('a referrer is welcomed to their partner page when the owner gives them an email, once per address', async () => {
    await deliverDue(outboxContext);
    const welcome = await mail.waitFor(BOB, /^Your referrals and commissions, on your partner page$/);
    expect(welcome.text).toContain('https://checkout.test/r/bob');
    const token = /\/partner\?token=([\w-]+)/.exec(welcome.text)![1];
    expect((await server.post('/api/partner/session', { token })).statusCode).toBe(204);
    const welcomes = async () =>
      (await server.db.select().from(outbox).where(eq(outbox.topic, 'partner_welcome'))).map((row) => row.dedupeKey).length;
    const before = await welcomes();
    // The same address again, in another case: no second welcome; a new address: welcomed there.
    expect((await put(`/api/admin/commissions/referrers/${ids.bob}`, { email: BOB.toUpperCase() })).statusCode).toBe(204);
    expect(await welcomes()).toBe(before);
    expect((await put(`/api/admin/commissions/referrers/${ids.bob}`, { email: 'bob.new@example.com' })).statusCode).toBe(204);
    expect(await welcomes()).toBe(before + 1);
    await deliverDue(outboxContext);
    await mail.waitFor('bob.new@example.com', /^Your referrals and commissions, on your partner page$/);
    expect((await put(`/api/admin/commissions/referrers/${ids.bob}`, { email: BOB })).statusCode).toBe(204);
  });

  it('a referrer buying through their own link earns nothing and is flagged', async () => {
    const own = await buy('jane', 1, JANE.toUpperCase());
    expect(await entriesOf(own.transactionId)).toEqual([expect.objectContaining({ kind: 'earned', amountCents: 0, selfReferral: true })]);
  });

  it('a refund within the guarantee reverses the held commission', async () => {
    const refunded = await buy('jane');
    const response = await server.post(`/api/admin/orders/${refunded.transactionId}/refund`, {}, { cookie: owner });
    expect(response.statusCode, response.body).toBe(200);
    const entries = await entriesOf(refunded.transactionId);
    expect(entries.map((entry) => [entry.kind, entry.amountCents])).toEqual([
      ['earned', 20_000],
      ['reversal', -20_000],
    ]);
    expect((await partner(jane)).totals).toMatchObject({ held: 20_000, reversed: 20_000 });
  });

  it('a rule change applies to invoices paid after it, and the entry keeps the rule it used', async () => {
    expect(
      (await put(`/api/admin/commissions/referrers/${ids.bob}`, { rule: { kind: 'flat', flatCentsPerSeat: 1_000, months: 1 } })).statusCode,
    ).toBe(204);
    const flat = await buy('bob', 4);
    expect(await entriesOf(flat.transactionId)).toEqual([
      expect.objectContaining({ amountCents: 4_000, ruleText: '$10.00 per seat per month, first 1 month, month 1' }),
    ]);
    expect((await put(`/api/admin/commissions/referrers/${ids.bob}`, { rule: null })).statusCode).toBe(204);
    const overview = await get('/api/admin/commissions');
    expect(overview.json().referrers.find((row: { slug: string }) => row.slug === 'bob')).toMatchObject({
      rule: '20 % of each invoice',
      ruleIsDefault: true,
    });
  });

  it('the sandbox clock +31 days makes it payable and books the renewal held; a replayed invoice books once', async () => {
    expect((await advance(31)).statusCode).toBe(200);
    const entries = await entriesOf(first.transactionId);
    expect(entries.map((entry) => [entry.kind, entry.amountCents])).toEqual([
      ['earned', 20_000],
      ['earned', 20_000],
    ]);
    expect((await partner(jane)).totals).toMatchObject({ held: 20_000, payable: 20_000 });
    // The same renewal reported again under another event id (a provider's retry) books nothing new.
    const replay = await applyPaymentEvent(server.context(), {
      eventId: 'replayed-renewal',
      kind: 'invoice_paid',
      providerType: 'sandbox.invoice.paid',
      subscriptionId: first.subscriptionId,
      transactionId: first.transactionId,
    });
    expect(replay.ok).toBe(true);
    expect(await entriesOf(first.transactionId)).toHaveLength(2);
    // Bob's renewal was paid after his rule went back to the default: 20 % of $1,500.
    const bobs = await server.db.select().from(commissionEntries).where(eq(commissionEntries.referrerId, ids.bob!));
    expect(bobs.map((entry) => entry.amountCents)).toEqual([4_000, 30_000]);
  });

  it('payout batches: two created at once take each entry once; void returns them; paid with a reference mails the referrer', async () => {
    const batch = (minimumCents?: number) =>
      server.post('/api/admin/commissions/batches', minimumCents ? { minimumCents } : {}, { cookie: owner });
    const [one, two] = await Promise.all([batch(), batch()]);
    expect([one.statusCode, two.statusCode].sort()).toEqual([201, 409]);
    const created = (one.statusCode === 201 ? one : two).json<{ id: number; payees: { slug: string; amountCents: number }[] }>();
    expect(created.payees).toEqual([expect.objectContaining({ slug: 'jane', amountCents: 20_000 })]);
    // Bob's payable $40.00 is under the $50 minimum (his renewal's $300.00 is held).
    expect(created.payees.some((payee) => payee.slug === 'bob')).toBe(false);
    const paypal = await get(`/api/admin/commissions/batches/${created.id}/paypal.csv`);
    expect(paypal.body).toBe(`${JANE},200.00,USD,B${created.id}-jane,"Referral commission, payout ${created.id}",PAYPAL\n`);
    expect((await get(`/api/admin/commissions/batches/${created.id}/payout.csv`)).body).toContain(
      `${created.id},jane,jane,${JANE},200.00,1,created`,
    );
    // The database refuses a second live batch for the same entry.
    const [locked] = await server.db.select().from(payoutBatchEntries).where(eq(payoutBatchEntries.batchId, created.id));
    await expect(server.db.insert(payoutBatchEntries).values({ ...locked!, batchId: created.id + 1000 })).rejects.toThrow();

    expect((await server.post(`/api/admin/commissions/batches/${created.id}/void`, {}, { cookie: owner })).statusCode).toBe(200);
    expect((await partner(jane)).totals).toMatchObject({ payable: 20_000, inPayout: 0 });
    const again = await batch();
    expect(again.statusCode).toBe(201);
    const paid = await server.post(
      `/api/admin/commissions/batches/${again.json().id}/paid`,
      { reference: 'PAYPAL-123' },
      { cookie: owner },
    );
    expect(paid.statusCode).toBe(200);
    expect(paid.json()).toMatchObject({ status: 'paid', reference: 'PAYPAL-123' });
    expect((await server.post(`/api/admin/commissions/batches/${again.json().id}/void`, {}, { cookie: owner })).statusCode).toBe(409);
    await deliverDue(outboxContext);
    expect((await mail.waitFor(JANE, /\$200\.00 is paid/)).text).toContain('PAYPAL-123');
    const view = await partner(jane);
    expect(view.totals).toMatchObject({ held: 20_000, payable: 0, paid: 20_000 });
    expect(view.payouts).toEqual([expect.objectContaining({ status: 'paid', amountCents: 20_000, reference: 'PAYPAL-123' })]);
    expect((await batch()).statusCode).toBe(409);
  });

  it('a refund after the payout claws the paid commission back from the next payout; the held renewal is reversed', async () => {
    const refunded = await server.post(`/api/admin/orders/${first.transactionId}/refund`, { amountCents: 200_000 }, { cookie: owner });
    expect(refunded.statusCode, refunded.body).toBe(200);
    const entries = await entriesOf(first.transactionId);
    expect(entries.map((entry) => [entry.kind, entry.amountCents]).sort()).toEqual([
      ['clawback', -20_000],
      ['earned', 20_000],
      ['earned', 20_000],
      ['reversal', -20_000],
    ]);
    expect((await partner(jane)).totals).toMatchObject({ held: 0, payable: -20_000, paid: 20_000 });
    const orderEntries = await get(`/api/admin/orders/${first.transactionId}/commissions`);
    expect(orderEntries.json().entries.map((entry: { state: string }) => entry.state)).toEqual(['paid', 'reversed', 'reversed', 'payable']);
  });

  it('bad input is a 4xx with { error }, and changes nothing', async () => {
    const before = await server.rows(commissionEntries);
    const refused = [
      await put(`/api/admin/commissions/referrers/${ids.jane}`, { email: 'not an email' }),
      await put(`/api/admin/commissions/referrers/${ids.jane}`, { rule: { kind: 'percent', percentBasisPoints: 20_001, months: null } }),
      await put(`/api/admin/commissions/referrers/${ids.jane}`, { rule: { kind: 'flat', flatCentsPerSeat: '10', months: null } }),
      await put('/api/admin/commissions/referrers/not-a-uuid', { email: JANE }),
      await put('/api/admin/commissions/default-rule', { rule: { kind: 'percent', percentBasisPoints: 1.5, months: null } }),
      await server.post('/api/admin/commissions/batches', { minimumCents: 'abc' }, { cookie: owner }),
      await server.post('/api/admin/commissions/batches/1/paid', {}, { cookie: owner }),
      await server.post('/api/admin/commissions/batches/999999/paid', { reference: 'X' }, { cookie: owner }),
      await server.post('/api/admin/commissions/batches/abc/void', {}, { cookie: owner }),
      await get('/api/admin/commissions/batches/999999/paypal.csv'),
      await server.post('/api/partner/session', { token: '' }),
      await server.post('/api/partner/session', { token: 'no-such-token' }),
      await server.post('/api/partner/link', { email: 42 }),
      await get('/api/partner?from=2026-02-01&to=2026-01-01', jane),
    ];
    for (const response of refused) {
      expect(response.statusCode, response.body).toBeGreaterThanOrEqual(400);
      expect(response.statusCode, response.body).toBeLessThan(500);
      expect(response.json()).toEqual({ error: expect.any(String) });
    }
    expect(await server.rows(commissionEntries)).toBe(before);
  });

  it('the referrer reaches nothing of another referrer, route by route', async () => {
    const bob = await partnerSession(BOB);
    const view = await partner(bob);
    expect(view.displayName).toBe('bob');
    expect(view.practices.map((practice) => practice.seats)).toEqual([4]);
    expect(view.payouts).toEqual([]);
    const csv = await get('/api/partner/ledger.csv', bob);
    expect(csv.body.trim().split('\n')).toHaveLength(3);
    expect(csv.body).not.toContain('200.00');
    // No route takes another referrer's id; the console's routes refuse a partner session.
    for (const url of [`/api/partner?referrer=${ids.jane}`, `/api/partner/${ids.jane}`, `/api/partner/ledger.csv/${ids.jane}`]) {
      expect((await get(url, bob)).statusCode).toBeGreaterThanOrEqual(400);
    }
    for (const url of [
      '/api/admin/commissions',
      `/api/admin/orders/${first.transactionId}/commissions`,
      '/api/admin/commissions/batches/1/paypal.csv',
    ]) {
      expect((await get(url, bob)).statusCode).toBe(401);
    }
    // Without a session: 401; the page's first question answers 200 either way.
    expect((await get('/api/partner', '')).statusCode).toBe(401);
    expect((await get('/api/partner/ledger.csv', '')).statusCode).toBe(401);
    const probe = async (cookie: string) => {
      const response = await get('/api/partner/session', cookie);
      expect(response.statusCode).toBe(200);
      return response.json<{ signedIn: boolean }>().signedIn;
    };
    expect(await probe('')).toBe(false);
    expect(await probe(jane)).toBe(true);
    // Jane's own sign-out ends her session only.
    expect((await server.post('/api/partner/sign-out', {}, { cookie: jane })).statusCode).toBe(204);
    expect((await get('/api/partner', jane)).statusCode).toBe(401);
    expect(await probe(jane)).toBe(false);
    expect((await get('/api/partner', bob)).statusCode).toBe(200);
    // An unknown email gets the same answer, and no mail.
    expect((await server.post('/api/partner/link', { email: 'nobody@example.com' })).statusCode).toBe(202);
    const rows = await server.db
      .select()
      .from(commissionEntries)
      .where(and(eq(commissionEntries.referrerId, ids.bob!)));
    expect(rows.every((row) => row.referrerId === ids.bob)).toBe(true);
  });

  it('the retention sweep deletes sign-in links to /partner expired for more than a day', async () => {
    await server.db.insert(partnerLinks).values([
      { tokenHash: 'partner-old', referrerId: ids.jane!, expiresAt: new Date(Date.now() - 2 * 24 * 60 * 60 * 1000) },
      { tokenHash: 'partner-live', referrerId: ids.jane!, expiresAt: new Date(Date.now() + 60_000) },
    ]);
    expect((await deleteExpiredRecords(server.db, 30, 30, server.context().listeners)).partnerLinks).toBe(1);
    const left = await server.db.select().from(partnerLinks);
    expect(left.map((row) => row.tokenHash)).toContain('partner-live');
    expect(left.map((row) => row.tokenHash)).not.toContain('partner-old');
  });
});
