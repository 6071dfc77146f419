/**
 * Disputes in the sandbox (the offline default), on PGlite and PostgreSQL: Stripe's test card 4000 0000 0000 0259
 * pays, then a dispute of the payment opens; POST /api/sandbox/disputes/:id/close decides it won or lost, and the
 * one lifecycle does what it does with Stripe: the order shows the open dispute with its deadline, the owner is
 * mailed, the referrer's commission is taken back and given back when won; lost ends the subscription and the
 * order. A payment a dispute holds is not refunded from the console (the buyer would get it twice); the billing
 * clock past the evidence deadline loses a dispute nobody answered. Bad input is a 4xx `{ error }` and changes
 * nothing.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveOwner } from '../../../../server/admin/owners';
import {
  commissionEntries,
  orderDisputes,
  orders,
  outbox,
  referrers,
  sandboxDisputes,
  sandboxRefunds,
  sandboxSubscriptions,
} from '../../../../server/db/schema';
import { confirmBody, createBody, DATABASES, startTestServer, type TestServer } from '../../helper';

const DISPUTING_CARD = '4000000000000259';

describe.each(DATABASES)('sandbox disputes on %s', (kind) => {
  let server: TestServer;
  let referral: string;
  let owner: string;

  beforeAll(async () => {
    server = await startTestServer(kind, { env: { SANDBOX_CLOCK: '1' } });
    await saveOwner(server.db, 'owner@example.com', 'correct horse battery staple');
    await server.db
      .insert(referrers)
      .values({ slug: 'bea', displayName: 'Bea', shortLabel: 'dr-bea', quote: 'Q', email: 'bea@example.com' });
    const link = await server.app.inject({ method: 'GET', url: '/r/bea' });
    referral = `referral=${link.cookies.find((each) => each.name === 'referral')!.value}`;
    const signedIn = await server.post('/api/admin/sign-in', { email: 'owner@example.com', password: 'correct horse battery staple' });
    owner = `owner_session=${signedIn.cookies.find((each) => each.name === 'owner_session')!.value}`;
  });
  const consoleGet = (url: string) => server.app.inject({ method: 'GET', url, headers: { cookie: owner } });
  afterAll(async () => {
    await server.close();
  });

  /** A referred 3-seat purchase paid with `card`; its transaction id. */
  async function buy(card: string): Promise<string> {
    const opened = await server.post('/api/create-anon-subscription-intent', createBody(3), { cookie: referral });
    expect(opened.statusCode).toBe(200);
    const session = opened.json<{ clientSecret: string; transactionId: string }>();
    const paid = await server.post('/api/sandbox/payment-intents/confirm', confirmBody(session.clientSecret, card));
    expect(paid.statusCode, paid.body).toBe(200);
    return session.transactionId;
  }
  const disputeOf = async (transactionId: string) =>
    (await server.db.select().from(orderDisputes).where(eq(orderDisputes.transactionId, transactionId)))[0];
  const net = async (transactionId: string) =>
    (await server.db.select().from(commissionEntries).where(eq(commissionEntries.transactionId, transactionId))).reduce(
      (sum, entry) => sum + entry.amountCents,
      0,
    );
  const ownerMails = async (transactionId: string) =>
    (await server.db.select().from(outbox).where(eq(outbox.transactionId, transactionId)))
      .map((row) => row.topic)
      .filter((topic) => topic.startsWith('owner_'));
  const close = (disputeId: string, outcome: string) => server.post(`/api/sandbox/disputes/${disputeId}/close`, { outcome });
  const refund = (transactionId: string) => server.post(`/api/admin/orders/${transactionId}/refund`, {}, { cookie: owner });
  const refundedCents = async (transactionId: string) => {
    const [subscription] = await server.db.select().from(sandboxSubscriptions).where(eq(sandboxSubscriptions.transactionId, transactionId));
    const rows = await server.db.select().from(sandboxRefunds).where(eq(sandboxRefunds.subscriptionId, subscription!.id));
    return rows.reduce((sum, row) => sum + row.amountCents, 0);
  };

  it('4000 0000 0000 0259 pays, then a dispute opens: the order shows it with its deadline, the owner is mailed, the commission taken back; won gives it back', async () => {
    const transactionId = await buy(DISPUTING_CARD);
    const dispute = await disputeOf(transactionId);
    expect(dispute).toMatchObject({ amountCents: 100_000, outcome: 'open', providerStatus: 'needs_response', reason: 'fraudulent' });
    const days = (dispute!.evidenceDueBy!.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThan(7.1);
    const [order] = await server.db.select().from(orders).where(eq(orders.transactionId, transactionId));
    expect(order).toMatchObject({ status: 'paid' });
    expect(await ownerMails(transactionId)).toEqual(['owner_dispute_opened']);
    expect(await net(transactionId)).toBe(0);
    // The console: "Disputed" with the deadline on the order's page, and in the Orders filter (only there).
    const detail = await consoleGet(`/api/admin/orders/${transactionId}`);
    expect(detail.json().order).toMatchObject({ disputed: true, disputeDueBy: dispute!.evidenceDueBy!.toISOString() });
    const listed = async (status: string) =>
      (await consoleGet(`/api/admin/orders?status=${status}`))
        .json<{ orders: { transactionId: string }[] }>()
        .orders.map((o) => o.transactionId);
    expect(await listed('disputed')).toContain(transactionId);
    expect(await listed('active')).not.toContain(transactionId);

    expect((await close(dispute!.disputeId, 'won')).statusCode).toBe(200);
    expect(await listed('disputed')).not.toContain(transactionId);
    expect(await listed('active')).toContain(transactionId);
    expect(await disputeOf(transactionId)).toMatchObject({ outcome: 'won' });
    expect(await net(transactionId)).toBe(20_000);
    expect(await ownerMails(transactionId)).toEqual(['owner_dispute_opened', 'owner_dispute_won']);
    // Decided once: closing it again is refused and changes nothing.
    const again = await close(dispute!.disputeId, 'lost');
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ error: 'This dispute is already closed.' });
    expect(await disputeOf(transactionId)).toMatchObject({ outcome: 'won' });
  });

  it('a lost dispute ends the sandbox subscription and the order; the commission stays taken back', async () => {
    const transactionId = await buy(DISPUTING_CARD);
    const dispute = await disputeOf(transactionId);
    expect((await close(dispute!.disputeId, 'lost')).statusCode).toBe(200);
    const [order] = await server.db.select().from(orders).where(eq(orders.transactionId, transactionId));
    expect(order).toMatchObject({ status: 'cancelled' });
    const [subscription] = await server.db.select().from(sandboxSubscriptions).where(eq(sandboxSubscriptions.transactionId, transactionId));
    expect(subscription).toMatchObject({ status: 'canceled' });
    expect(await net(transactionId)).toBe(0);
    expect(await ownerMails(transactionId)).toEqual(['owner_dispute_opened', 'owner_dispute_lost']);
  });

  it('a payment under an open dispute is not refunded from the console; once the dispute is won it is', async () => {
    const transactionId = await buy(DISPUTING_CARD);
    const held = await refund(transactionId);
    expect([held.statusCode, held.json()]).toEqual([
      400,
      { error: 'That is more than is left to refund: what was paid, less refunds and any payment a dispute holds.' },
    ]);
    expect(await refundedCents(transactionId)).toBe(0);
    const [order] = await server.db.select().from(orders).where(eq(orders.transactionId, transactionId));
    expect(order).toMatchObject({ status: 'paid', refundedCents: 0 });

    expect((await close((await disputeOf(transactionId))!.disputeId, 'won')).statusCode).toBe(200);
    const refunded = await refund(transactionId);
    expect(refunded.statusCode, refunded.body).toBe(200);
    expect(await refundedCents(transactionId)).toBe(100_000);
  });

  it('another card opens no dispute; an unknown dispute or a bad outcome is a 4xx { error } and changes nothing', async () => {
    const transactionId = await buy('4242424242424242');
    expect(await disputeOf(transactionId)).toBeUndefined();
    const before = await server.rows(sandboxDisputes);
    const unknown = await close('du_sbx_unknown', 'won');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: 'No such dispute.' });
    const bad = await close('du_sbx_unknown', 'maybe');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toHaveProperty('error');
    expect(await server.rows(sandboxDisputes)).toBe(before);
  });

  // Last: the billing clock moves for the whole database.
  it('the billing clock past the evidence deadline closes an unanswered dispute lost, as Stripe does', async () => {
    const transactionId = await buy(DISPUTING_CARD);
    const advance = (days: number) => server.post('/api/sandbox/clock/advance', { days });
    expect((await advance(6)).statusCode).toBe(200);
    expect(await disputeOf(transactionId)).toMatchObject({ outcome: 'open' });
    expect((await advance(2)).statusCode).toBe(200);
    expect(await disputeOf(transactionId)).toMatchObject({ outcome: 'lost' });
    const [order] = await server.db.select().from(orders).where(eq(orders.transactionId, transactionId));
    expect(order).toMatchObject({ status: 'cancelled' });
    expect(await ownerMails(transactionId)).toEqual(['owner_dispute_opened', 'owner_dispute_lost']);
  });
});
