/**
 * The record of tax collected (server/tax/, docs/decisions/0074) in the sandbox, on PGlite and PostgreSQL: a Honolulu
 * order's first payment, its renewal and a seat increase's proration each recorded once with the amount before tax
 * and the tax; a renewal after a seat decrease taxed on what the credit leaves; refunds, partial and full, returning
 * the tax share (half up, the whole tax on a full refund), kept with the refund's split and the commission taken back
 * on the part before tax; a failed refund giving the tax back; a repeated event recording nothing twice; an untaxed
 * order recording nothing; the database refusing to change or delete a record (migration 0024).
 */
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TaxQuote } from '../../../src/contract/checkout';
import type { SeatChangePreview } from '../../../src/contract/account';
import { taxCents } from '../../../src/domain/tax';
import { saveOwner } from '../../../server/admin/owners';
import { issueAccountLink } from '../../../server/account/accountLinks';
import { applyPaymentEvents } from '../../../server/checkout';
import { commissionEntries, orderRefunds, orders, sandboxInvoices, taxRecords } from '../../../server/db/schema';
import { sandboxEvent } from '../../../server/payments/sandbox/billing';
import { confirmBody, createBody, DATABASES, finalize, locateBody, startTestServer, type TestServer } from '../helper';

const OWNER = { email: 'owner@example.com', password: 'correct horse battery staple' };
const HONOLULU = '96813';
const HI_RATE = 47_120;

