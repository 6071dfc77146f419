/**
 * The Stripe provider against a local Stripe double (helpers/stripeDouble.ts): the requests it sends (paths,
 * form parameters, Stripe-Version and Idempotency-Key headers), how it maps Stripe's answers onto our small
 * enums, and how Stripe's errors become StripeProviderError.
 */
import type Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createStripeProvider, invoiceStateOf, subscriptionStateOf } from '../../../../server/payments/stripe/provider';
import { STRIPE_API_VERSION } from '../../../../server/payments/stripe/client';
import { StripeProviderError } from '../../../../server/payments/stripe/errors';
import { readDisputeEvent, readFailedRefund } from '../../../../server/payments/stripe/webhook';
import { fixture, startStripeDouble, TEST_SECRET_KEY, type StripeDouble } from '../../helpers/stripeDouble';

const LOOKUP_KEY = 'chiro_ai_training_monthly';
let stripe: StripeDouble;

beforeAll(async () => {
  stripe = await startStripeDouble();
});

afterEach(() => {
  const requests = [...stripe.requests];
  const unexpected = [...stripe.unexpected];
  const pending = stripe.pending();
  stripe.reset();
  // Every request carries the pinned version; every POST carries the key the caller gave (not one the SDK made up).
  for (const request of requests) {
    expect(request.headers['stripe-version']).toBe(STRIPE_API_VERSION);
    if (request.method === 'POST') expect(request.headers['idempotency-key']).toMatch(/^txn_0001:/);
    else expect(request.headers['idempotency-key']).toBeUndefined();
  }
  expect(unexpected).toEqual([]);
  expect(pending).toEqual([]);
});

afterAll(async () => {
  await stripe.close();
});

function provider() {
  return createStripeProvider({ secretKey: TEST_SECRET_KEY, apiBase: stripe.url, priceLookupKey: LOOKUP_KEY });
}

function subscriptionInput(quantity = 3) {
  return { transactionId: 'txn_0001', customerId: 'cus_TestChiro0001', quantity, idempotencyKey: 'txn_0001:subscription:0' };
}

describe('createPortalSession', () => {
  const configurations = {
    object: 'list',
    data: [{ id: 'bpc_ours', object: 'billing_portal.configuration', active: true, metadata: { referral_checkout: 'manage-page' } }],
    has_more: false,
    url: '/v1/billing_portal/configurations',
  };
  const session = { id: 'bps_1', object: 'billing_portal.session', url: 'https://billing.stripe.com/p/session/test_1' };

  it('opens the portal on the flow asked for, with the manage page’s configuration, returning to the manage page', async () => {
    stripe
      .on('GET', '/v1/billing_portal/configurations', 200, configurations)
      .on('POST', '/v1/billing_portal/sessions', 200, session)
      .on('POST', '/v1/billing_portal/sessions', 200, session)
      .on('POST', '/v1/billing_portal/sessions', 200, session);
    const stripeProvider = provider();
    const open = (flow: 'cancel' | 'seats' | 'card') =>
      stripeProvider.createPortalSession!({
        customerId: 'cus_1',
        subscriptionId: 'sub_1',
        flow,
        returnUrl: 'https://checkout.example.com/account',
        idempotencyKey: `txn_0001:portal:${flow}`,
      });
    expect(await open('cancel')).toBe('https://billing.stripe.com/p/session/test_1');
    await open('seats');
    await open('card');
    const [, cancel, seats, card] = stripe.requests.map((request) => Object.fromEntries(request.params));
    expect(cancel).toEqual({
      customer: 'cus_1',
      configuration: 'bpc_ours',
      return_url: 'https://checkout.example.com/account',
      'flow_data[type]': 'subscription_cancel',
      'flow_data[subscription_cancel][subscription]': 'sub_1',
      'flow_data[after_completion][type]': 'redirect',
      'flow_data[after_completion][redirect][return_url]': 'https://checkout.example.com/account',
    });
    expect(seats).toMatchObject({ 'flow_data[type]': 'subscription_update', 'flow_data[subscription_update][subscription]': 'sub_1' });
    expect(card).toMatchObject({ 'flow_data[type]': 'payment_method_update' });
    // The configuration is looked up once.
    expect(stripe.requests.filter((request) => request.path === '/v1/billing_portal/configurations')).toHaveLength(1);
  });

  it('says to run stripe:setup when the configuration is missing', async () => {
    stripe.on('GET', '/v1/billing_portal/configurations', 200, { ...configurations, data: [] });
    await expect(
      provider().createPortalSession!({
        customerId: 'cus_1',
        subscriptionId: 'sub_1',
        flow: 'home',
        returnUrl: 'https://x.test/account',
        idempotencyKey: 'txn_0001:portal:home',
      }),
    ).rejects.toMatchObject({
      kind: 'misconfigured',
    });
  });
});

