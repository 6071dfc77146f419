/**
 * POST /api/stripe/webhook with the Stripe provider: signatures from the SDK's generateTestHeaderString, the
 * re-fetched subscriptions and PaymentIntents served by the local Stripe double (helpers/stripeDouble.ts). No
 * request leaves the machine. Each effect is checked in the database: orders, accounts, webhook_events.
 */
import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { FinalizeResponse } from '../../../../src/contract/checkout';
import { accountLinks, accounts, orders, outbox, webhookEvents } from '../../../../server/db/schema';
import { hashHandoffToken } from '../../../../server/security/handoffToken';
import { STRIPE_API_VERSION } from '../../../../server/payments/stripe/client';
import { DATABASES, startTestServer, type TestServer } from '../../helper';
import { fixture, startStripeDouble, type StripeDouble } from '../../helpers/stripeDouble';
import {
  deliver,
  insertStripeOrder,
  invoiceFor,
  paymentIntentFor,
  stripeEvent,
  stripeTestEnv,
  subscriptionFor,
  TEST_WEBHOOK_SECRET,
  type TestOrder,
} from '../../helpers/stripeEvents';

let stripe: StripeDouble;

beforeAll(async () => {
  stripe = await startStripeDouble();
});

afterAll(async () => {
  await stripe.close();
});

afterEach(() => {
  const unexpected = [...stripe.unexpected];
  const pending = stripe.pending();
  stripe.reset();
  expect(unexpected, 'requests the double had no answer for').toEqual([]);
  expect(pending, 'answers scripted but never asked for').toEqual([]);
});

