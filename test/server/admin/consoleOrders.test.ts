/**
 * The console's orders and dashboard after real purchases on the sandbox: a buyer's cancellation with
 * a reason shows at once ("cancels at period end", the reason, the Cancellations filter, the dashboard's count);
 * a 0341 card after the clock's +31 days is under "past due" and "a payment failed"; every filter agrees with
 * src/domain/orderStatus.ts; an order's invoices and actions (re-send the confirmation, a sign-in link, cancel at
 * period end or now) and their refusals; money collected with a renewal and a refund, new/churned MRR, the MRR
 * series by day, week and month. On PGlite and PostgreSQL.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueAccountLink } from '../../../server/account/accountLinks';
import { saveOwner } from '../../../server/admin/owners';
import { mrrPointEnds } from '../../../server/admin/reports';
import { outbox } from '../../../server/db/schema';
import type { Dashboard, OrderDetail, OrderRow } from '../../../src/contract/admin';
import { orderStanding, orderStatusWords, type OrderStanding } from '../../../src/domain/orderStatus';
import { confirmBody, DATABASES, openCheckout, startTestServer, type TestServer } from '../helper';

const OWNER = { email: 'owner@example.com', password: 'correct horse battery staple' };
const REASON = 'Too expensive for a 3-doctor clinic';
const today = () => new Date().toISOString().slice(0, 10);

describe.each(DATABASES)("the console's orders and dashboard on %s", (kind) => {
  let server: TestServer;
  let owner: string;
  let buyers = 0;

  beforeAll(async () => {
    server = await startTestServer(kind, { env: { SANDBOX_CLOCK: '1', ACCOUNT_LINKS_PER_15_MINUTES: '1000' } });
    await saveOwner(server.db, OWNER.email, OWNER.password);
    const signedIn = await server.post('/api/admin/sign-in', OWNER);
    owner = `owner_session=${signedIn.cookies.find((each) => each.name === 'owner_session')!.value}`;
  });
  afterAll(() => server.close());

  const get = (url: string) => server.app.inject({ method: 'GET', url, headers: { cookie: owner } });
  const orderAction = (transactionId: string, action: string) =>
    server.post(`/api/admin/orders/${transactionId}/actions`, { action }, { cookie: owner });
  const detail = async (transactionId: string) => (await get(`/api/admin/orders/${transactionId}`)).json<OrderDetail>();
  const listed = async (status: string, extra = '') => {
    const response = await get(`/api/admin/orders?status=${status}${extra}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ orders: OrderRow[] }>().orders;
  };
  const ids = (rows: OrderRow[]) => rows.map((row) => row.transactionId).sort();
  const dashboard = async (query = '') => {
    const response = await get(`/api/admin/dashboard${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Dashboard>();
  };

  /** Buys `quantity` seats with `card` as a new buyer (paid and finalized). */
  async function buy(quantity: number, card = '4242 4242 4242 4242') {
    buyers += 1;
    const email = `console${buyers}@example.com`;
    const session = await openCheckout(server, quantity);
    const paid = await server.post('/api/sandbox/payment-intents/confirm', {
      ...confirmBody(session.clientSecret, card),
      billingDetails: { name: 'Ada Palmer', email },
    });
    expect(paid.statusCode).toBe(200);
    const finalized = await server.post('/api/finalize-anon-subscription', {
      subscriptionId: session.subscriptionId,
      customerId: session.customerId,
      transactionId: session.transactionId,
      email,
      name: 'Ada Palmer',
    });
    expect(finalized.statusCode).toBe(200);
    return session.transactionId;
  }

  /** A manage-page (/account) session for the order, as its mail's link opens one. */
  async function accountCookie(transactionId: string) {
    const token = await issueAccountLink(server.db, transactionId, 'manage', 15);
    const opened = await server.post('/api/account/session', { token });
    expect(opened.statusCode).toBe(200);
    return `account_session=${opened.cookies.find((each) => each.name === 'account_session')!.value}`;
  }

  /** Each filter lists exactly the orders whose standing (src/domain/orderStatus.ts) it names. */
  async function expectFiltersAgreeWithStandings(transactionIds: string[]) {
    const standings = new Map<string, OrderStanding>();
    for (const id of transactionIds) standings.set(id, orderStanding((await detail(id)).order));
    for (const standing of ['open', 'active', 'cancelling', 'past_due', 'cancelled', 'refunded'] as const) {
      const expected = transactionIds.filter((id) => standings.get(id) === standing).sort();
      expect(
        ids(await listed(standing)).filter((id) => transactionIds.includes(id)),
        standing,
      ).toEqual(expected);
    }
  }

  let cancelling: string;
  let renewing: string;
  let failing: string;
  let refunded: string;
  let open: string;

  it('shows a cancellation at once: "Cancels on …", the reason, the filters and the dashboard count it', async () => {
    cancelling = await buy(3);
    renewing = await buy(1);
    failing = await buy(1, '4000 0000 0000 0341');
    refunded = await buy(2);
    open = (await openCheckout(server, 1)).transactionId;
    const before = await dashboard();
    expect(before.collectedCents).toBe(100_000 + 50_000 + 50_000 + 50_000);
    expect(before.newMrrCents).toBe(250_000);
    expect(before.paidOrders).toBe(4);
    expect(before.cancellations).toBe(0);

    const cancelled = await server.post('/api/account/cancel', { reason: `  ${REASON} ` }, { cookie: await accountCookie(cancelling) });
    expect(cancelled.statusCode, cancelled.body).toBe(200);

    const { order, events } = await detail(cancelling);
    expect(order).toMatchObject({ status: 'paid', cancellationReason: REASON, cancelledAt: null });
    expect(order.cancelAt).not.toBeNull();
    expect(orderStatusWords(order)).toMatch(/^Cancels on [A-Z][a-z]{2} \d{1,2}, \d{4}$/);
    expect(events.map((event) => event.type)).toContain('cancel_scheduled');
    expect(events.find((event) => event.type === 'cancel_scheduled')!.detail).toMatchObject({ reason: REASON });

    expect(ids(await listed('cancelling'))).toEqual([cancelling]);
    expect(ids(await listed('active'))).not.toContain(cancelling);
    const cancellations = await listed('cancellations');
    expect(cancellations.map((row) => [row.transactionId, row.cancellationReason])).toEqual([[cancelling, REASON]]);
    expect((await dashboard()).cancellations).toBe(1);
    await expectFiltersAgreeWithStandings([cancelling, renewing, failing, refunded, open]);
  });

  it('an order refunded from the console is "Refunded", and the refund is taken off the money collected', async () => {
    const response = await server.post(`/api/admin/orders/${refunded}/refund`, {}, { cookie: owner });
    expect(response.statusCode, response.body).toBe(200);
    expect(orderStatusWords(response.json<OrderDetail>().order)).toBe('Refunded');
    expect(ids(await listed('refunded'))).toEqual([refunded]);
    const after = await dashboard();
    expect(after.collectedCents).toBe(250_000 - 50_000);
    expect(after.churnedMrrCents).toBe(50_000);
    expect(after.netMrrCents).toBe(250_000 - 50_000);
  });

  it("after the clock's +31 days a 0341 buyer is past due since a day, under past due and a failed payment; a renewal is money collected", async () => {
    const advanced = await server.post('/api/sandbox/clock/advance', { days: 31 });
    expect(advanced.statusCode).toBe(200);
    const { order, invoices } = await detail(failing);
    expect(order.status).toBe('past_due');
    expect(order.pastDueSince).not.toBeNull();
    expect(orderStatusWords(order)).toMatch(/^Past due since [A-Z][a-z]{2} \d{1,2}, \d{4}$/);
    expect(invoices!.map((invoice) => invoice.status).sort()).toEqual(['open', 'paid']);
    expect(ids(await listed('past_due'))).toEqual([failing]);
    expect(ids(await listed('payment_failed', `&from=${today()}&to=${today()}`))).toContain(failing);
    expect(await listed('payment_failed', '&from=2020-01-01&to=2020-01-31')).toEqual([]);

    // The buyer who cancelled has ended at the period's end; the other renewed.
    expect(orderStatusWords((await detail(cancelling)).order)).toBe('Cancelled');
    const renewed = await detail(renewing);
    expect(renewed.invoices!.map((invoice) => [invoice.amountCents, invoice.status])).toEqual([
      [50_000, 'paid'],
      [50_000, 'paid'],
    ]);
    const figures = await dashboard();
    expect(figures.collectedCents).toBe(250_000 - 50_000 + 50_000);
    expect(figures.failedPayments).toBeGreaterThanOrEqual(1);
    await expectFiltersAgreeWithStandings([cancelling, renewing, failing, refunded, open]);
  });

  it("runs the owner's actions: re-send the confirmation, mail a sign-in link, cancel at period end, cancel now", async () => {
    const mails = async (topic: string) =>
      (
        await server.db
          .select()
          .from(outbox)
          .where(and(eq(outbox.transactionId, renewing), eq(outbox.topic, topic)))
      ).length;
    const confirmations = await mails('order_confirmation');
    expect((await orderAction(renewing, 'resend_confirmation')).statusCode).toBe(200);
    expect(await mails('order_confirmation')).toBe(confirmations + 1);
    const links = await mails('account_link');
    expect((await orderAction(renewing, 'send_sign_in_link')).statusCode).toBe(200);
    expect(await mails('account_link')).toBe(links + 1);

    const scheduled = await orderAction(renewing, 'cancel_at_period_end');
    expect(scheduled.statusCode, scheduled.body).toBe(200);
    expect(orderStanding(scheduled.json<OrderDetail>().order)).toBe('cancelling');
    const ended = await orderAction(renewing, 'cancel_now');
    expect(ended.statusCode, ended.body).toBe(200);
    expect(ended.json<OrderDetail>().order).toMatchObject({ status: 'cancelled' });
    expect(ended.json<OrderDetail>().order.cancelledAt).not.toBeNull();

    expect((await orderAction(renewing, 'cancel_now')).json()).toEqual({ error: 'This subscription has already ended.' });
    expect((await orderAction(renewing, 'cancel_now')).statusCode).toBe(409);
    expect((await orderAction(open, 'resend_confirmation')).statusCode).toBe(409);
    expect((await orderAction('txn_nobody', 'send_sign_in_link')).statusCode).toBe(404);
    const bad = await orderAction(renewing, 'delete_everything');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toEqual(expect.any(String));
    const unsigned = await server.post(`/api/admin/orders/${renewing}/actions`, { action: 'cancel_now' });
    expect(unsigned.statusCode).toBe(401);
  });

  it('gives the MRR at the end of each day, week or month of the period, the last point being the MRR at its end', async () => {
    for (const interval of ['day', 'week', 'month'] as const) {
      const figures = await dashboard(`?interval=${interval}`);
      expect(figures.interval).toBe(interval);
      expect(figures.mrrSeries.at(-1)).toEqual({ date: figures.to, mrrCents: figures.mrrCents });
    }
    expect((await dashboard('?interval=day')).mrrSeries).toHaveLength(30);
    expect((await get('/api/admin/dashboard?interval=year')).statusCode).toBe(400);
    const period = { start: new Date('2026-01-15T00:00:00Z'), end: new Date('2026-03-11T00:00:00Z') };
    expect(mrrPointEnds(period, 'month').map((end) => end.toISOString().slice(0, 10))).toEqual(['2026-02-01', '2026-03-01', '2026-03-11']);
    expect(mrrPointEnds(period, 'week')).toHaveLength(8);
  });
});