describe('createCustomer', () => {
  it('creates the customer with our metadata and the caller’s idempotency key', async () => {
    stripe.on('POST', '/v1/customers', 200, fixture('customer'));

    const result = await provider().createCustomer({
      transactionId: 'txn_0001',
      affiliateId: 'drsmith',
      affiliateSource: 'https://checkout.example.com/',
      idempotencyKey: 'txn_0001:customer',
    });

    expect(result).toEqual({ customerId: 'cus_TestChiro0001' });
    const [request] = stripe.requests;
    expect(request?.path).toBe('/v1/customers');
    expect(Object.fromEntries(request?.params ?? [])).toEqual({
      'metadata[transactionId]': 'txn_0001',
      'metadata[affiliate_id]': 'drsmith',
      'metadata[affiliate_source]': 'https://checkout.example.com/',
    });
    expect(request?.headers['idempotency-key']).toBe('txn_0001:customer');
    expect(request?.headers.authorization).toBe(`Bearer ${TEST_SECRET_KEY}`);
  });

  it("writes the attributed referrer's slug to the customer's and the subscription's metadata", async () => {
    stripe.on('POST', '/v1/customers', 200, fixture('customer'));
    stripe.on('GET', '/v1/prices', 200, fixture('price-list')).on('POST', '/v1/subscriptions', 200, fixture('subscription-created'));

    await provider().createCustomer({
      transactionId: 'txn_0001',
      affiliateId: 'drsmith',
      affiliateSource: 'https://checkout.example.com/',
      referrer: 'jane-doe',
      idempotencyKey: 'txn_0001:customer',
    });
    await provider().createSubscription({ ...subscriptionInput(3), referrer: 'jane-doe' });

    const [customer, , subscription] = stripe.requests;
    expect(Object.fromEntries(customer?.params ?? [])).toMatchObject({ 'metadata[referrer]': 'jane-doe' });
    expect(Object.fromEntries(subscription?.params ?? [])).toMatchObject({
      'metadata[transactionId]': 'txn_0001',
      'metadata[referrer]': 'jane-doe',
    });
  });

  it('cuts metadata values to Stripe’s 500 characters', async () => {
    stripe.on('POST', '/v1/customers', 200, fixture('customer'));
    const longAddress = `https://checkout.example.com/?${'x'.repeat(600)}`;

    await provider().createCustomer({
      transactionId: 'txn_0001',
      affiliateId: 'drsmith',
      affiliateSource: longAddress,
      idempotencyKey: 'txn_0001:customer',
    });

    expect(stripe.requests[0]?.params.get('metadata[affiliate_source]')).toBe(longAddress.slice(0, 500));
  });

  it('cuts metadata values on code points and drops lone surrogates, which stripe-node cannot encode', async () => {
    stripe.on('POST', '/v1/customers', 200, fixture('customer'));
    // 499 characters, then an emoji (two UTF-16 units) across the 500th: kept whole, the cut falls after it.
    const acrossTheLimit = `${'x'.repeat(499)}😀tail`;
    const loneSurrogate = `dr\uD800smith`;

    await provider().createCustomer({
      transactionId: 'txn_0001',
      affiliateId: loneSurrogate,
      affiliateSource: acrossTheLimit,
      idempotencyKey: 'txn_0001:customer',
    });

    const params = stripe.requests[0]?.params;
    expect(params?.get('metadata[affiliate_source]')).toBe(`${'x'.repeat(499)}😀`);
    expect(params?.get('metadata[affiliate_id]')).toBe('drsmith');
  });

  it('retries a 409 once with the same idempotency key, then succeeds', async () => {
    stripe.on('POST', '/v1/customers', 409, fixture('error-api')).on('POST', '/v1/customers', 200, fixture('customer'));

    const result = await provider().createCustomer({
      transactionId: 'txn_0001',
      affiliateId: 'drsmith',
      affiliateSource: 'https://checkout.example.com/',
      idempotencyKey: 'txn_0001:customer',
    });

    expect(result.customerId).toBe('cus_TestChiro0001');
    expect(stripe.requests.map((request) => request.headers['idempotency-key'])).toEqual(['txn_0001:customer', 'txn_0001:customer']);
  });
});

