/**
 * Seat changes after the purchase in the sandbox (docs/decisions/0045), through the manage page's API on the sandbox
 * clock: the preview of what is due now, an increase charged at once as a proration invoice that earns the
 * referrer's commission and mails a receipt, a declined card that changes no seat and no order row, a decrease
 * credited to the next renewal, and the free second seat that costs nothing. On PGlite and PostgreSQL.
 */
import { and, desc, eq } from 'drizzle-orm';
import { featureMail } from '../../../../server/app';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commissionEntries, funnelEvents, orders, outbox, sandboxInvoices, sandboxSubscriptions } from '../../../../server/db/schema';
import { saveOwner } from '../../../../server/admin/owners';
import { applyPaymentEvent } from '../../../../server/checkout/applyPaymentEvent';
import { sandboxEvent } from '../../../../server/payments/sandbox/billing';
import { deliverDue, smtpMailer, type OutboxContext } from '../../../../server/outbox/outboxWorker';
import type { AccountView, SeatChangePreview } from '../../../../src/contract/account';
import { startMailCatcher, type MailCatcher } from '../../../support/mailCatcher';
import { confirmBody, createBody, DATABASES, startTestServer, type TestServer } from '../../helper';

const OWNER = { email: 'owner@example.com', password: 'correct horse battery staple' };

