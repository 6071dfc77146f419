import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../server/app';
import { loadConfig } from '../../../server/config';
import type { Database } from '../../../server/db/client';
import type { PaymentProvider } from '../../../server/payments/provider';
import { createBody, DATABASES, startTestServer, testCipher, type TestServer } from '../helper';

const INDEX_HTML = '<!doctype html><title>Checkout</title><div id="root"></div>';

describe.each(DATABASES)('the app on %s', (kind) => {
  let server: TestServer;
  let distDir: string;
  beforeAll(async () => {
    distDir = await mkdtemp(join(tmpdir(), 'checkout-dist-'));
    await writeFile(join(distDir, 'index.html'), INDEX_HTML);
    await mkdir(join(distDir, 'assets'));
    await writeFile(join(distDir, 'assets', 'app-1234.js'), 'console.log("app")');
    await writeFile(join(distDir, 'assets', 'app-1234.js.map'), '{"version":3}');
    // What the build's compression plugin writes beside each text file.
    await writeFile(join(distDir, 'index.html.br'), brotliCompressSync(INDEX_HTML));
    await writeFile(join(distDir, 'assets', 'app-1234.js.br'), brotliCompressSync('console.log("app")'));
    await writeFile(join(distDir, 'assets', 'app-1234.js.gz'), gzipSync('console.log("app")'));
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
      trainingPlatformUrl: null,
    });
  });

  it('GET /api/config names where people sign in when TRAINING_PLATFORM_URL is set', async () => {
    const withPlatform = await server.derive({ env: { TRAINING_PLATFORM_URL: 'https://academy.example.com/sign-in' } });
    try {
      const response = await withPlatform.app.inject({ method: 'GET', url: '/api/config' });
      expect(response.json()).toMatchObject({ trainingPlatformUrl: 'https://academy.example.com/sign-in' });
    } finally {
      await withPlatform.close();
    }
  });

  it('GET /healthz answers ok after asking the database', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/healthz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it.each(['/payment-success', '/index', '/'])('serves index.html for %s (the SPA draws its routes)', async (url) => {
    const response = await server.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/text\/html/);
    expect(response.body).toBe(INDEX_HTML);
    expect(response.headers['cache-control']).toBe('no-cache');
  });

  it.each(['/some/path', '/payment-success/extra', '/Index'])('answers 404 with the SPA (its 404 page) for %s', async (url) => {
    const response = await server.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/text\/html/);
    expect(response.body).toBe(INDEX_HTML);
  });

  it('sends the brotli or gzip copy the build made when the browser takes it, the file itself otherwise', async () => {
    const get = (url: string, encoding?: string) =>
      server.app.inject({ method: 'GET', url, headers: encoding ? { 'accept-encoding': encoding } : {} });
    const brotli = await get('/assets/app-1234.js', 'gzip, deflate, br');
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(brotli.rawPayload).toString()).toBe('console.log("app")');
    expect(String(brotli.headers.vary)).toMatch(/accept-encoding/i);
    const gzip = await get('/assets/app-1234.js', 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe('console.log("app")');
    const plain = await get('/assets/app-1234.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe('console.log("app")');
    const page = await get('/payment-success', 'br');
    expect(page.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(page.rawPayload).toString()).toBe(INDEX_HTML);
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

  it('sends a Content-Security-Policy with no outside host in sandbox mode, inline styles allowed', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/' });
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(csp).toContain("frame-src 'none'");
    expect(csp).toMatch(/connect-src 'self'(;|$)/);
    expect(csp).not.toContain('stripe');
    expect(csp).toContain("style-src 'self' 'unsafe-inline'");
    expect(csp).toContain("img-src 'self' data:");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('upgrade-insecure-requests');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['permissions-policy']).toContain('camera=()');
    expect(response.headers['permissions-policy']).toContain('payment=()');
  });

  it('never serves a source map, nor the page in place of a missing asset', async () => {
    for (const url of ['/assets/app-1234.js.map', '/assets/missing-0000.js']) {
      const response = await server.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(404);
      expect(response.body).not.toContain('version');
    }
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
      const refused = await limited.post('/api/update-anon-subscription-intent', {});
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual({ error: expect.stringMatching(/Too many requests/) });
      expect((await limited.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    });

    it('limits hand-off redemptions with a wrong key like any other call (401, 401, then 429)', async () => {
      const redeem = () =>
        limited.app.inject({
          method: 'POST',
          url: '/api/handoff/redeem',
          remoteAddress: '192.0.2.44',
          headers: { authorization: 'Bearer wrong-key-wrong-key-wrong-key-wrong', 'content-type': 'application/json' },
          payload: { token: 'x' },
        });
      const statuses = [(await redeem()).statusCode, (await redeem()).statusCode, (await redeem()).statusCode];
      expect(statuses).toEqual([401, 401, 429]);
    });
  });

  describe('behind one proxy (TRUST_PROXY=1) with a rate limit of 2 a minute', () => {
    let proxied: TestServer;
    beforeAll(async () => {
      proxied = await server.derive({ env: { RATE_LIMIT_PER_MINUTE: '2', TRUST_PROXY: '1' } });
    });
    afterAll(() => proxied.close());

    /** A request as the proxy forwards it: what the client wrote, then the address the proxy saw. */
    const viaProxy = (clientWritten: string | null, seenByProxy: string) =>
      proxied.app.inject({
        method: 'GET',
        url: '/api/config',
        remoteAddress: '10.0.0.2',
        headers: { 'x-forwarded-for': clientWritten ? `${clientWritten}, ${seenByProxy}` : seenByProxy },
      });

    it('counts the address the proxy saw, not the one the client wrote, and leaves other buyers alone', async () => {
      const statuses = [];
      for (let i = 0; i < 4; i += 1) statuses.push((await viaProxy(`198.18.0.${i}`, '203.0.113.7')).statusCode);
      expect(statuses).toEqual([200, 200, 429, 429]);
      expect((await viaProxy(null, '198.51.100.9')).statusCode).toBe(200);
    });
  });
});

