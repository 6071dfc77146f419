/**
 * The stateful Stripe double (helpers/statefulStripe.ts) behaves as Stripe does where the adapter depends on it:
 * expansion only when asked, invoices priced from the Price's tiers, idempotency keys that keep successful answers
 * only, unknown parameters refused, incomplete_expired, requires_action, flexible-mode cancel_at, refunds, events,
 * and Stripe Tax: each line's exclusive tax where the business is registered, a credit's tax into the balance.
 * Driven through stripe-node itself, so the requests are the SDK's.
 */
import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStripeClient } from '../../../../server/payments/stripe/client';
import { DEFAULT_PRICE_LOOKUP_KEY, STRIPE_PRODUCT_ID } from '../../../../server/payments/stripe/catalogue';
import { startStatefulStripe, type StatefulStripe } from '../../helpers/statefulStripe';
import { TEST_SECRET_KEY } from '../../helpers/stripeDouble';

let stripe: StatefulStripe;
let client: Stripe;
let priceId: string;
let key = 0;
const nextKey = () => `double-test-${++key}`;

beforeAll(async () => {
  stripe = await startStatefulStripe({ maxSeats: 25 });
  client = createStripeClient({ secretKey: TEST_SECRET_KEY, apiBase: stripe.url });
  priceId = (await client.prices.list({ lookup_keys: [DEFAULT_PRICE_LOOKUP_KEY], active: true, limit: 1 })).data[0]!.id;
});
afterAll(() => stripe.close());

async function subscribe(quantity: number, price = priceId, expand: string[] = []) {
  const customer = await client.customers.create({ metadata: { transactionId: 'txn_double' } }, { idempotencyKey: nextKey() });
  return client.subscriptions.create(
    {
      customer: customer.id,
      items: [{ price, quantity }],
      payment_behavior: 'default_incomplete',
      payment_settings: { save_default_payment_method: 'on_subscription' },
      metadata: { transactionId: 'txn_double' },
      expand,
    },
    { idempotencyKey: nextKey() },
  );
}
const secretOf = (subscription: Stripe.Subscription) => stripe.intentOf(subscription.id)!.client_secret;

describe('expansion', () => {
  it('answers ids and leaves includable fields out unless expand[] asks for them', async () => {
    const plain = await subscribe(1);
    expect(plain.latest_invoice).toEqual(expect.stringMatching(/^in_/));

    const invoiceOnly = await client.subscriptions.retrieve(plain.id, { expand: ['latest_invoice'] });
    const invoice = invoiceOnly.latest_invoice as Stripe.Invoice;
    expect(invoice.id).toBe(plain.latest_invoice);
    expect(invoice).not.toHaveProperty('confirmation_secret');
    expect(invoice).not.toHaveProperty('payments');

    const withSecret = await client.subscriptions.retrieve(plain.id, { expand: ['latest_invoice.confirmation_secret'] });
    expect((withSecret.latest_invoice as Stripe.Invoice).confirmation_secret?.client_secret).toBe(secretOf(plain));
    expect(withSecret.latest_invoice).not.toHaveProperty('payments');

    expect(stripe.pay(secretOf(plain))).toBe(true);
    const intentId = stripe.intentOf(plain.id)!.id;
    expect((await client.paymentIntents.retrieve(intentId)).payment_method).toEqual(expect.stringMatching(/^pm_/));
    const expanded = await client.paymentIntents.retrieve(intentId, { expand: ['payment_method'] });
    expect((expanded.payment_method as Stripe.PaymentMethod).billing_details.name).toBe('Jane Doe');
  });

  it('refuses to expand a field that cannot be expanded', async () => {
    const subscription = await subscribe(1);
    await expect(client.subscriptions.retrieve(subscription.id, { expand: ['customer.nonsense'] })).rejects.toMatchObject({
      type: 'StripeInvalidRequestError',
      param: 'expand',
    });
  });

  it('lists a Price’s tiers only when data.tiers is expanded', async () => {
    const plain = await client.prices.list({ lookup_keys: [DEFAULT_PRICE_LOOKUP_KEY] });
    expect(plain.data[0]).not.toHaveProperty('tiers');
    const withTiers = await client.prices.list({ lookup_keys: [DEFAULT_PRICE_LOOKUP_KEY], expand: ['data.tiers'] });
    expect(withTiers.data[0]?.tiers?.at(-1)).toMatchObject({ up_to: null });
  });
});