describe.each(DATABASES)('seat changes after the purchase in the sandbox, on %s', (kind) => {
  let server: TestServer;
  let mail: MailCatcher;
  let outboxContext: OutboxContext;
  let owner: string;

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
    const created = await server.post(
      '/api/admin/referrers',
      { slug: 'jane', displayName: 'Jane', shortLabel: 'dr-jane', quote: 'Q' },
      { cookie: owner },
    );
    expect(created.statusCode).toBe(201);
  });
  afterAll(async () => {
    await server.close();
    await mail.close();
  });

  let buyers = 0;
  /** A purchase of `quantity` seats through Jane's link with `card`; answers the order's ids and a manage-page cookie. */
  async function buy(quantity: number, card = '4242 4242 4242 4242') {
    buyers += 1;
    const email = `prorated${buyers}@example.com`;
    const link = await server.app.inject({ method: 'GET', url: '/r/jane' });
    const referral = `referral=${link.cookies.find((each) => each.name === 'referral')!.value}`;
    const opened = await server.post('/api/create-anon-subscription-intent', createBody(quantity), { cookie: referral });
    const session = opened.json<{ clientSecret: string; transactionId: string; subscriptionId: string }>();
    const paid = await server.post('/api/sandbox/payment-intents/confirm', {
      ...confirmBody(session.clientSecret, card),
      billingDetails: { name: 'Ada Palmer', email },
    });
    expect(paid.statusCode).toBe(200);
    await server.post('/api/account/link', { email });
    await deliverDue(outboxContext);
    const received = await mail.waitFor(email, /link to manage/);
    const token = /\/account\?token=([\w-]+)/.exec(received.text)![1];
    const signedIn = await server.post('/api/account/session', { token });
    const cookie = `account_session=${signedIn.cookies.find((each) => each.name === 'account_session')!.value}`;
    return { ...session, email, cookie };
  }
  const act = (url: string, cookie: string, body: unknown) => server.post(url, body, { cookie });
  const advance = (days: number) => server.post('/api/sandbox/clock/advance', { days });
  const orderOf = async (transactionId: string) =>
    (await server.db.select().from(orders).where(eq(orders.transactionId, transactionId)))[0]!;
  const invoicesOf = (subscriptionId: string) =>
    server.db
      .select()
      .from(sandboxInvoices)
      .where(eq(sandboxInvoices.subscriptionId, subscriptionId))
      .orderBy(desc(sandboxInvoices.createdAt));
  const outboxOf = async (transactionId: string) =>
    (await server.db.select().from(outbox).where(eq(outbox.transactionId, transactionId))).map((row) => row.topic).sort();

  it('shows what more seats cost now, charges it at once, adds the seats, mails a receipt and earns commission', async () => {
    const order = await buy(3);
    expect((await advance(15)).statusCode).toBe(200);
    const previewed = await act('/api/account/seats/preview', order.cookie, { quantity: 4 });
    expect(previewed.statusCode, previewed.body).toBe(200);
    const preview = previewed.json<SeatChangePreview>();
    // One more paid seat ($500/month) for the half of a 28- to 31-day period that is left.
    expect(preview).toMatchObject({ quantity: 4, creditCents: 0, monthlyTotalCents: 150_000 });
    expect(preview.amountDueNowCents).toBeGreaterThan(Math.floor((50_000 * 13) / 31));
    expect(preview.amountDueNowCents).toBeLessThan(Math.ceil((50_000 * 17) / 28));
    // The preview changes nothing.
    expect((await orderOf(order.transactionId)).quantity).toBe(3);

    const changed = await act('/api/account/seats', order.cookie, { quantity: 4, prorationDate: preview.prorationDate });
    expect(changed.statusCode, changed.body).toBe(200);
    const view = changed.json<AccountView>();
    expect(view).toMatchObject({ seats: 4, monthlyTotalCents: 150_000 });
    const [proration] = await invoicesOf(order.subscriptionId);
    expect(proration).toMatchObject({ billingReason: 'subscription_update', status: 'paid' });
    // Charged as quoted: the amount the buyer confirmed, to the cent.
    expect(proration!.amountCents).toBe(preview.amountDueNowCents);
    expect(view.invoices.map((invoice) => invoice.amountCents)).toContain(proration!.amountCents);

    const entries = await server.db
      .select()
      .from(commissionEntries)
      .where(and(eq(commissionEntries.transactionId, order.transactionId), eq(commissionEntries.invoiceId, proration!.id)));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ kind: 'earned', invoiceCents: proration!.amountCents, seats: 4 });
    expect(entries[0]!.amountCents).toBe(Math.round(proration!.amountCents * 0.2));
    expect(entries[0]!.ruleText).toMatch(/month 1, seats added$/);
    expect(await outboxOf(order.transactionId)).toEqual(expect.arrayContaining(['proration_receipt', 'seats_changed']));
    // The console's money collected counts the proration once, even when its invoice.paid is reported again.
    const paid = sandboxEvent.invoicePaid(order, proration!.id);
    await applyPaymentEvent(server.context(), { ...paid, eventId: `${paid.eventId}:again` });
    const booked = await server.db
      .select()
      .from(funnelEvents)
      .where(and(eq(funnelEvents.transactionId, order.transactionId), eq(funnelEvents.type, 'proration_paid')));
    expect(booked.map((event) => event.detail)).toEqual([{ amountCents: proration!.amountCents, invoice: proration!.id }]);

    // The next renewal bills all four seats, and counts as month 2 of the rule (the proration is no month of its own).
    await advance(17);
    const [renewal] = await invoicesOf(order.subscriptionId);
    expect(renewal).toMatchObject({ billingReason: 'subscription_cycle', status: 'paid', amountCents: 150_000 });
    const [renewalEntry] = await server.db.select().from(commissionEntries).where(eq(commissionEntries.invoiceId, renewal!.id));
    expect(renewalEntry!.ruleText).toMatch(/month 2$/);
  });

  it('a declined proration leaves the seats, the order row and the invoices as they were, and says so', async () => {
    // 0341 pays the first invoice and declines every later charge.
    const order = await buy(1, '4000 0000 0000 0341');
    await advance(3);
    const before = await orderOf(order.transactionId);
    const outboxBefore = await outboxOf(order.transactionId);
    const refused = await act('/api/account/seats', order.cookie, { quantity: 3 });
    expect(refused.statusCode).toBe(402);
    expect(refused.json()).toEqual({
      error: 'Your card was declined, so your seats were not changed and nothing was charged. Please put on a new card and try again.',
    });
    expect(await orderOf(order.transactionId)).toEqual(before);
    const [subscription] = await server.db.select().from(sandboxSubscriptions).where(eq(sandboxSubscriptions.id, order.subscriptionId));
    expect(subscription!.quantity).toBe(1);
    expect(await invoicesOf(order.subscriptionId)).toEqual([]);
    expect(await outboxOf(order.transactionId)).toEqual(outboxBefore);
  });

  it('fewer seats take effect at once and their unused time comes off the next renewal', async () => {
    const order = await buy(3);
    await advance(10);
    const preview = (await act('/api/account/seats/preview', order.cookie, { quantity: 1 })).json<SeatChangePreview>();
    expect(preview).toMatchObject({ quantity: 1, amountDueNowCents: 0, monthlyTotalCents: 50_000 });
    expect(preview.creditCents).toBeGreaterThan(Math.floor((50_000 * 17) / 31));
    const changed = await act('/api/account/seats', order.cookie, { quantity: 1, prorationDate: preview.prorationDate });
    expect(changed.json<AccountView>()).toMatchObject({ seats: 1, monthlyTotalCents: 50_000 });
    const [subscription] = await server.db.select().from(sandboxSubscriptions).where(eq(sandboxSubscriptions.id, order.subscriptionId));
    expect(subscription!.creditCents).toBe(preview.creditCents);
    expect(await invoicesOf(order.subscriptionId)).toEqual([]);

    await advance(22);
    const [renewal] = await invoicesOf(order.subscriptionId);
    expect(renewal).toMatchObject({ billingReason: 'subscription_cycle', status: 'paid', amountCents: 50_000 - subscription!.creditCents });
    const [after] = await server.db.select().from(sandboxSubscriptions).where(eq(sandboxSubscriptions.id, order.subscriptionId));
    expect(after!.creditCents).toBe(0);
  });

  it('a quote older than 15 minutes, or not yet made, is refused with words saying so, and changes nothing', async () => {
    const order = await buy(3);
    const preview = (await act('/api/account/seats/preview', order.cookie, { quantity: 4 })).json<SeatChangePreview>();
    const expired = {
      error: 'The amount shown is out of date: nothing was changed. Please review the seat change again.',
    };
    const future = await act('/api/account/seats', order.cookie, { quantity: 4, prorationDate: preview.prorationDate + 3600 });
    expect([future.statusCode, future.json()]).toEqual([409, expired]);
    await advance(1);
    const stale = await act('/api/account/seats', order.cookie, { quantity: 4, prorationDate: preview.prorationDate });
    expect([stale.statusCode, stale.json()]).toEqual([409, expired]);
    expect((await orderOf(order.transactionId)).quantity).toBe(3);
    expect(await invoicesOf(order.subscriptionId)).toEqual([]);
  });

  it('the free second seat costs nothing now and makes no invoice; a bad count or no session is refused', async () => {
    const order = await buy(1);
    await advance(5);
    expect((await act('/api/account/seats/preview', order.cookie, { quantity: 2 })).json()).toMatchObject({
      amountDueNowCents: 0,
      creditCents: 0,
    });
    expect((await act('/api/account/seats', order.cookie, { quantity: 2 })).json()).toMatchObject({ seats: 2 });
    expect(await invoicesOf(order.subscriptionId)).toEqual([]);
    const bad = await act('/api/account/seats/preview', order.cookie, { quantity: 0 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toEqual(expect.any(String));
    expect((await server.post('/api/account/seats/preview', { quantity: 3 })).statusCode).toBe(401);
  });
});