describe.each(DATABASES)('the record of tax collected, in the sandbox on %s', (kind) => {
  let server: TestServer;
  let owner: string;
  let referral: string;

  beforeAll(async () => {
    server = await startTestServer(kind, { env: { SANDBOX_CLOCK: '1' } });
    await saveOwner(server.db, OWNER.email, OWNER.password);
    const signedIn = await server.post('/api/admin/sign-in', OWNER);
    owner = `owner_session=${signedIn.cookies.find((each) => each.name === 'owner_session')!.value}`;
    const created = await server.post(
      '/api/admin/referrers',
      { slug: 'jane', displayName: 'Jane', shortLabel: 'dr-jane', quote: 'Q' },
      { cookie: owner },
    );
    expect(created.statusCode).toBe(201);
    const link = await server.app.inject({ method: 'GET', url: '/r/jane' });
    referral = `referral=${link.cookies.find((each) => each.name === 'referral')!.value}`;
  });
  afterAll(() => server.close());

  let buyers = 0;
  /** A paid, finalized order of `quantity` seats through Jane's link, located at `postalCode`, paid with `card`. */
  async function buy(quantity: number, postalCode = HONOLULU, card = '4242 4242 4242 4242') {
    buyers += 1;
    const buyer = { email: `taxed${buyers}@example.com`, name: 'Ada Palmer' };
    const opened = await server.post('/api/create-anon-subscription-intent', createBody(quantity), { cookie: referral });
    const session = opened.json<{
      transactionId: string;
      subscriptionId: string;
      subscriptionItemId: string;
      customerId: string;
      clientSecret: string;
    }>();
    const located = await server.post('/api/locate-anon-subscription', locateBody(session, postalCode));
    expect(located.statusCode, located.body).toBe(200);
    const quote = located.json<TaxQuote>();
    const paid = await server.post('/api/sandbox/payment-intents/confirm', confirmBody(quote.clientSecret, card, buyer));
    expect(paid.statusCode, paid.body).toBe(200);
    const current = { ...session, ...quote };
    expect((await finalize(server, current, buyer)).statusCode).toBe(200);
    return current;
  }
  const recordsOf = (transactionId: string) =>
    server.db.select().from(taxRecords).where(eq(taxRecords.transactionId, transactionId)).orderBy(asc(taxRecords.createdAt));
  const refundSplitOf = (transactionId: string) =>
    server.db
      .select({ paymentId: orderRefunds.paymentId, refundedCents: orderRefunds.refundedCents, taxCents: orderRefunds.taxCents })
      .from(orderRefunds)
      .where(eq(orderRefunds.transactionId, transactionId));
  const refund = (transactionId: string, amountCents?: number) =>
    server.post(`/api/admin/orders/${transactionId}/refund`, amountCents === undefined ? {} : { amountCents }, { cookie: owner });
  const taxLeft = async (transactionId: string) => (await recordsOf(transactionId)).reduce((sum, row) => sum + row.taxCents, 0);

  it('records the first payment of a Honolulu order: $500.00 before tax, $23.56 tax, in HI, on the provider ids', async () => {
    const order = await buy(1);
    const [row] = await server.db.select().from(orders).where(eq(orders.transactionId, order.transactionId));
    expect(await recordsOf(order.transactionId)).toEqual([
      expect.objectContaining({
        kind: 'payment',
        recordKey: expect.stringMatching(/^payment:/),
        taxState: 'HI',
        amountCents: 50_000,
        taxCents: 2_356,
        paymentId: row!.paymentIntentId,
      }),
    ]);
  });

  it('records each renewal once, a month on, with its tax, however often its event arrives', async () => {
    const order = await buy(1);
    expect((await server.post('/api/sandbox/clock/advance', { days: 32 })).statusCode).toBe(200);
    const [renewal] = await server.db.select().from(sandboxInvoices).where(eq(sandboxInvoices.subscriptionId, order.subscriptionId));
    const records = await recordsOf(order.transactionId);
    expect(records).toHaveLength(2);
    expect(records[1]).toMatchObject({ kind: 'payment', invoiceId: renewal!.id, amountCents: 50_000, taxCents: 2_356, taxState: 'HI' });
    const days = (records[1]!.occurredAt.getTime() - records[0]!.occurredAt.getTime()) / 86_400_000;
    expect(days).toBeGreaterThanOrEqual(31);

    // The same invoice paid reported again, under its own event id and under another one (a webhook's retry).
    const subject = { subscriptionId: order.subscriptionId, transactionId: order.transactionId };
    const paidAgain = sandboxEvent.invoicePaid(subject, renewal!.id);
    await applyPaymentEvents(server.context(), [paidAgain, { ...paidAgain, eventId: `${paidAgain.eventId}:retry` }]);
    expect(await recordsOf(order.transactionId)).toHaveLength(2);
  });

  it('records a seat increase’s proration with the tax on its own amount', async () => {
    const order = await buy(1);
    const token = await issueAccountLink(server.db, order.transactionId, 'manage', 15);
    const signedIn = await server.post('/api/account/session', { token });
    const cookie = `account_session=${signedIn.cookies.find((each) => each.name === 'account_session')!.value}`;
    const preview = (await server.post('/api/account/seats/preview', { quantity: 3 }, { cookie })).json<SeatChangePreview>();
    const changed = await server.post('/api/account/seats', { quantity: 3, prorationDate: preview.prorationDate }, { cookie });
    expect(changed.statusCode, changed.body).toBe(200);
    const [proration] = await server.db
      .select()
      .from(sandboxInvoices)
      .where(and(eq(sandboxInvoices.subscriptionId, order.subscriptionId), eq(sandboxInvoices.billingReason, 'subscription_update')));
    expect(proration!.taxCents).toBeGreaterThan(0);
    const records = await recordsOf(order.transactionId);
    expect(records).toHaveLength(2);
    const before = proration!.amountCents - proration!.taxCents;
    expect(records[1]).toMatchObject({ kind: 'payment', invoiceId: proration!.id, amountCents: before, taxCents: proration!.taxCents });
    expect(records[1]!.taxCents).toBe(taxCents(before, HI_RATE));
  });

  it('a seat decrease’s credit comes off the next month before tax: the renewal is taxed on what is left to pay', async () => {
    const order = await buy(4); // $1,500.00 a month
    const token = await issueAccountLink(server.db, order.transactionId, 'manage', 15);
    const signedIn = await server.post('/api/account/session', { token });
    const cookie = `account_session=${signedIn.cookies.find((each) => each.name === 'account_session')!.value}`;
    const preview = (await server.post('/api/account/seats/preview', { quantity: 3 }, { cookie })).json<SeatChangePreview>();
    expect(preview.creditCents).toBeGreaterThan(0);
    const changed = await server.post('/api/account/seats', { quantity: 3, prorationDate: preview.prorationDate }, { cookie });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await server.post('/api/sandbox/clock/advance', { days: 32 })).statusCode).toBe(200);
    const [renewal] = await server.db
      .select()
      .from(sandboxInvoices)
      .where(and(eq(sandboxInvoices.subscriptionId, order.subscriptionId), eq(sandboxInvoices.billingReason, 'subscription_cycle')));
    // Three seats are $1,000.00; the credit is money the first payment already paid tax on, so none is charged on it again.
    const before = 100_000 - preview.creditCents;
    expect(renewal).toMatchObject({ amountCents: before + taxCents(before, HI_RATE), taxCents: taxCents(before, HI_RATE) });
    const records = await recordsOf(order.transactionId);
    expect(records[1]).toMatchObject({ kind: 'payment', invoiceId: renewal!.id, amountCents: before, taxCents: taxCents(before, HI_RATE) });
  });

  it('a partial refund returns the tax share, kept with the refund; the rest refunded returns the whole tax', async () => {
    const order = await buy(3); // $1,000.00 + $47.12
    const first = await refund(order.transactionId, 10_001);
    expect(first.statusCode, first.body).toBe(200);
    // 10001 × 4712 ÷ 104712 = 450.04…: $4.50 of tax, $95.51 before tax.
    const [split] = await refundSplitOf(order.transactionId);
    expect(split).toMatchObject({ refundedCents: 10_001, taxCents: 450 });
    expect(first.json<{ order: { refundedCents: number; refundedTaxCents: number } }>().order).toMatchObject({
      refundedCents: 10_001,
      refundedTaxCents: 450,
    });
    const records = await recordsOf(order.transactionId);
    expect(records[1]).toMatchObject({
      kind: 'refund',
      amountCents: -9_551,
      taxCents: -450,
      taxState: 'HI',
      paymentId: records[0]!.paymentId,
    });

    const rest = await refund(order.transactionId, 104_712 - 10_001);
    expect(rest.statusCode, rest.body).toBe(200);
    expect(await refundSplitOf(order.transactionId)).toEqual([expect.objectContaining({ refundedCents: 104_712, taxCents: 4_712 })]);
    const all = await recordsOf(order.transactionId);
    expect(all[2]).toMatchObject({ kind: 'refund', amountCents: -(100_000 - 9_551), taxCents: -(4_712 - 450) });
    expect(await taxLeft(order.transactionId)).toBe(0);
  });

  it('a full refund within the guarantee returns all the tax; the commission is taken back on the part before tax', async () => {
    const order = await buy(1);
    expect((await refund(order.transactionId)).statusCode).toBe(200);
    expect(await refundSplitOf(order.transactionId)).toEqual([expect.objectContaining({ refundedCents: 52_356, taxCents: 2_356 })]);
    expect(await taxLeft(order.transactionId)).toBe(0);
    const entries = await server.db.select().from(commissionEntries).where(eq(commissionEntries.transactionId, order.transactionId));
    expect(entries.reduce((sum, entry) => sum + entry.amountCents, 0)).toBe(0);
  });

  it('half a taxed payment refunded takes back half the commission, not more (20 % of $500.00 earned)', async () => {
    const order = await buy(1);
    expect((await refund(order.transactionId, 26_178)).statusCode).toBe(200);
    expect(await refundSplitOf(order.transactionId)).toEqual([expect.objectContaining({ refundedCents: 26_178, taxCents: 1_178 })]);
    const entries = await server.db.select().from(commissionEntries).where(eq(commissionEntries.transactionId, order.transactionId));
    expect(entries.map((entry) => [entry.kind, entry.amountCents])).toEqual([
      ['earned', 10_000],
      ['reversal', -5_000],
    ]);
  });

  it('a refund that fails gives the tax share back to the record', async () => {
    const order = await buy(1, HONOLULU, '4000000000005126');
    expect((await refund(order.transactionId)).statusCode).toBe(200);
    expect(await taxLeft(order.transactionId)).toBe(0);
    expect((await server.post('/api/sandbox/clock/advance', { days: 1 })).statusCode).toBe(200);
    expect(await refundSplitOf(order.transactionId)).toEqual([expect.objectContaining({ refundedCents: 0, taxCents: 0 })]);
    const records = await recordsOf(order.transactionId);
    expect(records.map((row) => [row.kind, row.amountCents, row.taxCents])).toEqual([
      ['payment', 50_000, 2_356],
      ['refund', -50_000, -2_356],
      ['refund', 50_000, 2_356],
    ]);
  });

  it('refuses to change or delete a record: a filing record is only added to', async () => {
    const order = await buy(1);
    const mine = eq(taxRecords.transactionId, order.transactionId);
    const refusal = (query: PromiseLike<unknown>) =>
      Promise.resolve(query).then(
        () => 'done',
        (error: unknown) => String(error instanceof Error && error.cause instanceof Error ? error.cause.message : error),
      );
    expect(await refusal(server.db.update(taxRecords).set({ taxCents: 0 }).where(mine))).toMatch(/tax_records is append-only/);
    expect(await refusal(server.db.delete(taxRecords).where(mine))).toMatch(/tax_records is append-only/);
    expect(await recordsOf(order.transactionId)).toEqual([expect.objectContaining({ amountCents: 50_000, taxCents: 2_356 })]);
  });

  it('an untaxed order (New York, Arizona at rate 0) records nothing, whatever it is paid or refunded', async () => {
    for (const postalCode of ['10001', '85004']) {
      const order = await buy(1, postalCode);
      expect((await refund(order.transactionId, 10_000)).statusCode).toBe(200);
      expect(await recordsOf(order.transactionId)).toEqual([]);
      expect(await refundSplitOf(order.transactionId)).toEqual([expect.objectContaining({ refundedCents: 10_000, taxCents: 0 })]);
    }
  });
});
