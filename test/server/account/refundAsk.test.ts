/**
 * The buyer asks for the 30-day guarantee's refund on /account (docs/decisions/0068), on the sandbox, against real
 * parts: a real SMTP server receives the owners' mail and the buyer's receipt. The rules: within the guarantee and
 * with money left to refund, the subscription is cancelled at the end of the period and the ask recorded once (a
 * repeat mails nothing again); after the guarantee, or for an ended subscription, refused in words with nothing
 * changed; the console shows the ask on the order and in the list, and the refund stays the owner's. On PGlite and
 * PostgreSQL.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountView } from '../../../src/contract/account';
import type { OrderDetail, OrderRow } from '../../../src/contract/admin';
import { issueAccountLink } from '../../../server/account/accountLinks';
import { saveOwner } from '../../../server/admin/owners';
import { featureMail } from '../../../server/app';
import { recordRefundAsk } from '../../../server/checkout';
import { orders, outbox } from '../../../server/db/schema';
import { deliverDue, smtpMailer, type OutboxContext } from '../../../server/outbox/outboxWorker';
import { startMailCatcher, type MailCatcher } from '../../support/mailCatcher';
import { confirmBody, DATABASES, openCheckout, startTestServer, type TestServer } from '../helper';

const OWNERS = ['owner@example.com', 'partner-owner@example.com'];
const OWNER_PASSWORD = 'correct horse battery staple';
const DAY_MS = 24 * 60 * 60 * 1000;

describe.each(DATABASES)('the buyer’s refund ask on %s', (kind) => {
  let server: TestServer;
  let mail: MailCatcher;
  let outboxContext: OutboxContext;
  let owner: string;

  beforeAll(async () => {
    mail = await startMailCatcher();
    server = await startTestServer(kind, { env: { SMTP_URL: mail.url, PUBLIC_URL: 'https://checkout.test' } });
    outboxContext = {
      db: server.db,
      config: server.config,
      log: server.app.log,
      mailer: smtpMailer(mail.url, server.config.MAIL_FROM),
      mail: featureMail(),
    };
    for (const email of OWNERS) await saveOwner(server.db, email, OWNER_PASSWORD);
    const signedIn = await server.post('/api/admin/sign-in', { email: OWNERS[0], password: OWNER_PASSWORD });
    owner = `owner_session=${signedIn.cookies.find((each) => each.name === 'owner_session')!.value}`;
  });
  afterAll(async () => {
    await server.close();
    await mail.close();
  });

  let buyers = 0;
  /** A paid order of `quantity` seats and its buyer's manage-page session. */
  async function buy(quantity: number) {
    buyers += 1;
    const email = `asking-buyer${buyers}@example.com`;
    const session = await openCheckout(server, quantity);
    const paid = await server.post('/api/sandbox/payment-intents/confirm', {
      ...confirmBody(session.clientSecret),
      billingDetails: { name: 'Ada Palmer', email },
    });
    expect(paid.statusCode).toBe(200);
    const token = await issueAccountLink(server.db, session.transactionId, 'manage', 60);
    const opened = await server.post('/api/account/session', { token });
    expect(opened.statusCode, opened.body).toBe(200);
    const cookie = `account_session=${opened.cookies.find((each) => each.name === 'account_session')!.value}`;
    return { transactionId: session.transactionId, email, cookie };
  }
  const ask = (cookie: string, body: unknown = {}) => server.post('/api/account/refund-request', body, { cookie });
  const orderOf = async (transactionId: string) =>
    (await server.db.select().from(orders).where(eq(orders.transactionId, transactionId)))[0]!;
  const mailRowsOf = async (transactionId: string) =>
    (await server.db.select().from(outbox).where(eq(outbox.transactionId, transactionId)))
      .map((row) => row.topic)
      .filter((topic) => topic.includes('refund_asked'))
      .sort();

  it('within the guarantee: cancels at period end, records the ask once, mails every owner and the buyer; the console shows it, ready to refund', async () => {
    const { transactionId, email, cookie } = await buy(3);
    const before = (await server.app.inject({ method: 'GET', url: '/api/account', headers: { cookie } })).json<AccountView>();
    expect(before).toMatchObject({ refundableCents: 100_000, refundAsked: null, cancelAt: null });
    expect(Date.parse(before.guaranteeEndsAt!) - Date.parse((await orderOf(transactionId)).paidAt!.toISOString())).toBe(30 * DAY_MS);

    const asked = await ask(cookie, { reason: ' Not for our practice ' });
    expect(asked.statusCode, asked.body).toBe(200);
    const view = asked.json<AccountView>();
    expect(view.refundAsked).toEqual({ at: expect.any(String), amountCents: 100_000 });
    expect(view.cancelAt).not.toBeNull();
    expect(view.status).toBe('paid');
    const order = await orderOf(transactionId);
    expect(order).toMatchObject({ refundAskedCents: 100_000, cancellationReason: 'Not for our practice', refundedCents: 0 });

    // A repeat (a second tab, a retry) answers the first ask and mails nothing again.
    const again = await ask(cookie, { reason: 'Another reason' });
    expect(again.statusCode).toBe(200);
    expect(again.json<AccountView>().refundAsked).toEqual(view.refundAsked);
    expect(await mailRowsOf(transactionId)).toEqual(['owner_refund_asked', 'refund_asked']);

    await deliverDue(outboxContext);
    const ownersMail = await mail.waitFor(OWNERS[1]!, /Refund asked/);
    expect(ownersMail.to).toContain(OWNERS[0]);
    expect(ownersMail.subject).toBe(`Refund asked: Ada Palmer (${email}) wants $1,000 back under the guarantee`);
    expect(ownersMail.text).toContain('Their reason: “Not for our practice”.');
    expect(ownersMail.text).toContain(`https://checkout.test/admin/orders/${transactionId}`);
    const receipt = await mail.waitFor(email, /refund request/);
    expect(receipt.subject).toBe('We have your refund request: $1,000');
    expect(receipt.text).toContain('You asked for your money back under the 30-day guarantee: $1,000');
    expect(receipt.text).toContain('https://checkout.test/account?token=');

    // The console: the order and the list carry the ask; the refund is still the owner's to make.
    const detail = (
      await server.app.inject({ method: 'GET', url: `/api/admin/orders/${transactionId}`, headers: { cookie: owner } })
    ).json<OrderDetail>();
    expect(detail.order.refundAsked).toEqual(view.refundAsked);
    const list = (await server.app.inject({ method: 'GET', url: '/api/admin/orders', headers: { cookie: owner } })).json<{
      orders: OrderRow[];
    }>();
    expect(list.orders.find((row) => row.transactionId === transactionId)?.refundAsked).toEqual(view.refundAsked);
    const refunded = await server.post(`/api/admin/orders/${transactionId}/refund`, { amountCents: 100_000 }, { cookie: owner });
    expect(refunded.statusCode, refunded.body).toBe(200);
    expect(await orderOf(transactionId)).toMatchObject({ status: 'cancelled', refundedCents: 100_000 });
  });

  it('after the guarantee: refused in words, nothing cancelled, recorded or mailed', async () => {
    const { transactionId, cookie } = await buy(1);
    await server.db
      .update(orders)
      .set({ paidAt: new Date(Date.now() - 31 * DAY_MS) })
      .where(eq(orders.transactionId, transactionId));
    const refused = await ask(cookie);
    expect([refused.statusCode, refused.json()]).toEqual([
      409,
      { error: 'The 30-day money-back guarantee has ended for this subscription, so a refund cannot be asked for here.' },
    ]);
    expect(await orderOf(transactionId)).toMatchObject({ cancelAt: null, refundAskedAt: null, refundAskedCents: null });
    expect(await mailRowsOf(transactionId)).toEqual([]);
  });

  it('an ended subscription, an unknown body field and no session are refused, never a 500', async () => {
    const { transactionId, cookie } = await buy(1);
    expect((await server.post(`/api/admin/orders/${transactionId}/refund`, {}, { cookie: owner })).statusCode).toBe(200);
    const ended = await ask(cookie);
    expect([ended.statusCode, ended.json()]).toEqual([
      409,
      { error: 'This subscription has ended, so there is no refund to ask for here.' },
    ]);
    expect((await ask(cookie, { reason: 'x'.repeat(5000) })).statusCode).toBe(400);
    expect((await ask(cookie, { amountCents: 1 })).statusCode).toBe(400);
    expect((await ask('account_session=forged.123')).statusCode).toBe(401);
    expect(await mailRowsOf(transactionId)).toEqual([]);
  });

  it('the step refuses an ask with nothing left to refund, and records nothing', async () => {
    const { transactionId } = await buy(1);
    const context = server.context();
    expect(await recordRefundAsk(context, { transactionId, refundableCents: 0, reason: null })).toEqual({
      ok: false,
      refusal: 'nothing_refundable',
    });
    expect(await recordRefundAsk(context, { transactionId: 'tx_unknown', refundableCents: 100, reason: null })).toEqual({
      ok: false,
      refusal: 'ended',
    });
    expect((await orderOf(transactionId)).refundAskedAt).toBeNull();
    expect(await mailRowsOf(transactionId)).toEqual([]);
  });
});
