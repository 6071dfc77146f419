/**
 * Refunds from the owner's console, on the sandbox, against real parts: a real SMTP server
 * receives the buyer's mail, a real HTTP server the agreement site's signed webhooks. The rules: everything within
 * the 30-day guarantee, a named amount after it, never above what is left, one refund at a time, an unpaid order
 * refused; the subscription ends at once. On PGlite and PostgreSQL.
 */
import { eq } from 'drizzle-orm';
import { featureMail } from '../../../server/app';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TaxQuote } from '../../../src/contract/checkout';
import { saveOwner } from '../../../server/admin/owners';
import { funnelEvents, orders, outbox, refundRequests, sandboxRefunds, sandboxSubscriptions } from '../../../server/db/schema';
import { deliverDue, smtpMailer, type OutboxContext } from '../../../server/outbox/outboxWorker';
import { startMailCatcher, type MailCatcher } from '../../support/mailCatcher';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhookReceiver';
import { confirmBody, DATABASES, locateBody, openCheckout, startTestServer, type TestServer } from '../helper';

const WEBHOOK_SECRET = 'whsec-refunds-0123456789abcdef0123456789abcdef';
const OWNER = { email: 'owner@example.com', password: 'correct horse battery staple' };
const DAY_MS = 24 * 60 * 60 * 1000;

