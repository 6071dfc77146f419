import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import type { Database } from '../../server/db/client';
import type { PaymentProvider } from '../../server/payments/provider';
import { createBody, DATABASES, startTestServer, type TestServer } from './helper';

const INDEX_HTML = '<!doctype html><title>Checkout</title><div id="root"></div>';

describe.each(DATABASES)('the app on %s', (kind) => {
  let server: TestServer;
  let distDir: string;
  beforeAll(async () => {
    distDir = await mkdtemp(join(tmpdir(), 'checkout-dist-'));
    await writeFile(join(distDir, 'index.html'), INDEX_HTML);
    await mkdir(join(distDir, 'assets'));
    await writeFile(join(distDir, 'assets', 'app-1234.js'), 'console.log("app")');
    server = await startTestServer(kind, { distDir });
  });
  afterAll(async () => {
    await server.close();
    await rm(distDir, { recursive: true, force: true });
  });

  it('GET /api/config tells the browser the sandbox is in use and where the success site is', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/api/config' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      paymentProvider: 'sandbox',
      stripePublishableKey: null,
      successSite: { local: 'http://localhost:5174', production: 'https://agreement.example.com' },
    });
  });

  it('GET /healthz answers ok after asking the database', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/healthz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it.each(['/some/path', '/payment-success', '/index', '/'])('serves index.html for %s (the SPA draws its routes)', async (url) => {
    const response = await server.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/text\/html/);
    expect(response.body).toBe(INDEX_HTML);
    expect(response.headers['cache-control']).toBe('no-cache');
  });

  it('serves built files, fingerprinted assets cached for good', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/assets/app-1234.js' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('console.log("app")');
    expect(response.headers['cache-control']).toMatch(/immutable/);
  });

  it.each([
    ['GET', '/api/nope'],
    ['POST', '/api/nope'],
    ['GET', '/api'],
    ['GET', '/api/create-anon-subscription-intent'],
    ['POST', '/some/path'],
  ] as const)('answers 404 { error } for %s %s', async (method, url) => {
    const response = await server.app.inject({ method, url });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: expect.any(String) });
  });

  it('sends a Content-Security-Policy allowing Stripe.js and inline styles', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/' });
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toMatch(/script-src 'self' https:\/\/js\.stripe\.com/);
    expect(csp).toMatch(/frame-src [^;]*https:\/\/js\.stripe\.com/);
    expect(csp).toMatch(/connect-src 'self' https:\/\/api\.stripe\.com/);
    expect(csp).toContain("style-src 'self' 'unsafe-inline'");
    expect(csp).toContain("img-src 'self' data:");
    expect(csp).not.toContain('upgrade-insecure-requests');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  describe('with a rate limit of 2 a minute', () => {
    let limited: TestServer;
    beforeAll(async () => {
      limited = await server.derive({ env: { RATE_LIMIT_PER_MINUTE: '2' } });
    });
    afterAll(() => limited.close());

    it('answers 429 { error } past RATE_LIMIT_PER_MINUTE per IP, and leaves /healthz alone', async () => {
      const statuses = [];
      for (let i = 0; i < 3; i += 1) statuses.push((await limited.app.inject({ method: 'GET', url: '/api/config' })).statusCode);
      expect(statuses).toEqual([200, 200, 429]);
      const refused = await limited.post('/api/create-anon-subscription-intent', createBody());
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual({ error: expect.stringMatching(/Too many requests/) });
      expect((await limited.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    });
  });
});


describe('failures the buyer did not cause', () => {
  const config = loadConfig({ LOG_LEVEL: 'silent' });
  const provider: PaymentProvider = {
    name: 'sandbox',
    createCustomer: async () => ({ customerId: 'cus_sbx_1' }),
    createSubscription: async () => ({ subscriptionId: 'sub_sbx_1', subscriptionItemId: 'si_sbx_1', clientSecret: 'pi_sbx_1_secret_1', paymentIntentId: 'pi_sbx_1' }),
    cancelSubscription: async () => undefined,
    retrieveSubscriptionPayment: async () => null,
    retrievePaymentBuyer: async () => null,
    updateCustomer: async () => undefined,
  };
  const brokenDb = {
    execute: () => Promise.reject(new Error('connection refused')),
    insert: () => {
      throw new Error('connection refused');
    },
  } as unknown as Database;

  it('GET /healthz answers 503 when the database does not answer', async () => {
    const app = await buildApp({ config, db: brokenDb, provider });
    const response = await app.inject({ method: 'GET', url: '/healthz' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ error: expect.any(String) });
    await app.close();
  });

  it('an unexpected error is a 500 with no details', async () => {
    const app = await buildApp({ config, db: brokenDb, provider });
    const response = await app.inject({
      method: 'POST',
      url: '/api/create-anon-subscription-intent',
      payload: createBody(),
    });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ error: 'Internal server error' });
    await app.close();
  });

  it('without a built SPA, any unknown path is a 404 { error }', async () => {
    const app = await buildApp({ config, db: brokenDb, provider });
    const response = await app.inject({ method: 'GET', url: '/payment-success' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: expect.any(String) });
    await app.close();
  });
});