describe('createSubscription', () => {
  it('finds the Price by lookup key and creates a default_incomplete subscription', async () => {
    stripe.on('GET', '/v1/prices', 200, fixture('price-list')).on('POST', '/v1/subscriptions', 200, fixture('subscription-created'));

    const created = await provider().createSubscription(subscriptionInput(3));

    expect(created).toEqual({
      subscriptionId: 'sub_TestChiro0001',
      subscriptionItemId: 'si_TestSeats0001',
      clientSecret: 'pi_3TestIntent0001_secret_TestSecret0001',
      paymentIntentId: 'pi_3TestIntent0001',
      subtotalCents: 100_000,
      taxCents: 0,
    });
    const [lookup, create] = stripe.requests;
    expect(lookup?.path).toBe('/v1/prices');
    expect(Object.fromEntries(lookup?.params ?? [])).toEqual({ 'lookup_keys[0]': LOOKUP_KEY, active: 'true', limit: '1' });
    expect(create?.path).toBe('/v1/subscriptions');
    expect(Object.fromEntries(create?.params ?? [])).toEqual({
      customer: 'cus_TestChiro0001',
      'items[0][price]': 'price_TestSeatsMonthly',
      'items[0][quantity]': '3',
      payment_behavior: 'default_incomplete',
      // Sent disabled explicitly: an account taxing by default would otherwise tax the first invoice.
      'automatic_tax[enabled]': 'false',
      'payment_settings[save_default_payment_method]': 'on_subscription',
      'payment_settings[payment_method_types][0]': 'card',
      'metadata[transactionId]': 'txn_0001',
      'expand[0]': 'latest_invoice.confirmation_secret',
      'expand[1]': 'latest_invoice.payments',
    });
    expect(create?.headers['idempotency-key']).toBe('txn_0001:subscription:0');
  });

  it('looks the Price up once and keeps it', async () => {
    stripe
      .on('GET', '/v1/prices', 200, fixture('price-list'))
      .on('POST', '/v1/subscriptions', 200, fixture('subscription-created'))
      .on('POST', '/v1/subscriptions', 200, fixture('subscription-created'));
    const stripeProvider = provider();

    await stripeProvider.createSubscription(subscriptionInput(1));
    await stripeProvider.createSubscription({ ...subscriptionInput(2), idempotencyKey: 'txn_0001:subscription:1' });

    expect(stripe.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      'GET /v1/prices',
      'POST /v1/subscriptions',
      'POST /v1/subscriptions',
    ]);
  });

  it('reads the PaymentIntent id from the client secret when the invoice lists no payments', async () => {
    const subscription = fixture<{ latest_invoice: Record<string, unknown> }>('subscription-created');
    delete subscription.latest_invoice.payments;
    stripe.on('GET', '/v1/prices', 200, fixture('price-list')).on('POST', '/v1/subscriptions', 200, subscription);

    const created = await provider().createSubscription(subscriptionInput());

    expect(created.paymentIntentId).toBe('pi_3TestIntent0001');
  });

  it('says to run stripe:setup when no active Price has the lookup key, and asks again next time', async () => {
    stripe.on('GET', '/v1/prices', 200, fixture('price-list-empty')).on('GET', '/v1/prices', 200, fixture('price-list-empty'));
    const stripeProvider = provider();

    const failure = stripeProvider.createSubscription(subscriptionInput());
    await expect(failure).rejects.toThrow('Stripe price with lookup key "chiro_ai_training_monthly" not found; run npm run stripe:setup');
    await expect(failure).rejects.toMatchObject({ kind: 'misconfigured' });
    await expect(stripeProvider.createSubscription(subscriptionInput())).rejects.toBeInstanceOf(StripeProviderError);
    expect(stripe.requests.every((request) => request.path === '/v1/prices')).toBe(true);
  });

  it('fails as unexpected when Stripe returns no confirmation secret', async () => {
    const subscription = fixture<{ latest_invoice: Record<string, unknown> }>('subscription-created');
    subscription.latest_invoice.confirmation_secret = null;
    stripe.on('GET', '/v1/prices', 200, fixture('price-list')).on('POST', '/v1/subscriptions', 200, subscription);

    await expect(provider().createSubscription(subscriptionInput())).rejects.toMatchObject({ kind: 'unexpected' });
  });

  it('refuses a new subscription that is not incomplete (already active), and cancels it', async () => {
    stripe
      .on('GET', '/v1/prices', 200, fixture('price-list'))
      .on('POST', '/v1/subscriptions', 200, { ...fixture<Record<string, unknown>>('subscription-created'), status: 'active' })
      .on('DELETE', '/v1/subscriptions/sub_TestChiro0001', 200, fixture('subscription-canceled'));

    await expect(provider().createSubscription(subscriptionInput())).rejects.toMatchObject({
      name: 'StripeProviderError',
      message: expect.stringMatching(/was active, not incomplete/),
    });
    expect(stripe.requests.map((request) => `${request.method} ${request.path}`)).toContain('DELETE /v1/subscriptions/sub_TestChiro0001');
  });

  it.each([0, -1, 1.5])('refuses %s seats without calling Stripe', async (quantity) => {
    await expect(provider().createSubscription(subscriptionInput(quantity))).rejects.toThrow(RangeError);
    expect(stripe.requests).toEqual([]);
  });
});

