/** The Stripe SDK is loaded only when STRIPE_SECRET_KEY is set, so the offline sandbox starts without it. */
import { paymentProviderName, type Config } from '../config';
import type { Database } from '../db/client';
import type { PaymentProvider } from './provider';
import { createSandboxProvider } from './sandbox/provider';

/** @throws Error when the Stripe settings cannot make a client (see createStripeProvider). */
export async function createPaymentProvider(config: Config, db: Database): Promise<PaymentProvider> {
  if (paymentProviderName(config) === 'sandbox' || !config.STRIPE_SECRET_KEY) return createSandboxProvider(db, config.SANDBOX_TAX_RATES);
  const { createStripeProvider } = await import('./stripe/provider');
  return createStripeProvider({
    secretKey: config.STRIPE_SECRET_KEY,
    apiBase: config.STRIPE_API_BASE,
    priceLookupKey: config.STRIPE_PRICE_LOOKUP_KEY,
    webhookSecret: config.STRIPE_WEBHOOK_SECRET,
  });
}