describe('failures the buyer did not cause', () => {
  const config = loadConfig({ LOG_LEVEL: 'silent' });
  const provider: PaymentProvider = {
    name: 'sandbox',
    createCustomer: async () => ({ customerId: 'cus_sbx_1' }),
    createSubscription: async () => ({
      subscriptionId: 'sub_sbx_1',
      subscriptionItemId: 'si_sbx_1',
      clientSecret: 'pi_sbx_1_secret_1',
      paymentIntentId: 'pi_sbx_1',
      subtotalCents: 50_000,
      taxCents: 0,
    }),
    cancelUnpaidSubscription: async () => 'cancelled',
    retrieveSubscriptionPayment: async () => null,
    retrievePaymentBuyer: async () => null,
    updateCustomer: async () => undefined,
    setCustomerLocation: async () => ({ kind: 'placed', state: null }),
    previewTax: async () => ({ subtotalCents: 50_000, taxCents: 0 }),
    retrieveSubscriptionDetails: async () => null,
    previewSeatChange: async () => null,
    scheduleCancel: async () => ({ ok: false, refusal: 'not_allowed' }),
    endNow: async () => ({ ok: false, refusal: 'not_allowed' }),
    undoCancel: async () => ({ ok: false, refusal: 'not_allowed' }),
    changeSeats: async () => ({ ok: false, refusal: 'not_allowed' }),
    replaceCard: async () => ({ kind: 'not_allowed' }),
    refund: async () => ({ ok: false, refusal: 'not_allowed' }),
    retrieveRefundedPayment: async () => null,
    retrieveDispute: async () => null,
  };
  const brokenDb = {
    execute: () => Promise.reject(new Error('connection refused')),
    insert: () => {
      throw new Error('connection refused');
    },
  } as unknown as Database;

  it('GET /healthz answers 503 when the database does not answer', async () => {
    const app = await buildApp({ config, db: brokenDb, provider, cipher: testCipher() });
    const response = await app.inject({ method: 'GET', url: '/healthz' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ error: expect.any(String) });
    await app.close();
  });

  it('an unexpected error is a 500 with no details', async () => {
    const app = await buildApp({ config, db: brokenDb, provider, cipher: testCipher() });
    const response = await app.inject({
      method: 'POST',
      url: '/api/create-anon-subscription-intent',
      payload: createBody(),
    });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ error: 'Internal server error' });
    await app.close();
  });

  it('still serves the offer page (with the sample referrer) and GET /api/config when the referrers cannot be read', async () => {
    const dist = await mkdtemp(join(tmpdir(), 'checkout-dist-broken-'));
    await writeFile(
      join(dist, 'index.html'),
      '<html><head></head><body><div id="root">For Friends of Dr. __OFFER_REFERRER_NAME__ Only</div></body></html>',
    );
    const app = await buildApp({ config, db: brokenDb, provider, cipher: testCipher(), distDir: dist });
    const page = await app.inject({ method: 'GET', url: '/' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('For Friends of Dr. Sample Only');
    expect((await app.inject({ method: 'GET', url: '/api/config?page=%2F' })).statusCode).toBe(200);
    await app.close();
    await rm(dist, { recursive: true, force: true });
  });

  it('without a built SPA, any unknown path is a 404 { error }', async () => {
    const app = await buildApp({ config, db: brokenDb, provider, cipher: testCipher() });
    const response = await app.inject({ method: 'GET', url: '/payment-success' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: expect.any(String) });
    await app.close();
  });
});