describe.each(DATABASES)('POST /api/stripe/webhook on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind, {
      env: stripeTestEnv(stripe.url),
    });
  });
  afterAll(() => server.close());

  const orderOf = async (order: TestOrder) =>
    (await server.db.select().from(orders).where(eq(orders.transactionId, order.transactionId)))[0]!;
  const accountsOf = (order: TestOrder) => server.db.select().from(accounts).where(eq(accounts.transactionId, order.transactionId));
  const recorded = async (eventId: unknown) =>
    (
      await server.db
        .select()
        .from(webhookEvents)
        .where(eq(webhookEvents.eventId, String(eventId)))
    ).length;
  const subscriptionPath = (order: TestOrder) => `/v1/subscriptions/${order.subscriptionId}`;
  const intentPath = (order: TestOrder) => `/v1/payment_intents/${order.paymentIntentId}`;

  /** The Stripe double answers the re-fetch of the order's subscription (and, when given, its PaymentIntent). */
  function stripeReports(order: TestOrder, state: Parameters<typeof subscriptionFor>[1], buyer?: { name: string; email: string }) {
    stripe.on('GET', subscriptionPath(order), 200, subscriptionFor(order, state));
    if (buyer) stripe.on('GET', intentPath(order), 200, paymentIntentFor(order, buyer));
  }

  /**
   * Stripe reports the order's subscription paid and the PaymentIntent's buyer, and then takes the buyer's email
   * and name onto the Customer (every completion records them there).
   */
  function stripeCompletes(order: TestOrder, buyer: { name: string; email: string }) {
    stripeReports(order, {}, buyer);
    stripe.on('POST', `/v1/customers/${order.customerId}`, 200, fixture('customer-updated'));
  }

  const paidEvent = (order: TestOrder, id?: string) => stripeEvent('invoice.paid', invoiceFor(order), id);
  const subscriptionEvent = (type: string, order: TestOrder, status: string, id?: string) =>
    stripeEvent(type, subscriptionFor(order, { status }), id);
  const JANE = { name: 'Jane Doe', email: 'jane@example.com' };

  describe('invoice.paid', () => {
    it('completes a checkout the browser never finalized: the order is paid and exactly one account exists', async () => {
      const order = await insertStripeOrder(server, 3);
      stripeCompletes(order, JANE);
      const event = paidEvent(order);

      const response = await deliver(server, event);

      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ received: true, outcome: 'processed' });
      expect(await orderOf(order)).toMatchObject({ status: 'paid', email: 'jane@example.com', name: 'Jane Doe' });
      expect((await orderOf(order)).paidAt).toBeInstanceOf(Date);
      const [account, ...more] = await accountsOf(order);
      expect(more).toEqual([]);
      expect(account).toMatchObject({ email: 'jane@example.com', name: 'Jane Doe', passwordHash: null, credentialsIssuedAt: null });
      expect(await recorded(event.id)).toBe(1);
      const [refetch, buyer, customerUpdate] = stripe.requests;
      expect(refetch?.params.get('expand[0]')).toBe('latest_invoice.payments');
      expect(buyer?.params.get('expand[0]')).toBe('payment_method');
      expect(Object.fromEntries(customerUpdate?.params ?? [])).toEqual({ email: 'jane@example.com', name: 'Jane Doe' });
      expect(customerUpdate?.headers['idempotency-key']).toBe(`${order.transactionId}:customer-details`);
    });

    it('then the browser’s finalize still returns working credentials for that one account (decisions 0008, 0026)', async () => {
      const order = await insertStripeOrder(server, 1);
      stripeCompletes(order, JANE);
      expect((await deliver(server, paidEvent(order))).statusCode).toBe(200);
      const ids = { subscriptionId: order.subscriptionId, customerId: order.customerId, transactionId: order.transactionId };

      // Another email than the one the payment recorded is refused before anything is written.
      stripeReports(order, {});
      const stranger = await server.post('/api/finalize-anon-subscription', {
        ...ids,
        email: 'jane.other@example.com',
        name: 'Jane Other',
      });
      expect(stranger.statusCode).toBe(403);
      expect((await accountsOf(order))[0]!.passwordHash).toBeNull();

      stripeReports(order, {});
      stripe.on('POST', `/v1/customers/${order.customerId}`, 200, fixture('customer-updated'));
      const finalize = await server.post('/api/finalize-anon-subscription', { ...ids, email: 'Jane@Example.com', name: 'Jane Other' });

      expect(finalize.statusCode).toBe(200);
      const body = finalize.json<FinalizeResponse>();
      expect(body).toMatchObject({ success: true, loginDetails: { email: 'jane@example.com' } });
      expect(body.token).toEqual(expect.any(String));
      const [account, ...more] = await accountsOf(order);
      expect(more).toEqual([]);
      expect(account!.passwordHash).toMatch(/^\$argon2id\$/);
    });

    it('after the browser finalized, changes nothing and asks Stripe for no buyer', async () => {
      const order = await insertStripeOrder(server, 2);
      // Before the webhook, the browser's finalize reads the buyer the payment recorded (decision 0026).
      stripeReports(order, {}, JANE);
      stripe.on('POST', `/v1/customers/${order.customerId}`, 200, fixture('customer-updated'));
      const finalize = await server.post('/api/finalize-anon-subscription', {
        subscriptionId: order.subscriptionId,
        customerId: order.customerId,
        transactionId: order.transactionId,
        ...JANE,
      });
      expect(finalize.statusCode).toBe(200);
      const [before] = await accountsOf(order);

      stripeReports(order, {});
      expect((await deliver(server, paidEvent(order))).json()).toEqual({ received: true, outcome: 'processed' });

      expect(await accountsOf(order)).toEqual([before]);
      expect(await orderOf(order)).toMatchObject({ status: 'paid' });
    });

    it('racing the browser’s finalize, still makes exactly one account', async () => {
      const order = await insertStripeOrder(server, 4);
      // The webhook and the finalize may each read the PaymentIntent's buyer, whichever comes first.
      stripeReports(order, {}, JANE);
      stripeReports(order, {}, JANE);
      stripe.on('POST', `/v1/customers/${order.customerId}`, 200, fixture('customer-updated'));

      const [webhook, finalize] = await Promise.all([
        deliver(server, paidEvent(order)),
        server.post('/api/finalize-anon-subscription', {
          subscriptionId: order.subscriptionId,
          customerId: order.customerId,
          transactionId: order.transactionId,
          ...JANE,
        }),
      ]);

      expect([webhook.statusCode, finalize.statusCode]).toEqual([200, 200]);
      expect(await accountsOf(order)).toHaveLength(1);
      expect((await accountsOf(order))[0]!.passwordHash).toMatch(/^\$argon2id\$/);
      expect(await orderOf(order)).toMatchObject({ status: 'paid' });
      // Whether the webhook needed the buyer depends on who locked the order first.
      stripe.reset();
    });

    it('leaves the order open when the paid amount is not the price of its seats', async () => {
      const order = await insertStripeOrder(server, 3);
      stripeReports(order, { amountPaid: 50_000 });

      expect((await deliver(server, paidEvent(order))).json()).toEqual({ received: true, outcome: 'processed' });

      expect(await orderOf(order)).toMatchObject({ status: 'open', paidAt: null });
      expect(await accountsOf(order)).toEqual([]);
    });

    it('ignores a subscription a seat change replaced, without asking Stripe', async () => {
      const order = await insertStripeOrder(server, 1);
      const replaced = stripeEvent('invoice.paid', invoiceFor(order, { subscriptionId: 'sub_ReplacedBySeatChange' }));

      expect((await deliver(server, replaced)).json()).toEqual({ received: true, outcome: 'processed' });

      expect(await orderOf(order)).toMatchObject({ status: 'open' });
      expect(stripe.requests).toEqual([]);
    });
  });

  describe('API versions', () => {
    it('reads an invoice.paid built for an API version before 2025-03-31.basil (subscription at the top level)', async () => {
      const order = await insertStripeOrder(server, 2);
      stripeCompletes(order, JANE);
      const { parent: _parent, ...invoice } = invoiceFor(order) as Record<string, unknown>;
      const legacy = {
        ...stripeEvent('invoice.paid', {
          ...invoice,
          subscription: order.subscriptionId,
          subscription_details: { metadata: { transactionId: order.transactionId } },
        }),
        api_version: '2024-06-20',
      };

      const response = await deliver(server, legacy);

      expect(response.json()).toEqual({ received: true, outcome: 'processed' });
      expect(await orderOf(order)).toMatchObject({ status: 'paid' });
    });

    it('reports in /healthz whether the last event was built for the pinned API version', async () => {
      const order = await insertStripeOrder(server, 1);
      await deliver(server, { ...stripeEvent('customer.created', fixture('customer')), api_version: '2024-06-20' });
      const mismatch = (await server.app.inject({ method: 'GET', url: '/healthz' })).json();
      expect(mismatch).toEqual({
        status: 'ok',
        stripeWebhook: { apiVersion: { expected: STRIPE_API_VERSION, lastReceived: '2024-06-20', matches: false } },
      });
      await deliver(server, stripeEvent('customer.created', fixture('customer')));
      expect((await server.app.inject({ method: 'GET', url: '/healthz' })).json().stripeWebhook.apiVersion).toMatchObject({
        matches: true,
      });
      expect(order).toBeDefined();
    });
  });

  describe('repeats and order of arrival', () => {
    it('processes a replayed event once', async () => {
      const order = await insertStripeOrder(server, 1);
      stripeCompletes(order, JANE);
      const event = paidEvent(order);

      const first = await deliver(server, event);
      const replay = await deliver(server, event);

      expect(first.json()).toEqual({ received: true, outcome: 'processed' });
      expect(replay.statusCode).toBe(200);
      expect(replay.json()).toEqual({ received: true, outcome: 'duplicate' });
      // The first delivery's three calls (subscription, buyer, customer update); the replay asks Stripe nothing.
      expect(stripe.requests).toHaveLength(3);
      expect(await accountsOf(order)).toHaveLength(1);
      expect(await recorded(event.id)).toBe(1);
    });

    it('paid twice (two events for one invoice): one account', async () => {
      const order = await insertStripeOrder(server, 5);
      stripeCompletes(order, JANE);
      stripeReports(order, {});

      const responses = [await deliver(server, paidEvent(order)), await deliver(server, paidEvent(order))];

      expect(responses.map((response) => response.json())).toEqual([
        { received: true, outcome: 'processed' },
        { received: true, outcome: 'processed' },
      ]);
      expect(await accountsOf(order)).toHaveLength(1);
      expect(await orderOf(order)).toMatchObject({ status: 'paid' });
    });

    it('deleted before paid: the order ends cancelled, with no account', async () => {
      const order = await insertStripeOrder(server, 1);
      // Once the order has ended, a later event (not a refund) is recorded without asking Stripe again.
      stripeReports(order, { status: 'canceled' });

      const deleted = await deliver(server, subscriptionEvent('customer.subscription.deleted', order, 'canceled'));
      expect(await orderOf(order)).toMatchObject({ status: 'cancelled' });
      const paid = await deliver(server, paidEvent(order));

      expect([deleted.statusCode, paid.statusCode]).toEqual([200, 200]);
      const final = await orderOf(order);
      expect(final).toMatchObject({ status: 'cancelled', paidAt: null });
      expect(final.cancelledAt).toBeInstanceOf(Date);
      expect(await accountsOf(order)).toEqual([]);
    });

    it('paid, then deleted: the paid order is cancelled and keeps its account', async () => {
      const order = await insertStripeOrder(server, 1);
      stripeCompletes(order, JANE);
      stripeReports(order, { status: 'canceled' });

      await deliver(server, paidEvent(order));
      const response = await deliver(server, subscriptionEvent('customer.subscription.deleted', order, 'canceled'));

      expect(response.json()).toEqual({ received: true, outcome: 'processed' });
      const final = await orderOf(order);
      expect(final).toMatchObject({ status: 'cancelled' });
      expect(final.paidAt).toBeInstanceOf(Date);
      expect(final.cancelledAt).toBeInstanceOf(Date);
      expect(await accountsOf(order)).toHaveLength(1);
    });

    it('updated after deleted: the order stays cancelled', async () => {
      const order = await insertStripeOrder(server, 1);
      stripeCompletes(order, JANE);
      stripeReports(order, { status: 'canceled' });
      await deliver(server, paidEvent(order));
      await deliver(server, subscriptionEvent('customer.subscription.deleted', order, 'canceled'));

      const updated = await deliver(server, subscriptionEvent('customer.subscription.updated', order, 'active'));

      expect(updated.json()).toEqual({ received: true, outcome: 'processed' });
      expect(await orderOf(order)).toMatchObject({ status: 'cancelled' });
    });

    it('a replaced incomplete subscription’s deletion does not cancel the order', async () => {
      const order = await insertStripeOrder(server, 2);
      const replaced = stripeEvent(
        'customer.subscription.deleted',
        subscriptionFor(order, { status: 'canceled', invoiceStatus: 'void', subscriptionId: 'sub_ReplacedBySeatChange' }),
      );

      expect((await deliver(server, replaced)).json()).toEqual({ received: true, outcome: 'processed' });

      expect(await orderOf(order)).toMatchObject({ status: 'open', cancelledAt: null });
    });

    describe('a paid order’s life, as Stripe reports it (renewals, Smart Retries, the Customer Portal)', () => {
      const outboxOf = async (order: TestOrder) =>
        (await server.db.select().from(outbox).where(eq(outbox.transactionId, order.transactionId)))
          .map((row) => `${row.kind}:${row.topic}`)
          .sort();
      /** The subscription as Stripe reports it after the purchase: `status`, the latest invoice a renewal. */
      const renewed = (order: TestOrder, status: string, invoiceStatus: string, extra: Record<string, unknown> = {}) => {
        const subscription = subscriptionFor(order, { status, invoiceStatus }) as Record<string, unknown> & {
          latest_invoice: Record<string, unknown>;
        };
        return {
          ...subscription,
          latest_invoice: { ...subscription.latest_invoice, id: 'in_Renewal0001', billing_reason: 'subscription_cycle' },
          ...extra,
        };
      };

      it('past due on a failed renewal, with its mail; paid again, with a receipt, when the retry succeeds', async () => {
        const order = await insertStripeOrder(server, 1);
        stripeCompletes(order, JANE);
        await deliver(server, paidEvent(order));
        expect(await outboxOf(order)).toEqual(['mail:order_confirmation']);

        stripe.on('GET', subscriptionPath(order), 200, renewed(order, 'past_due', 'open'));
        await deliver(server, stripeEvent('invoice.payment_failed', invoiceFor(order, { invoiceStatus: 'open' })));
        expect(await orderOf(order)).toMatchObject({ status: 'past_due' });
        expect(await outboxOf(order)).toEqual(['mail:order_confirmation', 'mail:payment_failed']);

        stripe.on('GET', subscriptionPath(order), 200, renewed(order, 'active', 'paid'));
        await deliver(server, paidEvent(order));
        expect(await orderOf(order)).toMatchObject({ status: 'paid' });
        expect(await outboxOf(order)).toEqual(['mail:order_confirmation', 'mail:payment_failed', 'mail:renewal_receipt']);
      });

      it('a renewal that needs the buyer to authenticate (invoice.payment_action_required) is past due the same way', async () => {
        const order = await insertStripeOrder(server, 1);
        stripeCompletes(order, JANE);
        await deliver(server, paidEvent(order));
        stripe.on('GET', subscriptionPath(order), 200, renewed(order, 'past_due', 'open'));
        const response = await deliver(
          server,
          stripeEvent('invoice.payment_action_required', invoiceFor(order, { invoiceStatus: 'open' })),
        );
        expect(response.json()).toEqual({ received: true, outcome: 'processed' });
        expect(await orderOf(order)).toMatchObject({ status: 'past_due' });
        expect(await outboxOf(order)).toEqual(['mail:order_confirmation', 'mail:payment_failed']);
      });

      it('the manage page shows the next charge date as Stripe reports it, and opens the portal for the actions', async () => {
        const order = await insertStripeOrder(server, 1);
        stripeCompletes(order, JANE);
        await deliver(server, paidEvent(order));
        const token = 'stripe-manage-link-token-0123456789abcdef';
        await server.db.insert(accountLinks).values({
          tokenHash: hashHandoffToken(token),
          transactionId: order.transactionId,
          purpose: 'manage',
          expiresAt: new Date(Date.now() + 60_000),
        });
        stripeReports(order, {});
        // The manage page's details list the subscription's invoices too (none paid through Stripe yet here).
        stripe.on('GET', '/v1/invoices', 200, { object: 'list', data: [], has_more: false, url: '/v1/invoices' });
        const opened = await server.post('/api/account/session', { token });
        const cookie = opened.cookies.find((each) => each.name === 'account_session')!;
        const account = opened.json().account;
        expect(account).toMatchObject({ status: 'paid', seats: 1, monthlyTotalCents: 50_000, managedByProvider: true });
        const periodEnd = fixture<{ items: { data: { current_period_end: number }[] } }>('subscription-active').items.data[0]!
          .current_period_end;
        expect(account.currentPeriodEnd).toBe(new Date(periodEnd * 1000).toISOString());
        // A cancellation from the manage page goes through Stripe's API (cancel_at_period_end), then the lifecycle.
        stripe.on('POST', subscriptionPath(order), 200, renewed(order, 'active', 'paid', { cancel_at_period_end: true }));
        // Read twice: by the lifecycle, then for the page's next charge date.
        stripe.on('GET', subscriptionPath(order), 200, renewed(order, 'active', 'paid', { cancel_at_period_end: true }));
        stripe.on('GET', subscriptionPath(order), 200, renewed(order, 'active', 'paid', { cancel_at_period_end: true }));
        stripe.on('GET', '/v1/invoices', 200, { object: 'list', data: [], has_more: false, url: '/v1/invoices' });
        const cancel = await server.post('/api/account/cancel', {}, { cookie: `account_session=${cookie.value}` });
        expect(cancel.json()).toMatchObject({ cancelAt: new Date(periodEnd * 1000).toISOString() });
        const update = stripe.requests.find((request) => request.method === 'POST' && request.path === subscriptionPath(order))!;
        expect(Object.fromEntries(update.params)).toEqual({ cancel_at_period_end: 'true' });
        expect(update.headers['idempotency-key']).toMatch(new RegExp(`^${order.transactionId}:cancel:`));
        stripe.on('GET', '/v1/billing_portal/configurations', 200, {
          object: 'list',
          data: [{ id: 'bpc_ours', object: 'billing_portal.configuration', active: true, metadata: { referral_checkout: 'manage-page' } }],
          has_more: false,
          url: '/v1/billing_portal/configurations',
        });
        stripe.on('POST', '/v1/billing_portal/sessions', 200, {
          id: 'bps_1',
          object: 'billing_portal.session',
          url: 'https://billing.stripe.com/p/session/test_1',
        });
        const portal = await server.post('/api/account/portal', { flow: 'cancel' }, { cookie: `account_session=${cookie.value}` });
        expect(portal.json()).toEqual({ url: 'https://billing.stripe.com/p/session/test_1' });
        const session = stripe.requests.find((request) => request.path === '/v1/billing_portal/sessions')!;
        expect(Object.fromEntries(session.params)).toMatchObject({
          customer: order.customerId,
          'flow_data[subscription_cancel][subscription]': order.subscriptionId,
        });
      });

      it('a cancellation at period end (flexible billing mode: cancel_at only) and its undo in the portal, and seats changed there', async () => {
        const order = await insertStripeOrder(server, 1);
        stripeCompletes(order, JANE);
        await deliver(server, paidEvent(order));

        const periodEnd = new Date(
          fixture<{ items: { data: { current_period_end: number }[] } }>('subscription-active').items.data[0]!.current_period_end * 1000,
        );
        // Flexible billing mode: the portal's cancel at period end sets cancel_at, cancel_at_period_end stays false.
        stripe.on(
          'GET',
          subscriptionPath(order),
          200,
          renewed(order, 'active', 'paid', { cancel_at: periodEnd.getTime() / 1000, cancel_at_period_end: false }),
        );
        await deliver(server, subscriptionEvent('customer.subscription.updated', order, 'active'));
        expect((await orderOf(order)).cancelAt).toEqual(periodEnd);

        stripe.on('GET', subscriptionPath(order), 200, renewed(order, 'active', 'paid'));
        await deliver(server, subscriptionEvent('customer.subscription.updated', order, 'active'));
        expect((await orderOf(order)).cancelAt).toBeNull();

        const threeSeats = subscriptionFor({ ...order, quantity: 3 }, {});
        stripe.on('GET', subscriptionPath(order), 200, threeSeats);
        await deliver(server, subscriptionEvent('customer.subscription.updated', order, 'active'));
        expect(await orderOf(order)).toMatchObject({ quantity: 3, amountCents: 100_000, status: 'paid' });
        expect(await outboxOf(order)).toEqual([
          'mail:cancellation_confirmed',
          'mail:cancellation_undone',
          'mail:order_confirmation',
          'mail:seats_changed',
        ]);
      });
    });

    it('invoice.payment_failed and customer.subscription.updated change nothing', async () => {
      const order = await insertStripeOrder(server, 1);
      const failed = stripeEvent('invoice.payment_failed', invoiceFor(order, { invoiceStatus: 'open' }));
      const updated = subscriptionEvent('customer.subscription.updated', order, 'incomplete');

      const responses = [await deliver(server, failed), await deliver(server, updated)];

      expect(responses.map((response) => response.json())).toEqual([
        { received: true, outcome: 'processed' },
        { received: true, outcome: 'processed' },
      ]);
      expect(await orderOf(order)).toMatchObject({ status: 'open', paidAt: null, cancelledAt: null });
      expect(await recorded(failed.id)).toBe(1);
      expect(stripe.requests).toEqual([]);
    });
  });

  describe('what is not ours', () => {
    it('acknowledges an event type outside the allow-list and ignores it', async () => {
      const event = stripeEvent('customer.created', fixture('customer'));

      const response = await deliver(server, event);

      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ received: true, outcome: 'ignored' });
      expect(await recorded(event.id)).toBe(0);
    });

    it('ignores an invoice without our transactionId metadata', async () => {
      const order = await insertStripeOrder(server, 1);
      const invoice = invoiceFor(order);
      invoice.parent = {
        quote_details: null,
        subscription_details: { metadata: {}, subscription: order.subscriptionId },
        type: 'subscription_details',
      };

      expect((await deliver(server, stripeEvent('invoice.paid', invoice))).json()).toEqual({ received: true, outcome: 'ignored' });
      expect(await orderOf(order)).toMatchObject({ status: 'open' });
    });

    it.each([
      [
        'a subscription id that is a number',
        (event: Record<string, unknown>) => ({
          ...event,
          data: { object: { parent: { subscription_details: { subscription: 42, metadata: { transactionId: 7 } } } } },
        }),
      ],
      [
        'a NUL byte in the subscription id and the transactionId',
        (event: Record<string, unknown>) => ({
          ...event,
          data: { object: { parent: { subscription_details: { subscription: 'sub_\u0000', metadata: { transactionId: 'a\u0000' } } } } },
        }),
      ],
      ['an event type named like a property of every object', (event: Record<string, unknown>) => ({ ...event, type: 'constructor' })],
    ])('acknowledges a signed event with %s and ignores it (never a 500)', async (_case, mangle) => {
      const order = await insertStripeOrder(server, 1);
      const response = await deliver(server, mangle(paidEvent(order)));
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ received: true, outcome: 'ignored' });
      expect(await orderOf(order)).toMatchObject({ status: 'open' });
    });

    it('ignores an order this database does not hold', async () => {
      const stranger = { ...(await insertStripeOrder(server, 1)), transactionId: 'txn_from_another_environment' };

      expect((await deliver(server, paidEvent(stranger))).json()).toEqual({ received: true, outcome: 'ignored' });
    });
  });

  describe('signatures', () => {
    it.each([
      ['signed with another secret', { secret: 'whsec_notTheEndpointsSecret' }],
      ['signed more than 300 s ago', { timestamp: Math.floor(Date.now() / 1000) - 301 }],
      // Computed when the file loads, so the margin absorbs the time until the test runs.
      ['signed more than 300 s in the future', { timestamp: Math.floor(Date.now() / 1000) + 900 }],
      ['without a Stripe-Signature header', { signature: null }],
      ['with a malformed header', { signature: 'not-a-signature' }],
    ])('answers 400 { error } with no effect when %s', async (_case, options) => {
      const order = await insertStripeOrder(server, 1);
      const event = paidEvent(order);

      const response = await deliver(server, event, options);

      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ error: 'Webhook signature verification failed.' });
      expect(await orderOf(order)).toMatchObject({ status: 'open' });
      expect(await recorded(event.id)).toBe(0);
      expect(stripe.requests).toEqual([]);
    });

    it('answers 400 when the signed body was altered on the way', async () => {
      const order = await insertStripeOrder(server, 1);
      const genuine = JSON.stringify(paidEvent(order), null, 2);
      const signature = Stripe.webhooks.generateTestHeaderString({ payload: genuine, secret: TEST_WEBHOOK_SECRET });
      const altered = genuine.replace('"livemode": false', '"livemode": true');

      const response = await deliver(server, altered, { signature });

      expect(response.statusCode).toBe(400);
      expect(await orderOf(order)).toMatchObject({ status: 'open' });
      expect(stripe.requests).toEqual([]);
    });

    it('answers 400 for a body that is not JSON, even when signed', async () => {
      const response = await deliver(server, 'not json');
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ error: 'Webhook signature verification failed.' });
    });

    it('answers 400 for another content type', async () => {
      const order = await insertStripeOrder(server, 1);
      const response = await deliver(server, paidEvent(order), { contentType: 'text/plain' });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ error: expect.any(String) });
    });
  });

  describe('signed bodies that are not events', () => {
    const lines: string[] = [];
    let logged: TestServer;
    beforeAll(async () => {
      logged = await server.derive({
        env: { ...stripeTestEnv(stripe.url), LOG_LEVEL: 'warn' },
        logStream: { write: (line) => void lines.push(line) },
      });
    });
    afterAll(() => logged.close());

    const event = (change: Record<string, unknown>) => JSON.stringify({ ...stripeEvent('invoice.paid', {}, 'evt_malformed'), ...change });
    it.each([
      ['null', 'null'],
      ['an array', '[{"id":"evt_1"}]'],
      ['a number', '42'],
      ['a string', '"evt_1"'],
      ['no event id', event({ id: undefined })],
      ['an empty event id', event({ id: '' })],
      ['a NUL byte in the event id', event({ id: 'evt_\u0000' })],
      ['a control character in the event id', event({ id: 'evt_\u001b[31m' })],
      ['a lone surrogate in the event id', event({ id: 'evt_\uD800' })],
      ['an event id that is an object', event({ id: { toString: 1 } })],
      ['an event id of 256 characters', event({ id: `evt_${'x'.repeat(252)}` })],
      ['a type that is an object', event({ type: { toString: 1 } })],
      ['no type', event({ type: undefined })],
      ['no data.object', event({ data: {} })],
      ['a null data.object', event({ data: { object: null } })],
      ['data.object an array', event({ data: { object: [] } })],
      ['data that is a string', event({ data: 'invoice' })],
      ['an api_version that is an object', event({ api_version: { toString: 1 } })],
    ])('answers 400 { error } for %s, logged once as a warning, with no effect', async (_case, payload) => {
      const before = lines.length;
      const response = await deliver(logged, payload);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ error: 'The webhook body is not a well-formed event.' });
      const written = lines.slice(before).map((line) => JSON.parse(line) as { level: number; msg: string });
      expect(written.map(({ level, msg }) => [level, msg])).toEqual([[40, 'Rejected a signed webhook body that is not an event']]);
      expect(await recorded('evt_malformed')).toBe(0);
      expect(stripe.requests).toEqual([]);
    });

    it('reads an event whose data.object carries a __proto__ key as plain data', async () => {
      const order = await insertStripeOrder(server, 1);
      const payload = JSON.stringify(paidEvent(order)).replace(
        '"data":{"object":{',
        '"data":{"object":{"__proto__":{"toString":1,"status":"paid"},',
      );
      expect(payload).toContain('"__proto__"');
      stripeCompletes(order, JANE);
      const response = await deliver(logged, payload);
      expect(response.json()).toEqual({ received: true, outcome: 'processed' });
      expect(await orderOf(order)).toMatchObject({ status: 'paid' });
    });
  });

  describe('failures on our side', () => {
    it('answers 500 when Stripe cannot be asked, leaves the event unrecorded, and processes the retry', async () => {
      const order = await insertStripeOrder(server, 1);
      stripe.on('GET', subscriptionPath(order), 500, fixture('error-api'), { 'stripe-should-retry': 'false' });
      const event = paidEvent(order);

      const failed = await deliver(server, event);

      expect(failed.statusCode).toBe(500);
      expect(failed.json()).toEqual({ error: 'The event could not be processed now; it will be retried.' });
      expect(await recorded(event.id)).toBe(0);

      stripeCompletes(order, JANE);
      const retried = await deliver(server, event);
      expect(retried.json()).toEqual({ received: true, outcome: 'processed' });
      expect(await orderOf(order)).toMatchObject({ status: 'paid' });
    });
  });
});