describe('cancelUnpaidSubscription', () => {
  const SUBSCRIPTION = '/v1/subscriptions/sub_TestChiro0001';
  const INVOICE = 'in_TestFirst0001';

  it('voids the open first invoice (with an idempotency key), then cancels the subscription', async () => {
    stripe
      .on('GET', SUBSCRIPTION, 200, fixture('subscription-incomplete'))
      .on('POST', `/v1/invoices/${INVOICE}/void`, 200, { ...(fixture('subscription-incomplete').latest_invoice as object), status: 'void' })
      .on('DELETE', SUBSCRIPTION, 200, fixture('subscription-canceled'));

    await expect(provider().cancelUnpaidSubscription('sub_TestChiro0001', 'txn_0001:cancel:sub_TestChiro0001:a1')).resolves.toBe(
      'cancelled',
    );

    expect(stripe.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      `GET ${SUBSCRIPTION}`,
      `POST /v1/invoices/${INVOICE}/void`,
      `DELETE ${SUBSCRIPTION}`,
    ]);
    expect(stripe.requests[1]?.headers['idempotency-key']).toBe('txn_0001:cancel:sub_TestChiro0001:a1:void');
  });

  it('answers paid and changes nothing when the first invoice is paid', async () => {
    stripe.on('GET', SUBSCRIPTION, 200, fixture('subscription-active'));

    await expect(provider().cancelUnpaidSubscription('sub_TestChiro0001', 'txn_0001:cancel:x')).resolves.toBe('paid');

    expect(stripe.requests.map((request) => request.method)).toEqual(['GET']);
  });

  it('answers paid when the void is refused because the card paid the invoice meanwhile', async () => {
    stripe
      .on('GET', SUBSCRIPTION, 200, fixture('subscription-incomplete'))
      .on('POST', `/v1/invoices/${INVOICE}/void`, 400, fixture('error-invalid-request'))
      .on('GET', `/v1/invoices/${INVOICE}`, 200, { ...(fixture('subscription-incomplete').latest_invoice as object), status: 'paid' });

    await expect(provider().cancelUnpaidSubscription('sub_TestChiro0001', 'txn_0001:cancel:x')).resolves.toBe('paid');
    expect(stripe.requests.some((request) => request.method === 'DELETE')).toBe(false);
  });

  it('treats a subscription Stripe no longer knows, or one already canceled, as cancelled', async () => {
    stripe.on('GET', '/v1/subscriptions/sub_Missing0001', 404, fixture('error-resource-missing'));
    await expect(provider().cancelUnpaidSubscription('sub_Missing0001', 'txn_0001:cancel:x')).resolves.toBe('cancelled');
    stripe.on('GET', SUBSCRIPTION, 200, fixture('subscription-canceled'));
    await expect(provider().cancelUnpaidSubscription('sub_TestChiro0001', 'txn_0001:cancel:x')).resolves.toBe('cancelled');
  });

  it('reports other failures', async () => {
    stripe.on('GET', SUBSCRIPTION, 401, fixture('error-authentication'));

    await expect(provider().cancelUnpaidSubscription('sub_TestChiro0001', 'txn_0001:cancel:x')).rejects.toMatchObject({
      kind: 'misconfigured',
    });
  });
});

describe('retrieveSubscriptionPayment', () => {
  it('reads an unpaid subscription and its open first invoice', async () => {
    stripe.on('GET', '/v1/subscriptions/sub_TestChiro0001', 200, fixture('subscription-incomplete'));

    const payment = await provider().retrieveSubscriptionPayment('sub_TestChiro0001');

    expect(payment).toEqual({
      subscriptionId: 'sub_TestChiro0001',
      customerId: 'cus_TestChiro0001',
      quantity: 3,
      state: 'incomplete',
      firstInvoice: {
        invoiceId: 'in_TestFirst0001',
        state: 'open',
        amountPaidCents: 0,
        totalExcludingTaxCents: 100_000,
        taxCents: 0,
        currency: 'usd',
      },
      transactionId: 'txn_0001',
      // The period lives on the subscription item (API 2025-03-31.basil and later); the first invoice is no renewal.
      lifecycle: {
        currentPeriodEnd: new Date(1769904001 * 1000).toISOString(),
        cancelAt: null,
        cancellationReason: null,
        // Unpaid: no month's tax is asked of Stripe.
        monthlyTaxCents: 0,
        latestInvoice: {
          invoiceId: 'in_TestFirst0001',
          state: 'open',
          amountDueCents: 100_000,
          amountPaidCents: 0,
          taxCents: 0,
          paymentId: null,
          renewal: false,
          proration: false,
        },
      },
    });
    // The invoice's payments name the PaymentIntent a refund or dispute of a renewal will name.
    expect(stripe.requests[0]?.params.get('expand[0]')).toBe('latest_invoice.payments');
  });

  it.each([
    [
      'flexible mode: the portal sets cancel_at only',
      { cancel_at: 1767225600, cancel_at_period_end: false },
      new Date(1767225600 * 1000).toISOString(),
    ],
    ['cancel_at_period_end: the period’s end', { cancel_at: null, cancel_at_period_end: true }, new Date(1769904001 * 1000).toISOString()],
    ['nothing scheduled', { cancel_at: null, cancel_at_period_end: false }, null],
  ])('reads when a scheduled cancellation ends it (%s)', async (_case, fields: Record<string, unknown>, cancelAt) => {
    stripe.on('GET', '/v1/subscriptions/sub_TestChiro0001', 200, { ...fixture<Record<string, unknown>>('subscription-active'), ...fields });

    const payment = await provider().retrieveSubscriptionPayment('sub_TestChiro0001');

    expect(payment?.lifecycle).toMatchObject({ cancelAt });
  });

  it('reads a paid subscription with the amount paid in cents', async () => {
    stripe.on('GET', '/v1/subscriptions/sub_TestChiro0001', 200, fixture('subscription-active'));

    const payment = await provider().retrieveSubscriptionPayment('sub_TestChiro0001');

    expect(payment).toMatchObject({ state: 'active', firstInvoice: { state: 'paid', amountPaidCents: 100_000, currency: 'usd' } });
  });

  it('maps statuses it does not act on to not_supported, and a subscription without our metadata to a null transactionId', async () => {
    const subscription = fixture<Record<string, unknown> & { latest_invoice: Record<string, unknown> }>('subscription-incomplete');
    subscription.status = 'trialing';
    subscription.metadata = {};
    subscription.latest_invoice.status = 'open_payment_pending';
    stripe.on('GET', '/v1/subscriptions/sub_TestChiro0001', 200, subscription);

    const payment = await provider().retrieveSubscriptionPayment('sub_TestChiro0001');

    expect(payment).toMatchObject({ state: 'not_supported', firstInvoice: { state: 'not_supported' }, transactionId: null });
  });

  it('returns null for a subscription Stripe does not know', async () => {
    stripe.on('GET', '/v1/subscriptions/sub_Missing0001', 404, fixture('error-resource-missing'));

    await expect(provider().retrieveSubscriptionPayment('sub_Missing0001')).resolves.toBeNull();
  });
});