describe('prices', () => {
  it.each([
    [1, 50_000],
    [2, 50_000],
    [3, 100_000],
    [10, 450_000],
  ])('prices the first invoice of %i seats from the setup’s graduated tiers: %i cents', async (quantity, cents) => {
    const subscription = await subscribe(quantity, priceId, ['latest_invoice']);
    expect((subscription.latest_invoice as Stripe.Invoice).amount_due).toBe(cents);
  });

  it('prices from the Price the subscription names, not from the checkout’s pricing rule', async () => {
    const price = await client.prices.create(
      {
        product: STRIPE_PRODUCT_ID,
        currency: 'usd',
        recurring: { interval: 'month', usage_type: 'licensed' },
        billing_scheme: 'tiered',
        tiers_mode: 'graduated',
        tiers: [
          { up_to: 1, unit_amount: 1_000 },
          { up_to: 'inf', unit_amount: 300 },
        ],
      },
      { idempotencyKey: nextKey() },
    );
    const subscription = await subscribe(3, price.id, ['latest_invoice']);
    expect((subscription.latest_invoice as Stripe.Invoice).amount_due).toBe(1_600);
  });
});

describe('idempotency and parameters', () => {
  it('does not keep a refused request under its key; refuses the key with other parameters after a success', async () => {
    const refused = { customer: 'cus_missing', items: [{ price: priceId, quantity: 1 }] };
    await expect(client.subscriptions.create(refused, { idempotencyKey: 'k-refused-first' })).rejects.toMatchObject({ statusCode: 404 });
    const customer = await client.customers.create({}, { idempotencyKey: nextKey() });
    const created = await client.subscriptions.create(
      { customer: customer.id, items: [{ price: priceId, quantity: 1 }] },
      { idempotencyKey: 'k-refused-first' },
    );
    expect(created.status).toBe('incomplete');
    const replay = await client.subscriptions.create(
      { customer: customer.id, items: [{ price: priceId, quantity: 1 }] },
      { idempotencyKey: 'k-refused-first' },
    );
    expect(replay.id).toBe(created.id);
    await expect(
      client.subscriptions.create(
        { customer: customer.id, items: [{ price: priceId, quantity: 2 }] },
        { idempotencyKey: 'k-refused-first' },
      ),
    ).rejects.toMatchObject({ type: 'StripeIdempotencyError' });
  });

  it('refuses a parameter the endpoint does not take, naming it', async () => {
    await expect(
      client.customers.create({ metadata: { transactionId: 't' }, description: 'not sent by the app' }, { idempotencyKey: nextKey() }),
    ).rejects.toMatchObject({ type: 'StripeInvalidRequestError', code: 'parameter_unknown', param: 'description' });
  });
});

