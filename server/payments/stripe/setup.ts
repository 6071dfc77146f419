/**
 * `npm run stripe:setup`'s find-or-create, apart from the script so tests can drive it with any Stripe client.
 * Safe to rerun; an existing Price is never changed (Stripe Prices are immutable in amount), only warned about.
 */
import { randomUUID } from 'node:crypto';
import type Stripe from 'stripe';
import { priceCreateParams, priceDifferences, productCreateParams, STRIPE_PRODUCT_ID, STRIPE_TAX_CODE } from './catalogue';
import { isResourceMissing } from './errors';

interface CatalogueSetup {
  productId: string;
  priceId: string;
  createdProduct: boolean;
  createdPrice: boolean;
  /** Things an operator should look at; empty when all is as expected. */
  warnings: string[];
}

function idOf(value: string | { id: string }): string {
  return typeof value === 'string' ? value : value.id;
}

async function ensureProduct(stripe: Stripe, warnings: string[]): Promise<{ productId: string; created: boolean }> {
  try {
    const product = await stripe.products.retrieve(STRIPE_PRODUCT_ID);
    if (!product.active) warnings.push(`Product ${product.id} is archived; reactivate it in the Stripe Dashboard before selling.`);
    // A Product made before tax was collected gets the training's tax code (Stripe lets it change).
    if (idOf(product.tax_code ?? '') !== STRIPE_TAX_CODE) {
      await stripe.products.update(product.id, { tax_code: STRIPE_TAX_CODE }, { idempotencyKey: `stripe-setup-tax-code-${randomUUID()}` });
    }
    return { productId: product.id, created: false };
  } catch (error) {
    if (!isResourceMissing(error)) throw error;
  }
  const product = await stripe.products.create(productCreateParams(), { idempotencyKey: `stripe-setup-product-${randomUUID()}` });
  return { productId: product.id, created: true };
}

/**
 * Makes sure the Product and the monthly Price with `lookupKey` exist; a new Price takes the key from an archived one.
 * @throws the Stripe SDK's errors unchanged (this runs in a terminal, for an operator).
 */
export async function ensureStripeCatalogue(stripe: Stripe, lookupKey: string): Promise<CatalogueSetup> {
  const warnings: string[] = [];
  const prices = await stripe.prices.list({ lookup_keys: [lookupKey], expand: ['data.tiers'], limit: 10 });
  const active = prices.data.find((price) => price.active);
  if (active) {
    const differences = priceDifferences(active);
    if (differences.length > 0) {
      warnings.push(
        `Price ${active.id} (lookup key "${lookupKey}") does not match the pricing rule: ${differences.join('; ')}. ` +
          'Archive it in the Stripe Dashboard and run npm run stripe:setup again; the new Price takes over the lookup key.',
      );
    }
    return { productId: idOf(active.product), priceId: active.id, createdProduct: false, createdPrice: false, warnings };
  }

  const archived = prices.data[0];
  const { productId, created: createdProduct } = await ensureProduct(stripe, warnings);
  const price = await stripe.prices.create(priceCreateParams(lookupKey, archived !== undefined), {
    idempotencyKey: `stripe-setup-price-${randomUUID()}`,
  });
  if (archived) warnings.push(`Archived Price ${archived.id} held lookup key "${lookupKey}"; it moved to the new Price ${price.id}.`);
  return { productId, priceId: price.id, createdProduct, createdPrice: true, warnings };
}

interface WebhookEndpointSetup {
  endpointId: string;
  /** 'created' (its signing secret is in `secret`, shown once), 'updated' (events set), or 'unchanged'. */
  outcome: 'created' | 'updated' | 'unchanged';
  /** The new endpoint's signing secret (`whsec_…`); Stripe returns it only when the endpoint is created. */
  secret: string | null;
  warnings: string[];
}

/**
 * Makes sure an endpoint at `url` receives exactly `events` on `apiVersion`, creating one when needed (Stripe API
 * reference, "Webhook endpoints": `api_version` is set only at creation). @throws the Stripe SDK's errors unchanged.
 */