describe('seat changes after the purchase (docs/decisions/0045)', () => {
  const SUBSCRIPTION = '/v1/subscriptions/sub_TestChiro0001';

  it('charges the proration at once as a pending update; a decline voids its invoice and answers payment_declined', async () => {
    stripe
      .on('GET', SUBSCRIPTION, 200, fixture('subscription-active'))
      .on('POST', SUBSCRIPTION, 200, fixture('subscription-pending-update'))
      .on('POST', '/v1/invoices/in_TestProration0001/void', 200, {
        ...fixture<{ latest_invoice: object }>('subscription-pending-update').latest_invoice,
        status: 'void',
      });

    const result = await provider().changeSeats('sub_TestChiro0001', 4, 'txn_0001:seats:a');

    expect(result).toEqual({ ok: false, refusal: 'payment_declined' });
    const [, update, voided] = stripe.requests;
    expect(Object.fromEntries(update!.params)).toEqual({
      'items[0][id]': 'si_TestSeats0001',
      'items[0][quantity]': '4',
      proration_behavior: 'always_invoice',
      payment_behavior: 'pending_if_incomplete',
      'expand[0]': 'latest_invoice',
    });
    expect(voided).toMatchObject({ method: 'POST', path: '/v1/invoices/in_TestProration0001/void' });
  });

  it('answers the paid proration invoice and the update as events for the lifecycle', async () => {
    const active = fixture('subscription-active');
    const paid = {
      ...fixture<{ latest_invoice: object }>('subscription-pending-update').latest_invoice,
      status: 'paid',
      amount_paid: 25_000,
    };
    stripe.on('GET', SUBSCRIPTION, 200, active).on('POST', SUBSCRIPTION, 200, { ...active, latest_invoice: paid, pending_update: null });

    const result = await provider().changeSeats('sub_TestChiro0001', 4, 'txn_0001:seats:b');

    expect(result).toEqual({
      ok: true,
      events: [
        expect.objectContaining({ eventId: 'stripe:in_TestProration0001:paid', kind: 'invoice_paid', transactionId: 'txn_0001' }),
        expect.objectContaining({ eventId: 'stripe:sub_TestChiro0001:updated:txn_0001:seats:b', kind: 'subscription_updated' }),
      ],
    });
  });

  it('previews the change with invoices.createPreview: the total due now, the new monthly total', async () => {
    stripe
      .on('GET', SUBSCRIPTION, 200, fixture('subscription-active'))
      .on('POST', '/v1/invoices/create_preview', 200, fixture('invoice-preview'));

    await expect(provider().previewSeatChange('sub_TestChiro0001', 4)).resolves.toEqual({
      quantity: 4,
      amountDueNowCents: 25_000,
      taxDueNowCents: 0,
      creditCents: 0,
      monthlyTotalCents: 150_000,
      monthlyTaxCents: 0,
      nextChargeDate: new Date(1769904001 * 1000).toISOString(),
      prorationDate: 1_768_000_000,
    });
    expect(Object.fromEntries(stripe.requests[1]!.params)).toEqual({
      customer: 'cus_TestChiro0001',
      subscription: 'sub_TestChiro0001',
      'subscription_details[items][0][id]': 'si_TestSeats0001',
      'subscription_details[items][0][quantity]': '4',
      'subscription_details[proration_behavior]': 'always_invoice',
    });
  });

  it('a taxed subscription: the tax in the charge now, and the new month’s tax from a preview without proration', async () => {
    const taxed = { ...fixture<Record<string, unknown>>('subscription-active'), automatic_tax: { enabled: true, liability: null } };
    const withTax = (total: number, tax: number) => ({
      ...fixture<Record<string, unknown>>('invoice-preview'),
      total: total + tax,
      amount_due: total + tax,
      total_excluding_tax: total,
      total_taxes: [
        { amount: tax, tax_behavior: 'exclusive', taxability_reason: 'standard_rated', taxable_amount: total, type: 'tax_rate_details' },
      ],
    });
    stripe
      .on('GET', SUBSCRIPTION, 200, taxed)
      .on('POST', '/v1/invoices/create_preview', 200, withTax(25_000, 1_178))
      .on('POST', '/v1/invoices/create_preview', 200, withTax(150_000, 7_068));

    await expect(provider().previewSeatChange('sub_TestChiro0001', 4)).resolves.toMatchObject({
      quantity: 4,
      amountDueNowCents: 26_178,
      taxDueNowCents: 1_178,
      creditCents: 0,
      monthlyTotalCents: 150_000,
      monthlyTaxCents: 7_068,
    });
    // A decrease's credit in the customer's balance ($261.78, its $11.78 tax with it) comes off what is charged now:
    // the preview's `amount_due`, and the tax in it (decision 0077).
    stripe
      .on('GET', SUBSCRIPTION, 200, taxed)
      .on('POST', '/v1/invoices/create_preview', 200, { ...withTax(50_000, 2_356), starting_balance: -26_178, amount_due: 26_178 })
      .on('POST', '/v1/invoices/create_preview', 200, withTax(150_000, 7_068));
    await expect(provider().previewSeatChange('sub_TestChiro0001', 4)).resolves.toMatchObject({
      amountDueNowCents: 26_178,
      taxDueNowCents: 1_178,
      creditCents: 0,
    });
    // The second preview is the next month at the new seats: no proration in it.
    expect(Object.fromEntries(stripe.requests[2]!.params)).toEqual({
      customer: 'cus_TestChiro0001',
      subscription: 'sub_TestChiro0001',
      'subscription_details[items][0][id]': 'si_TestSeats0001',
      'subscription_details[items][0][quantity]': '4',
      'subscription_details[proration_behavior]': 'none',
    });
  });

  it('charges a quoted change as quoted (proration_date), after reading Stripe’s time now; an old or future quote changes nothing', async () => {
    const active = fixture('subscription-active');
    const paid = {
      ...fixture<{ latest_invoice: object }>('subscription-pending-update').latest_invoice,
      status: 'paid',
      amount_paid: 25_000,
    };
    const previewAt = (seconds: number) => {
      const preview = fixture<{ parent: { subscription_details: Record<string, unknown> } }>('invoice-preview');
      preview.parent.subscription_details.subscription_proration_date = seconds;
      return preview;
    };
    stripe
      .on('GET', SUBSCRIPTION, 200, active)
      .on('POST', '/v1/invoices/create_preview', 200, previewAt(1_768_000_300))
      .on('GET', SUBSCRIPTION, 200, active)
      .on('POST', SUBSCRIPTION, 200, { ...active, latest_invoice: paid, pending_update: null });

    expect((await provider().changeSeats('sub_TestChiro0001', 4, 'txn_0001:seats:q', 1_768_000_000)).ok).toBe(true);
    expect(stripe.requests.at(-1)!.params.get('proration_date')).toBe('1768000000');

    for (const now of [1_768_000_000 + 15 * 60 + 1, 1_767_999_999]) {
      stripe.reset();
      stripe.on('GET', SUBSCRIPTION, 200, active).on('POST', '/v1/invoices/create_preview', 200, previewAt(now));
      await expect(provider().changeSeats('sub_TestChiro0001', 4, 'txn_0001:seats:r', 1_768_000_000)).resolves.toEqual({
        ok: false,
        refusal: 'quote_expired',
      });
      expect(stripe.requests.map((request) => request.method)).toEqual(['GET', 'POST']);
    }
  });

  it('a decrease previews as a credit for the next invoice; an unknown subscription as nothing', async () => {
    stripe
      .on('GET', SUBSCRIPTION, 200, fixture('subscription-active'))
      .on('POST', '/v1/invoices/create_preview', 200, { ...fixture<object>('invoice-preview'), total: -33_333, amount_due: 0 })
      .on('GET', '/v1/subscriptions/sub_Missing0001', 404, fixture('error-resource-missing'));

    await expect(provider().previewSeatChange('sub_TestChiro0001', 1)).resolves.toMatchObject({
      amountDueNowCents: 0,
      creditCents: 33_333,
      monthlyTotalCents: 50_000,
    });
    await expect(provider().previewSeatChange('sub_Missing0001', 2)).resolves.toBeNull();
  });
});

