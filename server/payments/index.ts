/**
 * Chooses this process's payment provider (architecture.md, "Payment providers"): the offline sandbox unless
 * STRIPE_SECRET_KEY is set, then Stripe.
 */
import { paymentProviderName, type Config } from '../config';
import type { Database } from '../db/client';
import type { PaymentProvider } from './provider';
import { createSandboxProvider } from './sandbox';

/**
 * The provider the configuration selects; the sandbox keeps its records in `db`.
 * @throws Error 'Stripe provider not available' while the Stripe adapter (server/payments/stripe.ts) is not wired.
 */
export function createPaymentProvider(config: Config, db: Database): PaymentProvider {
  if (paymentProviderName(config) === 'sandbox') return createSandboxProvider(db);
  throw new Error('Stripe provider not available: STRIPE_SECRET_KEY is set but server/payments/stripe.ts is not wired yet');
}