describe('the subscription’s life', () => {
  it('expires an incomplete subscription after 23 hours and voids its first invoice', async () => {
    const subscription = await subscribe(1);
    stripe.advanceClock(22 * 60 * 60);
    expect((await client.subscriptions.retrieve(subscription.id)).status).toBe('incomplete');
    stripe.advanceClock(60 * 60);
    expect((await client.subscriptions.retrieve(subscription.id)).status).toBe('incomplete_expired');
    expect(stripe.invoiceOf(subscription.id)?.status).toBe('void');
    expect(stripe.pay(secretOf(subscription))).toBe(false);
  });

  it('leaves a payment that asks for 3-D Secure in requires_action until the buyer authenticates', async () => {
    const subscription = await subscribe(1);
    expect(stripe.pay(secretOf(subscription), undefined, { authentication: true })).toBe(true);
    const intentId = stripe.intentOf(subscription.id)!.id;
    expect((await client.paymentIntents.retrieve(intentId)).status).toBe('requires_action');
    expect((await client.subscriptions.retrieve(subscription.id)).status).toBe('incomplete');
    expect(stripe.authenticate(secretOf(subscription))).toBe(true);
    expect((await client.paymentIntents.retrieve(intentId)).status).toBe('succeeded');
    expect((await client.subscriptions.retrieve(subscription.id)).status).toBe('active');
  });

  it('records automatic tax as asked', async () => {
    const customer = await client.customers.create({}, { idempotencyKey: nextKey() });
    const subscription = await client.subscriptions.create(
      { customer: customer.id, items: [{ price: priceId, quantity: 1 }], automatic_tax: { enabled: false } },
      { idempotencyKey: nextKey() },
    );
    expect(subscription.automatic_tax.enabled).toBe(false);
  });

  it('a portal cancellation in flexible billing mode sets cancel_at to the period end, not cancel_at_period_end', async () => {
    const subscription = await subscribe(1);
    stripe.pay(secretOf(subscription));
    stripe.portalCancel(subscription.id);
    const now = await client.subscriptions.retrieve(subscription.id);
    expect(now.billing_mode.type).toBe('flexible');
    expect(now.cancel_at_period_end).toBe(false);
    expect(now.cancel_at).toBe(now.items.data[0]!.current_period_end);
    expect(stripe.lastEvent('customer.subscription.updated')).toMatchObject({
      data: { object: { id: subscription.id, cancel_at: now.cancel_at }, previous_attributes: { cancel_at: null } },
    });
  });

  it('refunds a payment up to what is left of it, and reports charge.refunded', async () => {
    const subscription = await subscribe(3);
    stripe.pay(secretOf(subscription));
    const paymentIntent = stripe.intentOf(subscription.id)!.id;
    const partial = await client.refunds.create({ payment_intent: paymentIntent, amount: 40_000 }, { idempotencyKey: nextKey() });
    expect(partial).toMatchObject({ amount: 40_000, status: 'succeeded' });
    await expect(
      client.refunds.create({ payment_intent: paymentIntent, amount: 60_001 }, { idempotencyKey: nextKey() }),
    ).rejects.toMatchObject({
      type: 'StripeInvalidRequestError',
      param: 'amount',
    });
    const rest = await client.refunds.create({ charge: partial.charge as string }, { idempotencyKey: nextKey() });
    expect(rest.amount).toBe(60_000);
    expect(stripe.lastEvent('charge.refunded')).toMatchObject({ data: { object: { amount_refunded: 100_000, refunded: true } } });
    await expect(client.refunds.create({ payment_intent: paymentIntent }, { idempotencyKey: nextKey() })).rejects.toMatchObject({
      code: 'charge_already_refunded',
    });
  });

  it('charges a renewal to the subscription’s default payment method before the customer’s', async () => {
    const subscription = await subscribe(1);
    stripe.pay(secretOf(subscription));
    const firstCard = stripe.subscription(subscription.id)!.default_payment_method!;
    stripe.portalUpdateCard(subscription.customer as string);
    stripe.declineFromNow(firstCard);
    const renewal = stripe.renew(subscription.id);
    expect(renewal.status).toBe('open');
    expect(stripe.subscription(subscription.id)?.status).toBe('past_due');
  });
});

/** A customer placed at `postalCode` (validated, as the checkout's location step does) with a taxed subscription. */
async function subscribeTaxed(quantity: number, postalCode: string, automaticTax = true) {
  const customer = await client.customers.create({ metadata: { transactionId: 'txn_taxed' } }, { idempotencyKey: nextKey() });
  await client.customers.update(
    customer.id,
    { address: { country: 'US', postal_code: postalCode }, tax: { validate_location: 'immediately' } },
    { idempotencyKey: nextKey() },
  );
  return client.subscriptions.create(
    {
      customer: customer.id,
      items: [{ price: priceId, quantity }],
      payment_behavior: 'default_incomplete',
      payment_settings: { save_default_payment_method: 'on_subscription' },
      automatic_tax: { enabled: automaticTax },
      metadata: { transactionId: 'txn_taxed' },
      expand: ['latest_invoice'],
    },
    { idempotencyKey: nextKey() },
  );
}
const taxOf = (invoice: Stripe.Invoice) => (invoice.total_taxes ?? []).reduce((sum, tax) => sum + tax.amount, 0);
const MONTH = 30 * 24 * 60 * 60;

