/**
 * A Stripe order's life after the purchase, against the stateful Stripe double (helpers/statefulStripe.ts), which
 * answers as Stripe does: the Customer Portal's return address and failures, the card a past-due buyer updates in
 * the portal being the one retried, and what the adapter reads of flexible-mode `cancel_at`, `unpaid` and
 * `incomplete_expired`. On PGlite and PostgreSQL where the server is involved.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOrderAction } from '../../../../server/admin/orderActions';
import { orderDetail } from '../../../../server/admin/reports';
import type { SubscriptionSession } from '../../../../src/contract/checkout';
import { accountLinks, funnelEvents, orders, outbox } from '../../../../server/db/schema';
import { refundOrder } from '../../../../server/checkout/refundOrder';
import { createStripeProvider } from '../../../../server/payments/stripe/provider';
import { DEFAULT_PRICE_LOOKUP_KEY } from '../../../../server/payments/stripe/catalogue';
import { hashHandoffToken } from '../../../../server/security/handoffToken';
import { createBody, DATABASES, startTestServer, type TestServer } from '../../helper';
import { startStatefulStripe, type StatefulStripe } from '../../helpers/statefulStripe';
import { TEST_SECRET_KEY } from '../../helpers/stripeDouble';
import { deliver, stripeTestEnv } from '../../helpers/stripeEvents';

const BUYER = { name: 'Jane Doe', email: 'jane@example.com' };
const PUBLIC_URL = 'https://checkout.example.com/';

describe.each(DATABASES)('after a Stripe purchase on %s', (kind) => {
  let stripe: StatefulStripe;
  let server: TestServer;
  beforeAll(async () => {
    stripe = await startStatefulStripe();
    server = await startTestServer(kind, {
      env: {
        ...stripeTestEnv(stripe.url),
        PUBLIC_URL,
        SUCCESS_SITE_WEBHOOK_URL: 'https://agreement.test/hooks',
        SUCCESS_SITE_WEBHOOK_SECRET: 'whsec-agreement-0123456789abcdef0123456789',
      },
    });
  });
  afterAll(async () => {
    await server.close();
    await stripe.close();
  });

  /** Buys `quantity` seats: call 1, the buyer pays with Stripe.js, finalize. */
  async function buy(quantity = 1): Promise<SubscriptionSession> {
    const created = await server.post('/api/create-anon-subscription-intent', createBody(quantity));
    expect(created.statusCode, created.body).toBe(200);
    const session = created.json<SubscriptionSession>();
    expect(stripe.pay(session.clientSecret, BUYER)).toBe(true);
    const finalized = await server.post('/api/finalize-anon-subscription', {
      subscriptionId: session.subscriptionId,
      customerId: session.customerId,
      transactionId: session.transactionId,
      ...BUYER,
    });
    expect(finalized.statusCode, finalized.body).toBe(200);
    return session;
  }

  /** The manage page's session cookie for the order, as the emailed link opens it. */
  async function signIn(session: SubscriptionSession): Promise<string> {
    const token = `stripe-after-purchase-${session.transactionId}`;
    await server.db.insert(accountLinks).values({
      tokenHash: hashHandoffToken(token),
      transactionId: session.transactionId,
      purpose: 'manage',
      expiresAt: new Date(Date.now() + 60_000),
    });
    const opened = await server.post('/api/account/session', { token });
    expect(opened.statusCode, opened.body).toBe(200);
    return `account_session=${opened.cookies.find((each) => each.name === 'account_session')!.value}`;
  }

  it('the portal returns the buyer to PUBLIC_URL’s manage page, not to the request’s host', async () => {
    const session = await buy();
    const portal = await server.post(
      '/api/account/portal',
      { flow: 'card' },
      { cookie: await signIn(session), host: 'internal-host:3000' },
    );
    expect(portal.statusCode, portal.body).toBe(200);
    expect(portal.json()).toEqual({ url: expect.stringMatching(/^https:\/\/billing\.stripe\.com\//) });
    expect(stripe.portalSessions.at(-1)).toMatchObject({
      customer: session.customerId,
      return_url: 'https://checkout.example.com/account',
      flow_data: { type: 'payment_method_update', after_completion: { redirect: { return_url: 'https://checkout.example.com/account' } } },
    });
  });

  it('a portal session Stripe refuses answers 502 with a message, not a bare 500', async () => {
    const session = await buy();
    const cookie = await signIn(session);
    stripe.failNext('POST', /^\/v1\/billing_portal\/sessions$/, 400, {
      error: { type: 'invalid_request_error', message: 'No configuration provided' },
    });
    const portal = await server.post('/api/account/portal', { flow: 'home' }, { cookie });
    expect(portal.statusCode).toBe(502);
    expect(portal.json()).toEqual({ error: 'The payment service could not process this request.' });
  });

  it('the card a past-due buyer enters in the portal is the one the retry charges', async () => {
    const session = await buy();
    const subscription = stripe.subscription(session.subscriptionId)!;
    // save_default_payment_method 'on_subscription': the first card sits on the subscription itself.
    const firstCard = subscription.default_payment_method!;
    expect(firstCard).toMatch(/^pm_/);
    stripe.declineFromNow(firstCard);
    const renewal = stripe.renew(session.subscriptionId);
    expect(stripe.subscription(session.subscriptionId)?.status).toBe('past_due');

    const newCard = stripe.portalUpdateCard(session.customerId, BUYER);
    expect(stripe.customer(session.customerId)?.default_payment_method).toBe(newCard);
    // Stripe charges the subscription's own default before the customer's: the dead card, until we act.
    expect(stripe.retry(renewal.id)).toBe(false);

    const response = await deliver(server, stripe.lastEvent('customer.updated')!);
    expect(response.json()).toEqual({ received: true, outcome: 'processed' });
    // The dead card is off the subscription (Stripe saves the card that then paid, save_default_payment_method).
    expect([null, newCard]).toContain(stripe.subscription(session.subscriptionId)?.default_payment_method);
    // The open renewal is paid at once with the new card (invoices.pay), not at the next Smart Retry.
    expect(stripe.invoiceOf(session.subscriptionId)).toMatchObject({ id: renewal.id, status: 'paid', amount_paid: renewal.amount_due });
    expect(stripe.log.filter((line) => line === `POST /v1/invoices/${renewal.id}/pay`)).toHaveLength(1);
    expect(stripe.subscription(session.subscriptionId)?.status).toBe('active');
    expect(stripe.paymentMethod(stripe.intentOf(session.subscriptionId)!.payment_method!)?.id).toBe(newCard);
    expect((await deliver(server, stripe.lastEvent('invoice.paid')!)).json()).toEqual({ received: true, outcome: 'processed' });
    expect(await outboxOf(session)).toContain('mail:renewal_receipt');

    // Delivered again (Stripe repeats events): nothing left to change.
    expect((await deliver(server, stripe.lastEvent('customer.updated')!)).json()).toEqual({ received: true, outcome: 'processed' });
    const order = (await server.db.select().from(orders).where(eq(orders.transactionId, session.transactionId)))[0]!;
    expect(order.subscriptionId).toBe(session.subscriptionId);
  });

  it('a past-due renewal paid with a new card is money collected once, whichever of its reports comes first or again', async () => {
    const session = await buy();
    stripe.declineFromNow(stripe.subscription(session.subscriptionId)!.default_payment_method!);
    const renewal = stripe.renew(session.subscriptionId);
    await deliver(server, stripe.lastEvent('invoice.payment_failed')!);
    expect((await orderOf(session)).status).toBe('past_due');
    stripe.portalUpdateCard(session.customerId, BUYER);
    const before = stripe.events.length;
    // The app pays the open renewal with the new card (invoices.pay).
    await deliver(server, stripe.lastEvent('customer.updated')!);
    expect(stripe.invoiceOf(session.subscriptionId)).toMatchObject({ id: renewal.id, status: 'paid' });
    // The subscription active again reaches the app before its invoice.paid; then Stripe repeats invoice.paid.
    const after = stripe.events.slice(before);
    const paid = after.find((event) => event.type === 'invoice.paid')!;
    for (const event of after.filter((each) => each.type === 'customer.subscription.updated')) await deliver(server, event);
    expect((await orderOf(session)).status).toBe('paid');
    await deliver(server, paid);
    await deliver(server, { ...paid, id: `${String(paid.id)}_again` });

    const events = await server.db.select().from(funnelEvents).where(eq(funnelEvents.transactionId, session.transactionId));
    const renewals = events.filter((event) => event.type === 'renewal_paid').map((event) => event.detail);
    expect(renewals).toEqual([{ amountCents: renewal.amount_paid, invoice: renewal.id }]);
    const first = events.find((event) => event.type === 'paid')!.detail!.amountCents;
    expect(first).toBe(renewal.amount_paid);
  });

  const orderOf = async (session: SubscriptionSession) =>
    (await server.db.select().from(orders).where(eq(orders.transactionId, session.transactionId)))[0]!;
  const outboxOf = async (session: SubscriptionSession) =>
    (await server.db.select().from(outbox).where(eq(outbox.transactionId, session.transactionId)))
      .map((row) => `${row.kind}:${row.topic}`)
      .sort();

  it('a portal cancellation carrying only cancel_at (flexible billing mode) sends the cancellation mail and webhook', async () => {
    const session = await buy();
    stripe.portalCancel(session.subscriptionId, { comment: null, feedback: 'too_expensive' });
    const event = stripe.lastEvent('customer.subscription.updated')!;
    expect((event.data as { object: unknown }).object).toMatchObject({ cancel_at_period_end: false, cancel_at: expect.any(Number) });
    expect((await deliver(server, event)).json()).toEqual({ received: true, outcome: 'processed' });
    const periodEnd = new Date(stripe.subscription(session.subscriptionId)!.current_period_end * 1000);
    expect((await orderOf(session)).cancelAt).toEqual(periodEnd);
    // The reason the buyer chose in the portal is the order's, as one typed on /account is.
    expect((await orderOf(session)).cancellationReason).toBe('Too expensive');
    expect(await outboxOf(session)).toEqual(
      expect.arrayContaining(['mail:cancellation_confirmed', 'webhook:subscription.cancel_scheduled']),
    );
    // The manage page then offers the undo, not Cancel: the order knows the end date.
    expect(
      (await server.app.inject({ method: 'GET', url: '/api/account', headers: { cookie: await signIn(session) } })).json(),
    ).toMatchObject({
      cancelAt: periodEnd.toISOString(),
    });
  });

  it('two events reporting the same change at once change the order and mail once, in either order of arrival', async () => {
    for (const order of ['first', 'second'] as const) {
      const session = await buy();
      stripe.portalCancel(session.subscriptionId);
      const event = stripe.lastEvent('customer.subscription.updated')!;
      // Stripe sends a subscription.updated and, say, a retried copy under another id: both read the same state.
      const copy = { ...event, id: `${String(event.id)}_copy` };
      const pair = order === 'first' ? [event, copy] : [copy, event];
      const answers = await Promise.all(pair.map((each) => deliver(server, each)));
      expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
      expect((await outboxOf(session)).filter((row) => row === 'mail:cancellation_confirmed')).toHaveLength(1);
      expect((await outboxOf(session)).filter((row) => row === 'webhook:subscription.cancel_scheduled')).toHaveLength(1);
    }
  });

  it('the console’s refund: refunds.create with an idempotency key, the subscription ended, mail and webhook; its charge.refunded adds nothing', async () => {
    const session = await buy(3);
    const refunded = await refundOrder(server.context(), { transactionId: session.transactionId, ownerId: 'owner-test' });
    expect(refunded.ok).toBe(true);
    expect(stripe.refunds).toEqual([
      expect.objectContaining({ amount: 100_000, payment_intent: stripe.intentOf(session.subscriptionId)!.id }),
    ]);
    const request = stripe.log.find((line) => line.startsWith('POST /v1/refunds'));
    expect(request).toBeDefined();
    expect(stripe.subscription(session.subscriptionId)?.status).toBe('canceled');
    expect(await orderOf(session)).toMatchObject({ status: 'cancelled', refundedCents: 100_000 });
    expect(await outboxOf(session)).toEqual(
      expect.arrayContaining(['mail:refund_issued', 'webhook:subscription.refunded', 'webhook:subscription.cancelled']),
    );
    // Stripe's own events for the same refund and cancellation find nothing left to change.
    await deliver(server, stripe.lastEvent('charge.refunded')!);
    await deliver(server, stripe.lastEvent('customer.subscription.deleted')!);
    expect(await orderOf(session)).toMatchObject({ status: 'cancelled', refundedCents: 100_000 });
    expect((await outboxOf(session)).filter((row) => row === 'mail:refund_issued')).toHaveLength(1);
    // Nothing is left to refund.
    expect(await refundOrder(server.context(), { transactionId: session.transactionId, amountCents: 1, ownerId: 'owner-test' })).toEqual({
      ok: false,
      refusal: 'amount_too_high',
    });
  });

  it('the console’s order: its Stripe invoices, and “Cancel now” ends the subscription in Stripe and the order through the lifecycle', async () => {
    const session = await buy(3);
    const detail = await orderDetail(server.context(), session.transactionId);
    expect(detail!.invoices).toEqual([expect.objectContaining({ amountCents: 100_000, status: 'paid' })]);
    expect(await runOrderAction(server.context(), session.transactionId, 'cancel_now')).toEqual({ ok: true });
    expect(stripe.subscription(session.subscriptionId)?.status).toBe('canceled');
    expect(await orderOf(session)).toMatchObject({ status: 'cancelled', refundedCents: 0 });
    expect(await outboxOf(session)).toContain('webhook:subscription.cancelled');
    await deliver(server, stripe.lastEvent('customer.subscription.deleted')!);
    expect(await runOrderAction(server.context(), session.transactionId, 'cancel_now')).toEqual({ ok: false, refusal: 'ended' });
  });

  it('a refund made in Stripe’s Dashboard (charge.refunded) reaches the order: its amount, a mail and a webhook', async () => {
    const session = await buy();
    const response = await fetch(`${stripe.url}/v1/refunds`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_SECRET_KEY}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ payment_intent: stripe.intentOf(session.subscriptionId)!.id, amount: '20000' }),
    });
    expect(response.status).toBe(200);
    expect((await deliver(server, stripe.lastEvent('charge.refunded')!)).json()).toEqual({ received: true, outcome: 'processed' });
    expect(await orderOf(session)).toMatchObject({ status: 'paid', refundedCents: 20_000 });
    expect(await outboxOf(session)).toEqual(expect.arrayContaining(['mail:refund_issued', 'webhook:subscription.refunded']));
    const mail = (await server.db.select().from(outbox).where(eq(outbox.transactionId, session.transactionId))).find(
      (row) => row.topic === 'refund_issued',
    )!;
    expect(mail.payload).toMatchObject({ amountCents: 20_000, subscription: 'continues' });
  });

  it('a customer.updated that did not change our customer’s default payment method asks Stripe nothing', async () => {
    const session = await buy();
    const customer = stripe.customer(session.customerId)!;
    const event = {
      ...stripe.lastEvent('invoice.paid')!,
      id: 'evt_customerNameChanged',
      type: 'customer.updated',
      data: {
        object: { id: customer.id, object: 'customer', metadata: customer.metadata, invoice_settings: { default_payment_method: null } },
        previous_attributes: { name: null },
      },
    };
    // A card change on a customer that is not one of ours (no transactionId metadata) is not ours to act on either.
    const notOurs = {
      ...event,
      id: 'evt_someoneElsesCard',
      data: {
        object: { id: 'cus_notOurs', object: 'customer', metadata: {}, invoice_settings: { default_payment_method: 'pm_x' } },
        previous_attributes: { invoice_settings: { default_payment_method: null } },
      },
    };
    const before = stripe.log.length;
    expect((await deliver(server, event)).json()).toEqual({ received: true, outcome: 'ignored' });
    expect((await deliver(server, notOurs)).json()).toEqual({ received: true, outcome: 'ignored' });
    expect(stripe.log.slice(before)).toEqual([]);
  });
});