describe.each(DATABASES)('console refunds on %s', (kind) => {
  let server: TestServer;
  let mail: MailCatcher;
  let receiver: WebhookReceiver;
  let outboxContext: OutboxContext;
  let owner: string;

  beforeAll(async () => {
    mail = await startMailCatcher();
    receiver = await startWebhookReceiver(WEBHOOK_SECRET);
    server = await startTestServer(kind, {
      env: { SMTP_URL: mail.url, SUCCESS_SITE_WEBHOOK_URL: receiver.url, SUCCESS_SITE_WEBHOOK_SECRET: WEBHOOK_SECRET, SANDBOX_CLOCK: '1' },
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
  });
  afterAll(async () => {
    await server.close();
    await mail.close();
    await receiver.close();
  });

  let buyers = 0;
  /** Pays for `quantity` seats with `card`, located first at `postalCode` when given (a Honolulu ZIP owes tax). */
  async function buy(quantity: number, card?: string, postalCode?: string) {
    buyers += 1;
    const email = `refund-buyer${buyers}@example.com`;
    const opened = await openCheckout(server, quantity);
    const located = postalCode ? await server.post('/api/locate-anon-subscription', locateBody(opened, postalCode)) : null;
    if (located) expect(located.statusCode, located.body).toBe(200);
    const session = located ? { ...opened, ...located.json<TaxQuote>() } : opened;
    const paid = await server.post('/api/sandbox/payment-intents/confirm', {
      ...confirmBody(session.clientSecret, card),
      billingDetails: { name: 'Ada Palmer', email },
    });
    expect(paid.statusCode).toBe(200);
    return { ...session, email };
  }
  const refund = (transactionId: string, body: unknown = {}, cookie = owner) =>
    server.post(`/api/admin/orders/${transactionId}/refund`, body, { cookie });
  const orderOf = async (transactionId: string) =>
    (await server.db.select().from(orders).where(eq(orders.transactionId, transactionId)))[0]!;
  const backdatePayment = (transactionId: string, days: number) =>
    server.db
      .update(orders)
      .set({ paidAt: new Date(Date.now() - days * DAY_MS) })
      .where(eq(orders.transactionId, transactionId));

  it('within 30 days refunds everything: the subscription ends at once, the buyer gets a mail, the agreement site a signed webhook', async () => {
    const { transactionId, subscriptionId, email } = await buy(3);
    const refunded = await refund(transactionId);
    expect(refunded.statusCode, refunded.body).toBe(200);
    expect(refunded.json().order).toMatchObject({ status: 'cancelled', refundedCents: 100_000 });
    expect(await orderOf(transactionId)).toMatchObject({ status: 'cancelled', refundedCents: 100_000 });
    expect((await server.db.select().from(sandboxSubscriptions).where(eq(sandboxSubscriptions.id, subscriptionId)))[0]?.status).toBe(
      'canceled',
    );
    expect(await server.db.select().from(sandboxRefunds).where(eq(sandboxRefunds.subscriptionId, subscriptionId))).toEqual([
      expect.objectContaining({ amountCents: 100_000 }),
    ]);
    const events = await server.db.select().from(funnelEvents).where(eq(funnelEvents.transactionId, transactionId));
    expect(events.map((event) => event.type)).toEqual(expect.arrayContaining(['refunded', 'cancelled']));
    expect(events.find((event) => event.type === 'cancelled')?.detail).toEqual({ reason: 'refunded' });

    await deliverDue(outboxContext);
    const received = await mail.waitFor(email, /refund/);
    expect(received.text).toContain('We refunded $1,000 to your card.');
    expect(received.text).toContain('Your subscription has ended');
    expect(
      receiver.webhooks.find((hook) => hook.type === 'subscription.refunded' && hook.data.transactionId === transactionId),
    ).toMatchObject({
      verified: true,
      data: { amountCents: 100_000, status: 'cancelled' },
    });
    expect(
      receiver.webhooks.find((hook) => hook.type === 'subscription.cancelled' && hook.data.transactionId === transactionId),
    ).toMatchObject({ verified: true });

    // Nothing is left: a second refund is refused and changes nothing.
    const again = await refund(transactionId, { amountCents: 1 });
    expect([again.statusCode, again.json()]).toEqual([
      400,
      { error: 'That is more than is left to refund: what was paid, less refunds and any payment a dispute holds.' },
    ]);
    expect((await orderOf(transactionId)).refundedCents).toBe(100_000);
  });

  it("a Honolulu buyer's refund mail splits the amount as the confirmation does: the seats' part, Hawaii general excise tax, the total", async () => {
    const { transactionId, email } = await buy(1, undefined, '96813'); // $500 + $23.56
    const mailsTo = async () => {
      await deliverDue(outboxContext);
      await mail.waitFor(email, /refund$/);
      return mail.mails.filter((each) => each.to.includes(email) && / refund$/.test(each.subject));
    };
    // Half, named: 26178 × 2356 ÷ 52356 = 1178.0…: $11.78 of it is tax, $250 before tax.
    expect((await refund(transactionId, { amountCents: 26_178 })).statusCode).toBe(200);
    const [half] = await mailsTo();
    expect(half!.text).toContain('We refunded $261.78 to your card.');
    expect(half!.text).toContain('\n\nSeats: $250\n\nHawaii general excise tax: $11.78\n\nTotal refunded: $261.78\n\n');
    expect(half!.html).toContain('<p>Hawaii general excise tax: $11.78</p>');

    // The rest, everything the guarantee gives back: the tax not yet returned, so the two add up to the whole tax.
    expect((await refund(transactionId)).statusCode).toBe(200);
    await deliverDue(outboxContext);
    await expect.poll(async () => (await mailsTo()).length).toBe(2);
    const rest = (await mailsTo()).find((each) => each !== half)!;
    expect(rest.text).toContain('\n\nSeats: $250\n\nHawaii general excise tax: $11.78\n\nTotal refunded: $261.78\n\n');
    const refunded = receiver.webhooks.filter((hook) => hook.type === 'subscription.refunded' && hook.data.transactionId === transactionId);
    expect(refunded.map((hook) => [hook.data.amountCents, hook.data.taxCents, hook.data.taxState])).toEqual([
      [26_178, 1_178, 'HI'],
      [26_178, 1_178, 'HI'],
    ]);
  });

  it('an untaxed refund mail names the amount alone', async () => {
    const { transactionId, email } = await buy(1);
    expect((await refund(transactionId, { amountCents: 10_000 })).statusCode).toBe(200);
    await deliverDue(outboxContext);
    const received = await mail.waitFor(email, /refund$/);
    expect(received.text).toContain('We refunded $100 to your card.');
    expect(received.text).not.toMatch(/tax|Seats:|Total refunded/);
  });

  it('after 30 days refunds only a named amount, never more than is left, and the renewals count as paid', async () => {
    const { transactionId } = await buy(1);
    expect((await server.post('/api/sandbox/clock/advance', { days: 31 })).statusCode).toBe(200);
    await backdatePayment(transactionId, 31);
    const unnamed = await refund(transactionId);
    expect([unnamed.statusCode, unnamed.json()]).toEqual([
      400,
      { error: 'More than 30 days after the first payment, give the amount to refund.' },
    ]);
    // Paid: $500 first, $500 for the renewal.
    const tooMuch = await refund(transactionId, { amountCents: 100_001 });
    expect(tooMuch.statusCode).toBe(400);
    expect((await orderOf(transactionId)).status).toBe('paid');
    const partial = await refund(transactionId, { amountCents: 70_000 });
    expect(partial.statusCode, partial.body).toBe(200);
    expect(await orderOf(transactionId)).toMatchObject({ status: 'cancelled', refundedCents: 70_000 });
    const rows = await server.db.select().from(outbox).where(eq(outbox.transactionId, transactionId));
    expect(
      rows
        .filter((row) => row.topic === 'refund_issued')
        .map((row) => row.payload.amountCents)
        .sort(),
    ).toEqual([20_000, 50_000]);
  });

  it('refuses an unpaid order, bad amounts, no session, a cross-site request and a second refund while one runs', async () => {
    const open = await openCheckout(server, 1);
    const unpaid = await refund(open.transactionId);
    expect([unpaid.statusCode, unpaid.json()]).toEqual([409, { error: 'This order was never paid: there is nothing to refund.' }]);
    expect((await refund('no-such-order')).statusCode).toBe(404);

    const { transactionId } = await buy(1);
    for (const body of [{ amountCents: 0 }, { amountCents: -5 }, { amountCents: '500' }, { amountCents: 1.5 }, { cents: 5 }]) {
      expect((await refund(transactionId, body)).statusCode).toBe(400);
    }
    expect((await server.post(`/api/admin/orders/${transactionId}/refund`, {})).statusCode).toBe(401);
    expect(
      (await server.post(`/api/admin/orders/${transactionId}/refund`, {}, { cookie: owner, origin: 'https://evil.example' })).statusCode,
    ).toBe(403);

    // A refund still running (its request row pending) holds the order: the second is refused, nothing changes.
    await server.db.insert(refundRequests).values({ transactionId, amountCents: 0, requestedBy: 'another-owner' });
    const second = await refund(transactionId);
    expect([second.statusCode, second.json()]).toEqual([409, { error: 'A refund of this order is already in progress.' }]);
    expect(await orderOf(transactionId)).toMatchObject({ status: 'paid', refundedCents: 0 });
    await server.db.update(refundRequests).set({ status: 'failed' }).where(eq(refundRequests.transactionId, transactionId));

    // Two at once: exactly one refunds. The other finds it running (409) or, when it came second, nothing left (400).
    const both = await Promise.all([refund(transactionId), refund(transactionId)]);
    const statuses = both.map((response) => response.statusCode).sort();
    expect(statuses[0]).toBe(200);
    expect([400, 409]).toContain(statuses[1]);
    expect((await orderOf(transactionId)).refundedCents).toBe(50_000);
    const subscriptionId = (await orderOf(transactionId)).subscriptionId;
    expect(await server.db.select().from(sandboxRefunds).where(eq(sandboxRefunds.subscriptionId, subscriptionId))).toHaveLength(1);
  });

  it('a refund the card sends back (4000 0000 0000 5126) fails on the billing clock: the order’s refund is given back, the owner told', async () => {
    const { transactionId, subscriptionId } = await buy(3, '4000000000005126');
    const refunded = await refund(transactionId);
    expect(refunded.statusCode, refunded.body).toBe(200);
    expect(await orderOf(transactionId)).toMatchObject({ status: 'cancelled', refundedCents: 100_000 });

    expect((await server.post('/api/sandbox/clock/advance', { days: 1 })).statusCode).toBe(200);
    const rows = await server.db.select().from(sandboxRefunds).where(eq(sandboxRefunds.subscriptionId, subscriptionId));
    expect(rows).toEqual([expect.objectContaining({ amountCents: 100_000, status: 'failed' })]);
    // The subscription stays ended; the money stays with the business, and the owner is told to pay it back another way.
    expect(await orderOf(transactionId)).toMatchObject({ status: 'cancelled', refundedCents: 0 });
    const topics = (await server.db.select().from(outbox).where(eq(outbox.transactionId, transactionId))).map((row) => row.topic);
    expect(topics.filter((topic) => topic === 'owner_refund_failed')).toHaveLength(1);
    const events = await server.db.select().from(funnelEvents).where(eq(funnelEvents.transactionId, transactionId));
    expect(events.filter((event) => event.type === 'refund_failed')).toHaveLength(1);

    // Failed once: the clock moving again changes nothing.
    expect((await server.post('/api/sandbox/clock/advance', { days: 1 })).statusCode).toBe(200);
    expect((await server.db.select().from(outbox).where(eq(outbox.transactionId, transactionId))).map((row) => row.topic)).toEqual(topics);
  });
});