describe('retrievePaymentBuyer', () => {
  it('reads the billing name and email from the PaymentIntent’s expanded payment method', async () => {
    stripe.on('GET', '/v1/payment_intents/pi_3TestIntent0001', 200, fixture('payment-intent-succeeded'));

    await expect(provider().retrievePaymentBuyer('pi_3TestIntent0001')).resolves.toEqual({ name: 'Jane Doe', email: 'jane@example.com' });

    expect(stripe.requests[0]?.params.get('expand[0]')).toBe('payment_method');
  });

  it('answers nulls for a PaymentIntent without a payment method, and for empty details', async () => {
    const unpaid = { ...fixture('payment-intent-succeeded'), status: 'requires_payment_method', payment_method: null };
    const blank = fixture<{ payment_method: { billing_details: Record<string, unknown> } }>('payment-intent-succeeded');
    blank.payment_method.billing_details = { ...blank.payment_method.billing_details, name: '', email: null };
    stripe.on('GET', '/v1/payment_intents/pi_3TestIntent0001', 200, unpaid).on('GET', '/v1/payment_intents/pi_3TestIntent0001', 200, blank);

    await expect(provider().retrievePaymentBuyer('pi_3TestIntent0001')).resolves.toEqual({ name: null, email: null });
    await expect(provider().retrievePaymentBuyer('pi_3TestIntent0001')).resolves.toEqual({ name: null, email: null });
  });

  it('returns null for a PaymentIntent Stripe does not know', async () => {
    stripe.on('GET', '/v1/payment_intents/pi_Missing0001', 404, fixture('error-resource-missing'));

    await expect(provider().retrievePaymentBuyer('pi_Missing0001')).resolves.toBeNull();
  });
});