describe('what the Stripe adapter reads from the double', () => {
  let stripe: StatefulStripe;
  const provider = () =>
    createStripeProvider({ secretKey: TEST_SECRET_KEY, apiBase: stripe.url, priceLookupKey: DEFAULT_PRICE_LOOKUP_KEY });
  beforeAll(async () => {
    stripe = await startStatefulStripe();
  });
  afterAll(() => stripe.close());

  async function paidSubscription(quantity = 1) {
    const { customerId } = await provider().createCustomer({
      transactionId: 'txn_read',
      affiliateId: 'dr',
      affiliateSource: 'https://x.test/',
      idempotencyKey: `c-${Math.random()}`,
    });
    const created = await provider().createSubscription({
      transactionId: 'txn_read',
      customerId,
      quantity,
      idempotencyKey: `s-${Math.random()}`,
    });
    return created;
  }

  it('creates the subscription with automatic tax disabled and its first invoice priced by the Price’s tiers', async () => {
    const created = await paidSubscription(3);
    expect(stripe.subscription(created.subscriptionId)?.automatic_tax).toBe(false);
    expect(stripe.invoiceOf(created.subscriptionId)?.amount_due).toBe(100_000);
    expect(created.paymentIntentId).toBe(stripe.intentOf(created.subscriptionId)?.id);
  });

  it('reads a portal cancellation (cancel_at only, flexible mode) as cancelAt at the period’s end', async () => {
    const created = await paidSubscription();
    stripe.pay(created.clientSecret);
    stripe.portalCancel(created.subscriptionId);
    const payment = await provider().retrieveSubscriptionPayment(created.subscriptionId);
    const periodEnd = new Date(stripe.subscription(created.subscriptionId)!.current_period_end * 1000).toISOString();
    expect(payment?.lifecycle).toMatchObject({ cancelAt: periodEnd, currentPeriodEnd: periodEnd });
  });

  it('reads unpaid and paused as such', async () => {
    const created = await paidSubscription();
    stripe.pay(created.clientSecret);
    stripe.setStatus(created.subscriptionId, 'unpaid');
    expect((await provider().retrieveSubscriptionPayment(created.subscriptionId))?.state).toBe('unpaid');
    stripe.setStatus(created.subscriptionId, 'paused');
    expect((await provider().retrieveSubscriptionPayment(created.subscriptionId))?.state).toBe('paused');
  });

  it('an incomplete subscription past its 23 hours is cancelled already: read as canceled, nothing to void or delete', async () => {
    const created = await paidSubscription();
    stripe.advanceClock(24 * 60 * 60);
    expect((await provider().retrieveSubscriptionPayment(created.subscriptionId))?.state).toBe('canceled');
    const before = stripe.log.length;
    expect(await provider().cancelUnpaidSubscription(created.subscriptionId, 'txn_read:cancel')).toBe('cancelled');
    expect(stripe.log.slice(before)).toEqual([`GET /v1/subscriptions/${created.subscriptionId}`]);
  });
});
