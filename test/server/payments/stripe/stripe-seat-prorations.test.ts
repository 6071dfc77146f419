/**
 * Seat changes after a Stripe purchase (docs/decisions/0045), against the stateful Stripe double: the manage page's
 * preview (`invoices.createPreview`), the increase charged at once as a proration invoice under a pending update,
 * a declined card that changes no seat and no order row (the pending update discarded), a decrease credited to the
 * next invoice, and the proration's `invoice.paid` and `customer.subscription.updated` delivered in both orders.
 * On PGlite and PostgreSQL.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountLinks, orders, outbox } from '../../../../server/db/schema';
import { createStripeClient } from '../../../../server/payments/stripe/client';
import { hashHandoffToken } from '../../../../server/security/handoffToken';
import type { AccountView, SeatChangePreview } from '../../../../src/contract/account';
import type { SubscriptionSession } from '../../../../src/contract/checkout';
import { createBody, DATABASES, startTestServer, type TestServer } from '../../helper';
import { startStatefulStripe, type StatefulStripe } from '../../helpers/statefulStripe';
import { TEST_SECRET_KEY } from '../../helpers/stripeDouble';
import { deliver, stripeTestEnv } from '../../helpers/stripeEvents';

const BUYER = { name: 'Jane Doe', email: 'jane@example.com' };
const DAY = 24 * 60 * 60;

describe.each(DATABASES)('seat changes after a Stripe purchase on %s', (kind) => {
  let stripe: StatefulStripe;
  let server: TestServer;
  beforeAll(async () => {
    stripe = await startStatefulStripe();
    server = await startTestServer(kind, { env: { ...stripeTestEnv(stripe.url), PUBLIC_URL: 'https://checkout.example.com/' } });
  });
  afterAll(async () => {
    await server.close();
    await stripe.close();
  });

  async function buy(quantity: number): Promise<SubscriptionSession & { cookie: string }> {
    const created = await server.post('/api/create-anon-subscription-intent', createBody(quantity));
    const session = created.json<SubscriptionSession>();
    expect(stripe.pay(session.clientSecret, BUYER)).toBe(true);
    const finalized = await server.post('/api/finalize-anon-subscription', {
      subscriptionId: session.subscriptionId,
      customerId: session.customerId,
      transactionId: session.transactionId,
      ...BUYER,
    });
    expect(finalized.statusCode, finalized.body).toBe(200);
    const token = `stripe-seats-${session.transactionId}`;
    await server.db.insert(accountLinks).values({
      tokenHash: hashHandoffToken(token),
      transactionId: session.transactionId,
      purpose: 'manage',
      expiresAt: new Date(Date.now() + 60_000),
    });
    const opened = await server.post('/api/account/session', { token });
    return { ...session, cookie: `account_session=${opened.cookies.find((each) => each.name === 'account_session')!.value}` };
  }
  const orderOf = async (session: SubscriptionSession) =>
    (await server.db.select().from(orders).where(eq(orders.transactionId, session.transactionId)))[0]!;
  const outboxOf = async (session: SubscriptionSession) =>
    (await server.db.select().from(outbox).where(eq(outbox.transactionId, session.transactionId))).map((row) => row.topic).sort();

  it('previews the proration, charges it at once, and adds the seats with a receipt', async () => {
    const session = await buy(1);
    stripe.advanceClock(15 * DAY);
    const previewed = await server.post('/api/account/seats/preview', { quantity: 3 }, { cookie: session.cookie });
    expect(previewed.statusCode, previewed.body).toBe(200);
    const preview = previewed.json<SeatChangePreview>();
    // One more paid seat for half of the double's 30-day period, less the seconds the test took.
    expect(preview).toMatchObject({ quantity: 3, creditCents: 0, monthlyTotalCents: 100_000 });
    expect(preview.amountDueNowCents).toBeGreaterThan(24_900);
    expect(preview.amountDueNowCents).toBeLessThanOrEqual(25_000);
    expect(stripe.subscription(session.subscriptionId)!.quantity).toBe(1);

    // Seconds pass before the buyer confirms: charged as quoted all the same.
    stripe.advanceClock(120);
    const changed = await server.post(
      '/api/account/seats',
      { quantity: 3, prorationDate: preview.prorationDate },
      { cookie: session.cookie },
    );
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json<AccountView>()).toMatchObject({ seats: 3, monthlyTotalCents: 100_000 });
    const invoice = stripe.invoiceOf(session.subscriptionId)!;
    expect(invoice).toMatchObject({ billing_reason: 'subscription_update', status: 'paid' });
    expect(invoice.amount_paid).toBe(preview.amountDueNowCents);
    expect(stripe.subscription(session.subscriptionId)).toMatchObject({ quantity: 3, pending_update: null });
    expect(stripe.log).toContainEqual(expect.stringMatching(/^POST \/v1\/invoices\/create_preview$/));
    expect(await outboxOf(session)).toEqual(expect.arrayContaining(['proration_receipt', 'seats_changed']));

    // Stripe's own webhooks for the same change afterwards find nothing left to do.
    const rows = (await outboxOf(session)).length;
    for (const type of ['invoice.paid', 'customer.subscription.updated'])
      expect((await deliver(server, stripe.lastEvent(type)!)).json()).toEqual({ received: true, outcome: 'processed' });
    expect((await outboxOf(session)).length).toBe(rows);
  });

  it('a declined proration changes no seat and no order row, and the pending update is discarded', async () => {
    const session = await buy(1);
    stripe.declineFromNow(stripe.subscription(session.subscriptionId)!.default_payment_method!);
    stripe.advanceClock(DAY);
    const before = await orderOf(session);
    const outboxBefore = await outboxOf(session);
    const refused = await server.post('/api/account/seats', { quantity: 4 }, { cookie: session.cookie });
    expect(refused.statusCode).toBe(402);
    expect(refused.json().error).toMatch(/^Your card was declined, so your seats were not changed and nothing was charged\./);
    expect(await orderOf(session)).toEqual(before);
    expect(await outboxOf(session)).toEqual(outboxBefore);
    expect(stripe.subscription(session.subscriptionId)).toMatchObject({ quantity: 1, pending_update: null, status: 'active' });
    expect(stripe.invoiceOf(session.subscriptionId)).toMatchObject({ billing_reason: 'subscription_update', status: 'void' });
    // Every event Stripe sent about it, delivered: still nothing changes.
    for (const type of ['invoice.payment_failed', 'invoice.voided', 'customer.subscription.updated'])
      expect((await deliver(server, stripe.lastEvent(type)!)).statusCode).toBe(200);
    expect(await orderOf(session)).toEqual(before);
  });

  it('a quote older than 15 minutes on Stripe’s clock is refused and changes nothing', async () => {
    const session = await buy(1);
    const preview = (
      await server.post('/api/account/seats/preview', { quantity: 3 }, { cookie: session.cookie })
    ).json<SeatChangePreview>();
    stripe.advanceClock(16 * 60);
    const stale = await server.post(
      '/api/account/seats',
      { quantity: 3, prorationDate: preview.prorationDate },
      { cookie: session.cookie },
    );
    expect([stale.statusCode, stale.json()]).toEqual([
      409,
      { error: 'The amount shown is out of date: nothing was changed. Please review the seat change again.' },
    ]);
    expect(stripe.subscription(session.subscriptionId)).toMatchObject({ quantity: 1, pending_update: null });
    expect((await orderOf(session)).quantity).toBe(1);
  });

  it('fewer seats take effect at once and their unused time comes off the next invoice', async () => {
    const session = await buy(3);
    stripe.advanceClock(10 * DAY);
    const preview = (
      await server.post('/api/account/seats/preview', { quantity: 1 }, { cookie: session.cookie })
    ).json<SeatChangePreview>();
    expect(preview).toMatchObject({ amountDueNowCents: 0, monthlyTotalCents: 50_000 });
    expect(preview.creditCents).toBeGreaterThan(33_000);
    const changed = await server.post(
      '/api/account/seats',
      { quantity: 1, prorationDate: preview.prorationDate },
      { cookie: session.cookie },
    );
    expect(changed.json<AccountView>()).toMatchObject({ seats: 1, monthlyTotalCents: 50_000 });
    const credit = -stripe.customer(session.customerId)!.balance;
    expect(credit).toBe(preview.creditCents);
    const renewal = stripe.renew(session.subscriptionId);
    expect(renewal).toMatchObject({ status: 'paid', amount_paid: 50_000 - credit });
  });

  it.each([
    ['invoice.paid first', ['invoice.paid', 'customer.subscription.updated']],
    ['customer.subscription.updated first', ['customer.subscription.updated', 'invoice.paid']],
  ])('a portal seat increase changes the order once with %s', async (_order, types) => {
    const session = await buy(1);
    stripe.advanceClock(5 * DAY);
    // What the Customer Portal does with the configuration `npm run stripe:setup` makes.
    const client = createStripeClient({ secretKey: TEST_SECRET_KEY, apiBase: stripe.url });
    const item = stripe.subscription(session.subscriptionId)!.item;
    const since = stripe.events.length;
    await client.subscriptions.update(session.subscriptionId, {
      items: [{ id: item, quantity: 4 }],
      proration_behavior: 'always_invoice',
      payment_behavior: 'pending_if_incomplete',
    });
    const sent = stripe.events.slice(since);
    for (const type of types) {
      const event = sent.filter((each) => each.type === type).at(-1)!;
      expect((await deliver(server, event)).json()).toEqual({ received: true, outcome: 'processed' });
      expect((await orderOf(session)).quantity).toBe(4);
    }
    for (const type of types) await deliver(server, sent.filter((each) => each.type === type).at(-1)!);
    const topics = await outboxOf(session);
    expect(topics.filter((topic) => topic === 'seats_changed')).toHaveLength(1);
    expect(topics.filter((topic) => topic === 'proration_receipt')).toHaveLength(1);
  });
});