describe('updateCustomer', () => {
  it('records the buyer’s email and name with the caller’s idempotency key', async () => {
    stripe.on('POST', '/v1/customers/cus_TestChiro0001', 200, fixture('customer-updated'));

    await provider().updateCustomer('cus_TestChiro0001', { email: 'jane@example.com', name: 'Jane Doe' }, 'txn_0001:customer-details');

    const [request] = stripe.requests;
    expect(Object.fromEntries(request?.params ?? [])).toEqual({ email: 'jane@example.com', name: 'Jane Doe' });
    expect(request?.headers['idempotency-key']).toBe('txn_0001:customer-details');
  });
});

describe('status mapping', () => {
  it.each([
    ['incomplete', 'incomplete'],
    ['active', 'active'],
    ['past_due', 'past_due'],
    ['canceled', 'canceled'],
    // Never paid within 23 hours: over, as a cancelled one is.
    ['incomplete_expired', 'canceled'],
    ['trialing', 'not_supported'],
    ['unpaid', 'unpaid'],
    ['paused', 'paused'],
    ['a_status_from_the_future', 'not_supported'],
  ])('subscription %s → %s', (status, state) => {
    expect(subscriptionStateOf(status)).toBe(state);
  });

  it.each([
    ['draft', 'draft'],
    ['open', 'open'],
    ['paid', 'paid'],
    ['void', 'void'],
    ['uncollectible', 'uncollectible'],
    [null, 'not_supported'],
    ['a_status_from_the_future', 'not_supported'],
  ] as const)('invoice %s → %s', (status, state) => {
    expect(invoiceStateOf(status)).toBe(state);
  });
});

describe('errors', () => {
  const customerInput = {
    transactionId: 'txn_0001',
    affiliateId: 'drsmith',
    affiliateSource: 'https://checkout.example.com/',
    idempotencyKey: 'txn_0001:customer',
  };

  it.each([
    [401, 'error-authentication', 'misconfigured'],
    [400, 'error-idempotency', 'conflict'],
    [400, 'error-invalid-request', 'rejected'],
  ] as const)('maps HTTP %i %s to %s with a message safe for the browser', async (status, body, kind) => {
    stripe.on('POST', '/v1/customers', status, fixture(body));

    const error = await provider()
      .createCustomer(customerInput)
      .catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(StripeProviderError);
    const providerError = error as StripeProviderError;
    expect(providerError.kind).toBe(kind);
    expect(providerError.message).not.toMatch(/sk_|Stripe|No such|Invalid API Key|idempotent/);
    expect(providerError.stripe).toMatchObject({ statusCode: status, requestId: 'req_test_1' });
  });

  it('maps a Stripe outage to unavailable and retryable', async () => {
    stripe.on('POST', '/v1/customers', 500, fixture('error-api'), { 'stripe-should-retry': 'false' });

    const error = (await provider()
      .createCustomer(customerInput)
      .catch((caught: unknown) => caught)) as StripeProviderError;

    expect(error).toMatchObject({
      kind: 'unavailable',
      retryable: true,
      message: 'The payment service is temporarily unavailable. Please try again.',
    });
  });
});