describe('Stripe Tax', () => {
  it.each([
    ['Honolulu', '96813', 1, 50_000, 2_356, 'standard_rated'],
    ['Honolulu', '96813', 3, 100_000, 4_712, 'standard_rated'],
    ['Phoenix (registered, rate 0)', '85001', 1, 50_000, 0, 'not_subject_to_tax'],
    ['New York (not registered)', '10001', 3, 100_000, 0, 'not_collecting'],
  ])('taxes a first invoice in %s (%s), %i seats: %i cents and %i tax', async (_, zip, quantity, subtotal, tax, reason) => {
    const subscription = await subscribeTaxed(quantity, zip);
    const invoice = subscription.latest_invoice as Stripe.Invoice;
    expect(invoice).toMatchObject({ total_excluding_tax: subtotal, subtotal, total: subtotal + tax, amount_due: subtotal + tax });
    expect(invoice.total_taxes).toEqual([
      expect.objectContaining({ amount: tax, tax_behavior: 'exclusive', taxability_reason: reason, taxable_amount: subtotal }),
    ]);
    expect(invoice.automatic_tax).toMatchObject({ enabled: true, status: 'complete' });
    expect(stripe.pay(secretOf(subscription))).toBe(true);
    expect(stripe.intentOf(subscription.id)).toMatchObject({ amount_received: subtotal + tax });
  });

  it('taxes nothing without automatic tax, wherever the customer is', async () => {
    const subscription = await subscribeTaxed(3, '96813', false);
    const invoice = subscription.latest_invoice as Stripe.Invoice;
    expect(invoice).toMatchObject({ total: 100_000, total_excluding_tax: 100_000, amount_due: 100_000, total_taxes: [] });
  });

  it('refuses an address it cannot place when asked to validate it, and saves nothing', async () => {
    const customer = await client.customers.create({}, { idempotencyKey: nextKey() });
    await expect(
      client.customers.update(
        customer.id,
        { address: { country: 'US', postal_code: '00123' }, tax: { validate_location: 'immediately' } },
        { idempotencyKey: nextKey() },
      ),
    ).rejects.toMatchObject({ type: 'StripeInvalidRequestError', code: 'customer_tax_location_invalid' });
    expect(stripe.customer(customer.id)?.address).toBeNull();
    const placed = await client.customers.update(
      customer.id,
      { address: { country: 'US', postal_code: '96813' }, tax: { validate_location: 'immediately' }, expand: ['tax'] },
      { idempotencyKey: nextKey() },
    );
    expect(placed.tax).toMatchObject({ automatic_tax: 'supported', location: { country: 'US', state: 'HI' } });
  });

  it('previews a new subscription’s tax for a placed customer', async () => {
    const customer = await client.customers.create({}, { idempotencyKey: nextKey() });
    await client.customers.update(customer.id, { address: { country: 'US', postal_code: '96701' } }, { idempotencyKey: nextKey() });
    const preview = await client.invoices.createPreview({
      customer: customer.id,
      automatic_tax: { enabled: true },
      subscription_details: { items: [{ price: priceId, quantity: 3 }] },
    });
    expect(preview).toMatchObject({ total_excluding_tax: 100_000, total: 104_712 });
    expect(taxOf(preview)).toBe(4_712);
  });

  it('taxes each proration line on its own, rounded half up, in the preview and the invoice charged', async () => {
    const subscription = await subscribeTaxed(1, '96813');
    stripe.pay(secretOf(subscription));
    const item = subscription.items.data[0]!;
    // A third of the month left: +3 seats' 33 333, −1 seat's 16 667 (cents); taxes 1 570.65 → 1 571 and
    // −785.35 → −785, 786 in all (the net 16 666 alone would be taxed 785).
    const prorationDate = item.current_period_start + (2 * MONTH) / 3;
    const preview = await client.invoices.createPreview({
      customer: subscription.customer as string,
      subscription: subscription.id,
      subscription_details: { items: [{ id: item.id, quantity: 3 }], proration_behavior: 'always_invoice', proration_date: prorationDate },
    });
    expect(preview).toMatchObject({ total_excluding_tax: 16_666, total: 17_452 });
    expect(taxOf(preview)).toBe(786);
    const updated = await client.subscriptions.update(
      subscription.id,
      {
        items: [{ id: item.id, quantity: 3 }],
        proration_behavior: 'always_invoice',
        proration_date: prorationDate,
        expand: ['latest_invoice'],
      },
      { idempotencyKey: nextKey() },
    );
    const invoice = updated.latest_invoice as Stripe.Invoice;
    expect(invoice).toMatchObject({ billing_reason: 'subscription_update', status: 'paid', total: 17_452, amount_paid: 17_452 });
    expect(taxOf(invoice)).toBe(786);
  });

  it('puts a decrease’s credit into the balance with its tax, and takes it off the next renewal after tax', async () => {
    const subscription = await subscribeTaxed(4, '96813');
    stripe.pay(secretOf(subscription));
    const item = subscription.items.data[0]!;
    // The whole month left: +3 seats' 100 000 and −4 seats' 150 000, taxed 4 712 and −7 068.
    const updated = await client.subscriptions.update(
      subscription.id,
      {
        items: [{ id: item.id, quantity: 3 }],
        proration_behavior: 'always_invoice',
        proration_date: item.current_period_start,
        expand: ['latest_invoice'],
      },
      { idempotencyKey: nextKey() },
    );
    const credit = updated.latest_invoice as Stripe.Invoice;
    expect(credit).toMatchObject({ total_excluding_tax: -50_000, total: -52_356, amount_due: 0, amount_paid: 0, ending_balance: -52_356 });
    expect(taxOf(credit)).toBe(-2_356);
    expect(stripe.customer(subscription.customer as string)?.balance).toBe(-52_356);
    const upcoming = await client.invoices.createPreview({ customer: subscription.customer as string, subscription: subscription.id });
    expect(upcoming).toMatchObject({ total: 104_712, starting_balance: -52_356, amount_due: 52_356 });

    const renewal = stripe.renew(subscription.id);
    const renewed = await client.invoices.retrieve(renewal.id);
    expect(renewed).toMatchObject({
      status: 'paid',
      total: 104_712,
      starting_balance: -52_356,
      ending_balance: 0,
      amount_due: 52_356,
      amount_paid: 52_356,
    });
    expect(taxOf(renewed)).toBe(4_712);
  });

  it('charges the rates of the registrations it is given', async () => {
    const other = await startStatefulStripe({ taxRegistrations: [{ state: 'HI', rateMillionths: 40_000 }] });
    try {
      const otherClient = createStripeClient({ secretKey: TEST_SECRET_KEY, apiBase: other.url });
      const otherPrice = (await otherClient.prices.list({ lookup_keys: [DEFAULT_PRICE_LOOKUP_KEY], active: true, limit: 1 })).data[0]!.id;
      const previewAt = async (postalCode: string) => {
        const customer = await otherClient.customers.create({}, { idempotencyKey: nextKey() });
        await otherClient.customers.update(
          customer.id,
          { address: { country: 'US', postal_code: postalCode } },
          { idempotencyKey: nextKey() },
        );
        return otherClient.invoices.createPreview({
          customer: customer.id,
          automatic_tax: { enabled: true },
          subscription_details: { items: [{ price: otherPrice, quantity: 1 }] },
        });
      };
      expect(taxOf(await previewAt('96813'))).toBe(2_000);
      expect((await previewAt('85001')).total_taxes).toEqual([expect.objectContaining({ amount: 0, taxability_reason: 'not_collecting' })]);
    } finally {
      await other.close();
    }
  });
});

it('starts with the setup’s portal configuration: quantity from 1 to MAX_SEATS on the monthly Price', () => {
  const [configuration] = stripe.portalConfigurations() as Array<{ features: { subscription_update: { products: unknown[] } } }>;
  expect(configuration?.features.subscription_update.products).toEqual([
    { product: STRIPE_PRODUCT_ID, prices: [priceId], adjustable_quantity: { enabled: 'true', minimum: '1', maximum: '25' } },
  ]);
});