export async function ensureWebhookEndpoint(
  stripe: Stripe,
  { url, events, apiVersion }: { url: string; events: string[]; apiVersion: string },
): Promise<WebhookEndpointSetup> {
  const warnings: string[] = [];
  const existing = (await stripe.webhookEndpoints.list({ limit: 100 })).data.filter((endpoint) => endpoint.url === url);
  const current = existing.find((endpoint) => endpoint.api_version === apiVersion);
  for (const other of existing.filter((endpoint) => endpoint !== current)) {
    warnings.push(
      `Webhook endpoint ${other.id} at ${url} is built for API version ${other.api_version ?? 'the account default'}, not ${apiVersion}: ` +
        'switch STRIPE_WEBHOOK_SECRET to the new endpoint’s secret, then delete it in the Dashboard.',
    );
  }
  if (current) {
    const wanted = [...events].sort();
    const enabled = [...current.enabled_events].sort();
    if (wanted.join(',') === enabled.join(',') && current.status === 'enabled') {
      return { endpointId: current.id, outcome: 'unchanged', secret: null, warnings };
    }
    await stripe.webhookEndpoints.update(current.id, {
      enabled_events: events as Stripe.WebhookEndpointUpdateParams.EnabledEvent[],
      disabled: false,
    });
    return { endpointId: current.id, outcome: 'updated', secret: null, warnings };
  }
  const created = await stripe.webhookEndpoints.create(
    {
      url,
      enabled_events: events as Stripe.WebhookEndpointCreateParams.EnabledEvent[],
      api_version: apiVersion as Stripe.WebhookEndpointCreateParams.ApiVersion,
      description: 'Referral checkout: order completion and cancellation',
    },
    { idempotencyKey: `stripe-setup-webhook-${randomUUID()}` },
  );
  return { endpointId: created.id, outcome: 'created', secret: created.secret ?? null, warnings };
}

/** Seats changed in the portal are invoiced and charged at once, as on the manage page (docs/decisions/0045). */
const SEAT_PRORATION = 'always_invoice';

/** The metadata that marks the Customer Portal configuration this checkout made. */
export const PORTAL_CONFIGURATION_METADATA = { referral_checkout: 'manage-page' } as const;

/**
 * Makes sure the manage page's Customer Portal configuration exists, found by its metadata (Stripe API reference,
 * "Customer portal configuration"); seats prorate with `always_invoice` (docs/decisions/0045).
 * @throws the Stripe SDK's errors unchanged.
 */
export async function ensurePortalConfiguration(
  stripe: Stripe,
  { productId, priceId, maxSeats, returnUrl }: { productId: string; priceId: string; maxSeats: number; returnUrl?: string },
): Promise<{ configurationId: string; outcome: 'created' | 'updated' | 'unchanged' }> {
  const existing = (await stripe.billingPortal.configurations.list({ active: true, limit: 100 })).data.find(
    (configuration) => configuration.metadata?.referral_checkout === PORTAL_CONFIGURATION_METADATA.referral_checkout,
  );
  if (existing && existing.features?.subscription_update?.proration_behavior !== SEAT_PRORATION) {
    await stripe.billingPortal.configurations.update(
      existing.id,
      { features: { subscription_update: { proration_behavior: SEAT_PRORATION } } },
      { idempotencyKey: `stripe-setup-portal-${randomUUID()}` },
    );
    return { configurationId: existing.id, outcome: 'updated' };
  }
  if (existing) return { configurationId: existing.id, outcome: 'unchanged' };
  const created = await stripe.billingPortal.configurations.create(
    {
      business_profile: { headline: 'Manage your AI training subscription' },
      ...(returnUrl ? { default_return_url: returnUrl } : {}),
      features: {
        subscription_cancel: {
          enabled: true,
          mode: 'at_period_end',
          cancellation_reason: { enabled: true, options: ['too_expensive', 'unused', 'other'] },
        },
        subscription_update: {
          enabled: true,
          default_allowed_updates: ['quantity'],
          proration_behavior: SEAT_PRORATION,
          products: [{ product: productId, prices: [priceId], adjustable_quantity: { enabled: true, minimum: 1, maximum: maxSeats } }],
        },
        payment_method_update: { enabled: true },
        invoice_history: { enabled: true },
      },
      metadata: { ...PORTAL_CONFIGURATION_METADATA },
    },
    { idempotencyKey: `stripe-setup-portal-${randomUUID()}` },
  );
  return { configurationId: created.id, outcome: 'created' };
}
