import { describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import type { Database } from '../../server/db/client';
import { createPaymentProvider } from '../../server/payments';

/** Never queried here: choosing a provider and answering /api/config touch no table. */
const unusedDb = {} as Database;

const stripeEnv = {
  LOG_LEVEL: 'silent',
  STRIPE_SECRET_KEY: 'sk_test_123',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_456',
  STRIPE_WEBHOOK_SECRET: 'whsec_789',
  STRIPE_API_BASE: 'http://127.0.0.1:9',
};

describe('choosing the payment provider', () => {
  it('is the sandbox without STRIPE_SECRET_KEY', () => {
    expect(createPaymentProvider(loadConfig({}), unusedDb).name).toBe('sandbox');
  });

  it('is Stripe with a key, and /api/config hands the browser the publishable key (no call to Stripe)', async () => {
    const config = loadConfig(stripeEnv);
    const provider = createPaymentProvider(config, unusedDb);
    expect(provider.name).toBe('stripe');
    const app = await buildApp({ config, db: unusedDb, provider });
    const response = await app.inject({ method: 'GET', url: '/api/config' });
    expect(response.json()).toMatchObject({ paymentProvider: 'stripe', stripePublishableKey: 'pk_test_456' });
    const sandboxRoute = await app.inject({ method: 'POST', url: '/api/sandbox/payment-intents/confirm', payload: {} });
    expect(sandboxRoute.statusCode).toBe(404);
    await app.close();
  });
});