describe('disputes and refunds (docs/decisions/0041, 0042), from recorded Stripe objects', () => {
  const dispute = (changes: Record<string, unknown> = {}) => ({ ...fixture('dispute'), ...changes });
  const disputedIntent = (disputed: boolean) => ({
    ...fixture('payment-intent-succeeded'),
    latest_charge: { ...(fixture('dispute').charge as Record<string, unknown>), disputed },
  });
  /**
   * "List all payments for an invoice" by the PaymentIntent: its invoice, expanded, with `taxCents` of tax in its
   * `total`, of which it charged `amountDue` (less when the customer's credit balance paid the rest).
   */
  const invoicePaymentsOf = (taxCents: number, total = 100_000, amountDue = Math.max(0, total)) => ({
    object: 'list',
    url: '/v1/invoice_payments',
    has_more: false,
    data: [
      {
        id: 'inpay_1TestPayment0001',
        object: 'invoice_payment',
        invoice: {
          id: 'in_1TestInvoice0001',
          object: 'invoice',
          total,
          total_excluding_tax: total - taxCents,
          amount_due: amountDue,
          amount_paid: amountDue,
          total_taxes: taxCents !== 0 ? [{ amount: taxCents, tax_behavior: 'exclusive', taxability_reason: 'standard_rated' }] : [],
        },
        payment: { type: 'payment_intent', payment_intent: 'pi_3TestIntent0001' },
      },
    ],
  });

  it('reads a dispute with its charge: the PaymentIntent, the customer, the amount and the evidence deadline', async () => {
    stripe.on('GET', '/v1/disputes/du_1TestDispute0001', 200, dispute());

    expect(await provider().retrieveDispute('du_1TestDispute0001')).toEqual({
      disputeId: 'du_1TestDispute0001',
      paymentId: 'pi_3TestIntent0001',
      customerId: 'cus_TestChiro0001',
      amountCents: 100_000,
      status: 'needs_response',
      outcome: 'open',
      reason: 'fraudulent',
      evidenceDueBy: new Date(1_767_916_799_000).toISOString(),
    });
    expect(stripe.requests[0]!.params.getAll('expand[0]')).toEqual(['charge']);
  });

  it.each([
    ['warning_needs_response', 'open'],
    ['under_review', 'open'],
    ['won', 'won'],
    ['warning_closed', 'won'],
    ['lost', 'lost'],
  ] as const)('a dispute %s is %s', async (status, outcome) => {
    stripe.on('GET', '/v1/disputes/du_1TestDispute0001', 200, dispute({ status }));
    expect(await provider().retrieveDispute('du_1TestDispute0001')).toMatchObject({ status, outcome });
  });

  it('answers null for a dispute Stripe does not know', async () => {
    stripe.on('GET', '/v1/disputes/du_unknown', 404, fixture('error-resource-missing'));
    expect(await provider().retrieveDispute('du_unknown')).toBeNull();
  });

  it('a disputed charge reads its disputes: a chargeback open or lost holds the payment, a won one does not', async () => {
    for (const [status, refundable, holds] of [
      ['needs_response', false, true],
      ['lost', false, true],
      ['won', false, false],
      ['warning_needs_response', true, false],
    ] as const) {
      stripe
        .on('GET', '/v1/payment_intents/pi_3TestIntent0001', 200, disputedIntent(true))
        .on('GET', '/v1/disputes', 200, {
          object: 'list',
          url: '/v1/disputes',
          has_more: false,
          data: [dispute({ status, is_charge_refundable: refundable, charge: 'ch_3TestCharge0001' })],
        })
        .on('GET', '/v1/invoice_payments', 200, invoicePaymentsOf(0));
      expect(await provider().retrieveRefundedPayment('pi_3TestIntent0001')).toEqual({
        paymentId: 'pi_3TestIntent0001',
        amountCents: 100_000,
        taxCents: 0,
        refundedCents: 0,
        disputeHolds: holds,
      });
      expect(stripe.requests.at(-2)!.params.get('payment_intent')).toBe('pi_3TestIntent0001');
    }
  });

  it('a charge never disputed asks for no disputes', async () => {
    stripe
      .on('GET', '/v1/payment_intents/pi_3TestIntent0001', 200, disputedIntent(false))
      .on('GET', '/v1/invoice_payments', 200, invoicePaymentsOf(0));
    expect(await provider().retrieveRefundedPayment('pi_3TestIntent0001')).toMatchObject({ disputeHolds: false });
    expect(stripe.requests.map((request) => request.path)).toEqual(['/v1/payment_intents/pi_3TestIntent0001', '/v1/invoice_payments']);
  });

  it("reads a refunded payment's tax from its invoice's total_taxes, found by its PaymentIntent (a refund returns its share)", async () => {
    stripe
      .on('GET', '/v1/payment_intents/pi_3TestIntent0001', 200, disputedIntent(false))
      .on('GET', '/v1/invoice_payments', 200, invoicePaymentsOf(4_712));
    expect(await provider().retrieveRefundedPayment('pi_3TestIntent0001')).toMatchObject({ amountCents: 100_000, taxCents: 4_712 });
    const asked = stripe.requests.at(-1)!.params;
    expect(asked.get('payment[type]')).toBe('payment_intent');
    expect(asked.get('payment[payment_intent]')).toBe('pi_3TestIntent0001');
    expect(asked.get('expand[0]')).toBe('data.invoice');
  });

  it.each([
    // $1,570.68 (four seats, $70.68 tax) less a decrease's $523.56 credit, its $23.56 tax with it: $47.12 is left.
    ['a renewal the credit paid in part carries the tax of the part charged', 7_068, 157_068, 104_712, 4_712],
    ['a renewal the credit paid in full carries none', 2_356, 52_356, 0, 0],
    ['a decrease’s credit invoice charged nothing and carries none', -2_356, -52_356, 0, 0],
  ])('%s (decision 0077)', async (_, tax, total, amountDue, expected) => {
    stripe
      .on('GET', '/v1/payment_intents/pi_3TestIntent0001', 200, disputedIntent(false))
      .on('GET', '/v1/invoice_payments', 200, invoicePaymentsOf(tax, total, amountDue));
    expect(await provider().retrieveRefundedPayment('pi_3TestIntent0001')).toMatchObject({ taxCents: expected });
  });

  it('a payment no invoice names has no tax', async () => {
    stripe
      .on('GET', '/v1/payment_intents/pi_3TestIntent0001', 200, disputedIntent(false))
      .on('GET', '/v1/invoice_payments', 200, { object: 'list', url: '/v1/invoice_payments', has_more: false, data: [] });
    expect(await provider().retrieveRefundedPayment('pi_3TestIntent0001')).toMatchObject({ taxCents: 0 });
  });

  it('reads a failed refund’s PaymentIntent from refund.failed and from charge.refund.updated once it failed', () => {
    const failed = fixture('refund-failed');
    const event = (type: string, object: unknown) => ({ id: 'evt_1', object: 'event', type, data: { object } }) as unknown as Stripe.Event;
    expect(readFailedRefund(event('refund.failed', failed))).toEqual({ paymentIntentId: 'pi_3TestIntent0001' });
    expect(readFailedRefund(event('charge.refund.updated', failed))).toEqual({ paymentIntentId: 'pi_3TestIntent0001' });
    expect(readFailedRefund(event('charge.refund.updated', { ...failed, status: 'succeeded' }))).toBeNull();
    expect(readDisputeEvent(event('charge.dispute.created', dispute()))).toEqual({ disputeId: 'du_1TestDispute0001' });
    expect(readDisputeEvent(event('charge.dispute.created', dispute({ id: 'not a dispute' })))).toBeNull();
  });
});
