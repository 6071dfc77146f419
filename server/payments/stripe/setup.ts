/**
 * Find-or-create of the Stripe catalogue (stripeCatalogue.ts): the logic behind `npm run stripe:setup`, kept
 * apart from the script so tests can drive it with any Stripe client.
 *
 * Safe to run again and again: the Price is looked up by its lookup key first and the Product by its fixed id,
 * and each is created only when missing. An existing Price is never changed (Stripe Prices are immutable in
 * amount); when it differs from the pricing rule, a warning says so and how to replace it.
 */
import { randomUUID } from 'node:crypto';
import type Stripe from 'stripe';
import { priceCreateParams, priceDifferences, productCreateParams, STRIPE_PRODUCT_ID, STRIPE_TAX_CODE } from './catalogue';
import { isResourceMissing } from './errors';

/** What setup found or made. */
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

/** Finds the Product by its fixed id, or creates it. */
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
 * Makes sure the Product and the monthly graduated Price with `lookupKey` exist.
 * - An active Price with the key: nothing is created; its tiers are checked against the pricing rule.
 * - No active Price: the Product is found or created, then the Price is created. When an archived Price still
 *   holds the key, the new Price takes it over (`transfer_lookup_key`).
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

/** What setup found or made of the webhook endpoint. */
interface WebhookEndpointSetup {
  endpointId: string;
  /** 'created' (its signing secret is in `secret`, shown once), 'updated' (events set), or 'unchanged'. */
  outcome: 'created' | 'updated' | 'unchanged';
  /** The new endpoint's signing secret (`whsec_…`); Stripe returns it only when the endpoint is created. */
  secret: string | null;
  warnings: string[];
}

/**
 * Makes sure a webhook endpoint at `url` receives exactly `events`, built for `apiVersion` (Stripe API reference,
 * "Webhook endpoints": `api_version` can only be set when an endpoint is created).
 * - An endpoint at `url` with that API version: its enabled events are set to `events` when they differ.
 * - None, or only ones with another API version: a new endpoint is created (its secret is returned, once); an
 *   endpoint left on another version is named in a warning, to delete once STRIPE_WEBHOOK_SECRET is switched.
 * @throws the Stripe SDK's errors unchanged (this runs in a terminal, for an operator).
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
 * Makes sure a Customer Portal configuration for the manage page exists (Stripe API reference, "Customer portal
 * configuration"): cancellation at the end of the period with a reason, quantity updates on the monthly Price
 * (the proration invoiced and charged at once, `always_invoice`: docs/decisions/0045) from 1 to `maxSeats` seats (`products[].adjustable_quantity`, the same bounds as the checkout's
 * MAX_SEATS), payment-method updates and invoice history. Found by its metadata; created once, so a configuration
 * made before `adjustable_quantity` was set keeps Stripe's default bounds until it is deactivated in the Dashboard.
 * One made with another proration behaviour is updated to `always_invoice` ('updated').
 * @throws the Stripe SDK's errors unchanged (this runs in a terminal, for an operator).
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
