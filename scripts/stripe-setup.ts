/**
 * `npm run stripe:setup`: creates, once, the Stripe Product and the monthly graduated Price the checkout sells
 * (server/payments/stripe/catalogue.ts), the Customer Portal configuration the manage page links into, and, when
 * PUBLIC_URL is set, the webhook endpoint at
 * `${PUBLIC_URL}/api/stripe/webhook` with the handled events and the pinned API version; prints their ids and a new
 * endpoint's signing secret, once. Running it again changes nothing.
 *
 * Reads STRIPE_SECRET_KEY (required), STRIPE_API_BASE (optional, e.g. stripe-mock at http://127.0.0.1:12111) and
 * STRIPE_PRICE_LOOKUP_KEY (default chiro_ai_training_monthly) and MAX_SEATS (default 100, as the server: the most
 * seats the portal lets a buyer choose). Exits with status 1 and a message on failure.
 */
import { z } from 'zod';
import { DEFAULT_PRICE_LOOKUP_KEY } from '../server/payments/stripe/catalogue';
import { createStripeClient, STRIPE_API_VERSION } from '../server/payments/stripe/client';
import { ensurePortalConfiguration, ensureStripeCatalogue, ensureWebhookEndpoint } from '../server/payments/stripe/setup';
import { STRIPE_WEBHOOK_EVENTS } from '../server/payments/stripe/webhook';

const blankAsMissing = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);

const envSchema = z.object({
  STRIPE_SECRET_KEY: z.string({ message: 'is required' }).startsWith('sk_', 'must start with "sk_"'),
  STRIPE_API_BASE: z.preprocess(blankAsMissing, z.string().optional()),
  STRIPE_PRICE_LOOKUP_KEY: z.preprocess(blankAsMissing, z.string().default(DEFAULT_PRICE_LOOKUP_KEY)),
  MAX_SEATS: z.preprocess(blankAsMissing, z.coerce.number().int().min(1).max(10_000).default(100)),
  PUBLIC_URL: z.preprocess(blankAsMissing, z.url({ protocol: /^https?$/, message: 'must be an absolute http(s) URL' }).optional()),
});

async function main(): Promise<void> {
  const parsed = envSchema.safeParse(process.env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`);
    throw new Error(`Invalid environment:\n  ${problems.join('\n  ')}`);
  }
  const env = parsed.data;
  const stripe = createStripeClient({ secretKey: env.STRIPE_SECRET_KEY, apiBase: env.STRIPE_API_BASE });
  const mode = env.STRIPE_SECRET_KEY.startsWith('sk_live_') ? 'LIVE' : 'test';
  console.log(`Stripe setup (${mode} mode${env.STRIPE_API_BASE ? `, API at ${env.STRIPE_API_BASE}` : ''})`);

  const result = await ensureStripeCatalogue(stripe, env.STRIPE_PRICE_LOOKUP_KEY);
  console.log(`Product: ${result.productId}${result.createdProduct ? ' (created)' : ''}`);
  console.log(
    `Price:   ${result.priceId}${result.createdPrice ? ' (created)' : ' (already there)'}, lookup key "${env.STRIPE_PRICE_LOOKUP_KEY}"`,
  );
  for (const warning of result.warnings) console.warn(`Warning: ${warning}`);
  const portal = await ensurePortalConfiguration(stripe, {
    productId: result.productId,
    priceId: result.priceId,
    maxSeats: env.MAX_SEATS,
    ...(env.PUBLIC_URL ? { returnUrl: `${env.PUBLIC_URL.replace(/\/+$/, '')}/account` } : {}),
  });
  console.log(`Customer portal configuration: ${portal.configurationId} (${portal.outcome})`);

  if (!env.PUBLIC_URL) {
    console.log('Webhook endpoint: skipped (set PUBLIC_URL to the address Stripe should call, then run this again)');
    return;
  }
  const url = `${env.PUBLIC_URL.replace(/\/+$/, '')}/api/stripe/webhook`;
  const endpoint = await ensureWebhookEndpoint(stripe, { url, events: STRIPE_WEBHOOK_EVENTS, apiVersion: STRIPE_API_VERSION });
  console.log(`Webhook: ${endpoint.endpointId} (${endpoint.outcome}) at ${url}, API version ${STRIPE_API_VERSION}`);
  if (endpoint.secret) console.log(`Webhook signing secret (shown once; set STRIPE_WEBHOOK_SECRET to it): ${endpoint.secret}`);
  for (const warning of endpoint.warnings) console.warn(`Warning: ${warning}`);
}

main().catch((error: unknown) => {
  console.error(`stripe:setup failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
