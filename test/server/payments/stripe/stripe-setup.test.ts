/**
 * `npm run stripe:setup`: the find-or-create logic (server/payments/stripe/setup.ts) against a local Stripe
 * double, and the script itself run once end to end.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createStripeClient } from '../../../../server/payments/stripe/client';
import { ensurePortalConfiguration, ensureStripeCatalogue, ensureWebhookEndpoint } from '../../../../server/payments/stripe/setup';
import { fixture, startStripeDouble, TEST_SECRET_KEY, type StripeDouble } from '../../helpers/stripeDouble';

const LOOKUP_KEY = 'chiro_ai_training_monthly';
const REPO_ROOT = fileURLToPath(new URL('../../../..', import.meta.url));
let stripe: StripeDouble;

beforeAll(async () => {
  stripe = await startStripeDouble();
});

afterEach(() => {
  const unexpected = [...stripe.unexpected];
  const pending = stripe.pending();
  stripe.reset();
  expect(unexpected).toEqual([]);
  expect(pending).toEqual([]);
});

afterAll(async () => {
  await stripe.close();
});

function client() {
  return createStripeClient({ secretKey: TEST_SECRET_KEY, apiBase: stripe.url });
}

function priceList(prices: unknown[]) {
  return { object: 'list', data: prices, has_more: false, url: '/v1/prices' };
}

function sent() {
  return stripe.requests.map((request) => `${request.method} ${request.path}`);
}

describe('ensureStripeCatalogue', () => {
  it('creates nothing when an active Price has the lookup key', async () => {
    stripe.on('GET', '/v1/prices', 200, priceList([fixture('price-tiered')]));

    const result = await ensureStripeCatalogue(client(), LOOKUP_KEY);

    expect(result).toEqual({
      productId: 'prod_chiro_ai_training',
      priceId: 'price_TestSeatsMonthly',
      createdProduct: false,
      createdPrice: false,
      warnings: [],
    });
    expect(sent()).toEqual(['GET /v1/prices']);
    expect(Object.fromEntries(stripe.requests[0]?.params ?? [])).toEqual({
      'lookup_keys[0]': LOOKUP_KEY,
      'expand[0]': 'data.tiers',
      limit: '10',
    });
  });

  it('warns, and changes nothing, when the existing Price bills differently', async () => {
    const price = fixture<{ tiers: { unit_amount: number }[] }>('price-tiered');
    price.tiers[1] = { ...price.tiers[1], unit_amount: 25_000 };
    stripe.on('GET', '/v1/prices', 200, priceList([price]));

    const result = await ensureStripeCatalogue(client(), LOOKUP_KEY);

    expect(result.createdPrice).toBe(false);
    expect(result.warnings).toEqual([expect.stringMatching(/does not match the pricing rule: tiers are .* Archive it/)]);
    expect(sent()).toEqual(['GET /v1/prices']);
  });

  it('creates the Product and the graduated Price when both are missing', async () => {
    stripe
      .on('GET', '/v1/prices', 200, fixture('price-list-empty'))
      .on('GET', '/v1/products/prod_chiro_ai_training', 404, fixture('error-resource-missing'))
      .on('POST', '/v1/products', 200, fixture('product'))
      .on('POST', '/v1/prices', 200, fixture('price-tiered'));

    const result = await ensureStripeCatalogue(client(), LOOKUP_KEY);

    expect(result).toEqual({
      productId: 'prod_chiro_ai_training',
      priceId: 'price_TestSeatsMonthly',
      createdProduct: true,
      createdPrice: true,
      warnings: [],
    });
    expect(sent()).toEqual(['GET /v1/prices', 'GET /v1/products/prod_chiro_ai_training', 'POST /v1/products', 'POST /v1/prices']);
    const [, , product, price] = stripe.requests;
    expect(Object.fromEntries(product?.params ?? [])).toEqual({
      id: 'prod_chiro_ai_training',
      name: 'AI Training Subscription (Monthly)',
      tax_code: 'txcd_20060045',
      'metadata[product_id]': 'chiro-ai-training-monthly',
    });
    expect(Object.fromEntries(price?.params ?? [])).toMatchObject({
      product: 'prod_chiro_ai_training',
      currency: 'usd',
      tax_behavior: 'exclusive',
      'recurring[interval]': 'month',
      'recurring[usage_type]': 'licensed',
      billing_scheme: 'tiered',
      tiers_mode: 'graduated',
      'tiers[0][up_to]': '1',
      'tiers[0][unit_amount]': '50000',
      'tiers[1][up_to]': '2',
      'tiers[1][unit_amount]': '0',
      'tiers[2][up_to]': 'inf',
      'tiers[2][unit_amount]': '50000',
      lookup_key: LOOKUP_KEY,
      transfer_lookup_key: 'false',
    });
    for (const request of [product, price]) expect(request?.headers['idempotency-key']).toMatch(/^stripe-setup-(product|price)-/);
  });

  it('creates only the Price when the Product exists', async () => {
    stripe
      .on('GET', '/v1/prices', 200, fixture('price-list-empty'))
      .on('GET', '/v1/products/prod_chiro_ai_training', 200, fixture('product'))
      .on('POST', '/v1/prices', 200, fixture('price-tiered'));

    const result = await ensureStripeCatalogue(client(), LOOKUP_KEY);

    expect(result).toMatchObject({ createdProduct: false, createdPrice: true });
    expect(sent()).toEqual(['GET /v1/prices', 'GET /v1/products/prod_chiro_ai_training', 'POST /v1/prices']);
  });

  it('moves the lookup key from an archived Price to the new one', async () => {
    const archived = { ...fixture('price-tiered'), id: 'price_Archived0001', active: false };
    stripe
      .on('GET', '/v1/prices', 200, priceList([archived]))
      .on('GET', '/v1/products/prod_chiro_ai_training', 200, fixture('product'))
      .on('POST', '/v1/prices', 200, fixture('price-tiered'));

    const result = await ensureStripeCatalogue(client(), LOOKUP_KEY);

    expect(stripe.requests[2]?.params.get('transfer_lookup_key')).toBe('true');
    expect(result.warnings).toEqual([
      expect.stringMatching(/Archived Price price_Archived0001 .* moved to the new Price price_TestSeatsMonthly/),
    ]);
  });
});

describe('ensureWebhookEndpoint', () => {
  const url = 'https://checkout.example.com/api/stripe/webhook';
  const events = ['invoice.paid', 'invoice.payment_failed', 'customer.subscription.updated', 'customer.subscription.deleted'];
  const endpoint = (fields: Record<string, unknown>) => ({
    id: 'we_1',
    object: 'webhook_endpoint',
    url,
    api_version: '2026-10-28.endive',
    enabled_events: events,
    status: 'enabled',
    ...fields,
  });
  const list = (data: unknown[]) => ({ object: 'list', data, has_more: false, url: '/v1/webhook_endpoints' });

  it('creates the endpoint with the events and the pinned API version, and returns its secret once', async () => {
    stripe
      .on('GET', '/v1/webhook_endpoints', 200, list([]))
      .on('POST', '/v1/webhook_endpoints', 200, endpoint({ id: 'we_new', secret: 'whsec_new' }));
    const result = await ensureWebhookEndpoint(client(), { url, events, apiVersion: '2026-10-28.endive' });
    expect(result).toEqual({ endpointId: 'we_new', outcome: 'created', secret: 'whsec_new', warnings: [] });
    const create = stripe.requests.find((request) => request.method === 'POST')!;
    expect(create.params.get('url')).toBe(url);
    expect(create.params.get('api_version')).toBe('2026-10-28.endive');
    expect(
      [...create.params.entries()]
        .filter(([key]) => key.startsWith('enabled_events'))
        .map(([, value]) => value)
        .sort(),
    ).toEqual([...events].sort());
  });

  it('updates the events of an endpoint on the pinned version, and leaves a matching one unchanged', async () => {
    stripe
      .on('GET', '/v1/webhook_endpoints', 200, list([endpoint({ enabled_events: ['invoice.paid'] })]))
      .on('POST', '/v1/webhook_endpoints/we_1', 200, endpoint({}));
    expect(await ensureWebhookEndpoint(client(), { url, events, apiVersion: '2026-10-28.endive' })).toMatchObject({
      outcome: 'updated',
      secret: null,
    });
    stripe.on('GET', '/v1/webhook_endpoints', 200, list([endpoint({})]));
    expect(await ensureWebhookEndpoint(client(), { url, events, apiVersion: '2026-10-28.endive' })).toMatchObject({ outcome: 'unchanged' });
  });

  it('creates a new endpoint when the existing one is on another API version, and says to retire it', async () => {
    stripe
      .on('GET', '/v1/webhook_endpoints', 200, list([endpoint({ id: 'we_old', api_version: '2024-06-20' })]))
      .on('POST', '/v1/webhook_endpoints', 200, endpoint({ id: 'we_new', secret: 'whsec_new' }));
    const result = await ensureWebhookEndpoint(client(), { url, events, apiVersion: '2026-10-28.endive' });
    expect(result).toMatchObject({ endpointId: 'we_new', outcome: 'created', secret: 'whsec_new' });
    expect(result.warnings.join(' ')).toMatch(/we_old .* 2024-06-20/);
  });
});

describe('ensurePortalConfiguration', () => {
  const configurations = (data: unknown[]) => ({ object: 'list', data, has_more: false, url: '/v1/billing_portal/configurations' });
  const configuration = (fields: Record<string, unknown>) => ({
    id: 'bpc_1',
    object: 'billing_portal.configuration',
    active: true,
    metadata: {},
    ...fields,
  });

  it('creates the manage page’s configuration: cancel at period end, 1 to MAX_SEATS seats on the Price, card, invoices', async () => {
    stripe
      .on('GET', '/v1/billing_portal/configurations', 200, configurations([configuration({ id: 'bpc_other' })]))
      .on(
        'POST',
        '/v1/billing_portal/configurations',
        200,
        configuration({ id: 'bpc_new', metadata: { referral_checkout: 'manage-page' } }),
      );
    const result = await ensurePortalConfiguration(client(), {
      productId: 'prod_chiro_ai_training',
      priceId: 'price_TestSeatsMonthly',
      maxSeats: 40,
      returnUrl: 'https://checkout.example.com/account',
    });
    expect(result).toEqual({ configurationId: 'bpc_new', outcome: 'created' });
    const params = Object.fromEntries(stripe.requests.find((request) => request.method === 'POST')!.params);
    expect(params).toMatchObject({
      default_return_url: 'https://checkout.example.com/account',
      'features[subscription_cancel][enabled]': 'true',
      'features[subscription_cancel][mode]': 'at_period_end',
      'features[subscription_update][enabled]': 'true',
      'features[subscription_update][default_allowed_updates][0]': 'quantity',
      'features[subscription_update][proration_behavior]': 'always_invoice',
      'features[subscription_update][products][0][product]': 'prod_chiro_ai_training',
      'features[subscription_update][products][0][prices][0]': 'price_TestSeatsMonthly',
      'features[subscription_update][products][0][adjustable_quantity][enabled]': 'true',
      'features[subscription_update][products][0][adjustable_quantity][minimum]': '1',
      'features[subscription_update][products][0][adjustable_quantity][maximum]': '40',
      'features[payment_method_update][enabled]': 'true',
      'features[invoice_history][enabled]': 'true',
      'metadata[referral_checkout]': 'manage-page',
    });
  });

  it('leaves an existing one alone', async () => {
    stripe.on(
      'GET',
      '/v1/billing_portal/configurations',
      200,
      configurations([
        configuration({
          id: 'bpc_ours',
          metadata: { referral_checkout: 'manage-page' },
          features: { subscription_update: { proration_behavior: 'always_invoice' } },
        }),
      ]),
    );
    expect(await ensurePortalConfiguration(client(), { productId: 'prod_1', priceId: 'price_1', maxSeats: 100 })).toEqual({
      configurationId: 'bpc_ours',
      outcome: 'unchanged',
    });
    expect(sent()).toEqual(['GET /v1/billing_portal/configurations']);
  });

  it('moves one made earlier with prorations at the next renewal to seats charged at once', async () => {
    stripe
      .on(
        'GET',
        '/v1/billing_portal/configurations',
        200,
        configurations([
          configuration({
            id: 'bpc_ours',
            metadata: { referral_checkout: 'manage-page' },
            features: { subscription_update: { proration_behavior: 'create_prorations' } },
          }),
        ]),
      )
      .on('POST', '/v1/billing_portal/configurations/bpc_ours', 200, configuration({ id: 'bpc_ours' }));
    expect(await ensurePortalConfiguration(client(), { productId: 'prod_1', priceId: 'price_1', maxSeats: 100 })).toEqual({
      configurationId: 'bpc_ours',
      outcome: 'updated',
    });
    expect(sent()).toEqual(['GET /v1/billing_portal/configurations', 'POST /v1/billing_portal/configurations/bpc_ours']);
    const params = Object.fromEntries(stripe.requests.find((request) => request.method === 'POST')!.params);
    expect(params).toEqual({ 'features[subscription_update][proration_behavior]': 'always_invoice' });
  });
});

describe('npm run stripe:setup', () => {
  it('prints the Product and Price ids', async () => {
    stripe.on('GET', '/v1/prices', 200, priceList([fixture('price-tiered')]));
    stripe.on('GET', '/v1/billing_portal/configurations', 200, {
      object: 'list',
      data: [
        {
          id: 'bpc_ours',
          object: 'billing_portal.configuration',
          active: true,
          metadata: { referral_checkout: 'manage-page' },
          features: { subscription_update: { proration_behavior: 'always_invoice' } },
        },
      ],
      has_more: false,
      url: '/v1/billing_portal/configurations',
    });

    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/stripe-setup.ts'], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH, STRIPE_SECRET_KEY: TEST_SECRET_KEY, STRIPE_API_BASE: stripe.url },
    });

    expect(stdout).toContain('Product: prod_chiro_ai_training');
    expect(stdout).toContain('Price:   price_TestSeatsMonthly (already there), lookup key "chiro_ai_training_monthly"');
    expect(stdout).toContain('Customer portal configuration: bpc_ours (unchanged)');
  });

  it('stops with a message naming a missing STRIPE_SECRET_KEY', async () => {
    const failure = promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/stripe-setup.ts'], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH },
    });

    await expect(failure).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('STRIPE_SECRET_KEY is required') });
  });
});
