/**
 * `npm run stripe:setup`: creates, once, the Stripe Product and the monthly graduated Price the checkout sells
 * (server/payments/stripeCatalogue.ts), and prints their ids. Running it again changes nothing.
 *
 * Reads STRIPE_SECRET_KEY (required), STRIPE_API_BASE (optional, e.g. stripe-mock at http://127.0.0.1:12111) and
 * STRIPE_PRICE_LOOKUP_KEY (default chiro_ai_training_monthly). Exits with status 1 and a message on failure.
 */
import { z } from 'zod';
import { DEFAULT_PRICE_LOOKUP_KEY } from '../server/payments/stripeCatalogue';
import { createStripeClient } from '../server/payments/stripeClient';
import { ensureStripeCatalogue } from '../server/payments/stripeSetup';

const blankAsMissing = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);

const envSchema = z.object({
  STRIPE_SECRET_KEY: z.string({ message: 'is required' }).startsWith('sk_', 'must start with "sk_"'),
  STRIPE_API_BASE: z.preprocess(blankAsMissing, z.string().optional()),
  STRIPE_PRICE_LOOKUP_KEY: z.preprocess(blankAsMissing, z.string().default(DEFAULT_PRICE_LOOKUP_KEY)),
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
  console.log(`Price:   ${result.priceId}${result.createdPrice ? ' (created)' : ' (already there)'}, lookup key "${env.STRIPE_PRICE_LOOKUP_KEY}"`);
  for (const warning of result.warnings) console.warn(`Warning: ${warning}`);
}

main().catch((error: unknown) => {
  console.error(`stripe:setup failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
