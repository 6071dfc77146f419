import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../../server/app';
import { loadConfig } from '../../../server/config';
import type { Database } from '../../../server/db/client';
import { createPaymentProvider } from '../../../server/payments/createPaymentProvider';
import { testCipher } from '../helper';

const run = promisify(execFile);

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
  it('is the sandbox without STRIPE_SECRET_KEY', async () => {
    expect((await createPaymentProvider(loadConfig({}), unusedDb)).name).toBe('sandbox');
  });

  it('is Stripe with a key, and /api/config hands the browser the publishable key (no call to Stripe)', async () => {
    const config = loadConfig(stripeEnv);
    const provider = await createPaymentProvider(config, unusedDb);
    expect(provider.name).toBe('stripe');
    const app = await buildApp({ config, db: unusedDb, provider, cipher: testCipher() });
    const response = await app.inject({ method: 'GET', url: '/api/config' });
    expect(response.json()).toMatchObject({ paymentProvider: 'stripe', stripePublishableKey: 'pk_test_456' });
    const sandboxRoute = await app.inject({ method: 'POST', url: '/api/sandbox/payment-intents/confirm', payload: {} });
    expect(sandboxRoute.statusCode).toBe(404);
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toMatch(/script-src 'self' https:\/\/js\.stripe\.com/);
    expect(csp).toMatch(/frame-src 'self' https:\/\/js\.stripe\.com [^;]*https:\/\/hooks\.stripe\.com/);
    expect(csp).toMatch(/connect-src 'self' https:\/\/api\.stripe\.com/);
    expect(response.headers['permissions-policy']).toContain('payment=("https://js.stripe.com")');
    await app.close();
  });

  /** Creates the provider for `env` in a fresh process and says whether any module of the Stripe SDK was resolved. */
  async function loadsStripeSdk(env: Record<string, string>): Promise<boolean> {
    const hooks = `export async function resolve(specifier, context, next) {
      const resolved = await next(specifier, context);
      if (resolved.url.includes('/node_modules/stripe/')) console.error('STRIPE_SDK_RESOLVED');
      return resolved;
    }`;
    const script = [
      "import { register } from 'node:module';",
      `register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hooks)}));`,
      "const { loadConfig } = await import('./server/config.ts');",
      "const { createPaymentProvider } = await import('./server/payments/createPaymentProvider.ts');",
      `const provider = await createPaymentProvider(loadConfig(${JSON.stringify(env)}), {});`,
      'console.log(provider.name);',
    ].join('\n');
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script]);
    expect(stdout.trim()).toBe(env.STRIPE_SECRET_KEY ? 'stripe' : 'sandbox');
    return stderr.includes('STRIPE_SDK_RESOLVED');
  }

  it('loads the Stripe SDK only in Stripe mode', async () => {
    expect(await loadsStripeSdk({})).toBe(false);
    expect(await loadsStripeSdk(stripeEnv)).toBe(true);
  }, 60_000);
});
