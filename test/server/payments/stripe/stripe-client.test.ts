/**
 * The Stripe SDK client (server/payments/stripe/client.ts): the pinned API version, app info, retries and the
 * STRIPE_API_BASE override, checked on the client and on the wire through a local Stripe double.
 */
import { readFileSync } from 'node:fs';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  APP_VERSION,
  createStripeClient,
  parseStripeApiBase,
  STRIPE_API_VERSION,
  STRIPE_MAX_NETWORK_RETRIES,
} from '../../../../server/payments/stripe/client';
import { fixture, startStripeDouble, TEST_SECRET_KEY, type StripeDouble } from '../../helpers/stripeDouble';

describe('pinned values', () => {
  it('pins the API version the installed SDK is generated for', () => {
    expect(STRIPE_API_VERSION).toBe(Stripe.API_VERSION);
  });

  it('reports the version in package.json', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(APP_VERSION).toBe(pkg.version);
  });
});

describe('parseStripeApiBase', () => {
  it.each([
    ['http://127.0.0.1:12111', { host: '127.0.0.1', port: 12111, protocol: 'http' }],
    ['http://localhost:12111/', { host: 'localhost', port: 12111, protocol: 'http' }],
    ['https://stripe-mock.internal', { host: 'stripe-mock.internal', port: 443, protocol: 'https' }],
    ['http://stripe-mock', { host: 'stripe-mock', port: 80, protocol: 'http' }],
    ['http://[::1]:12111', { host: '::1', port: 12111, protocol: 'http' }],
  ])('reads %s', (apiBase, address) => {
    expect(parseStripeApiBase(apiBase)).toEqual(address);
  });

  it.each([
    ['127.0.0.1:12111', /absolute http\(s\) URL/],
    ['ftp://127.0.0.1:12111', /http or https/],
    ['http://127.0.0.1:12111/v1', /origin only/],
    ['http://user:secret@127.0.0.1:12111', /origin only/],
  ])('refuses %s, naming STRIPE_API_BASE', (apiBase, message) => {
    expect(() => parseStripeApiBase(apiBase)).toThrow(message);
    expect(() => parseStripeApiBase(apiBase)).toThrow(/STRIPE_API_BASE/);
  });
});

describe('createStripeClient', () => {
  it('talks to https://api.stripe.com with the pinned version and two retries by default', () => {
    const client = createStripeClient({ secretKey: TEST_SECRET_KEY });
    expect(client.getApiField('host')).toBe('api.stripe.com');
    expect(String(client.getApiField('port'))).toBe('443');
    expect(client.getApiField('protocol')).toBe('https');
    expect(client.getApiField('version')).toBe(STRIPE_API_VERSION);
    expect(client.getMaxNetworkRetries()).toBe(STRIPE_MAX_NETWORK_RETRIES);
  });

  it('refuses an empty secret key', () => {
    expect(() => createStripeClient({ secretKey: ' ' })).toThrow('A Stripe secret key is required');
  });

  describe('with STRIPE_API_BASE', () => {
    let double: StripeDouble;
    beforeAll(async () => {
      double = await startStripeDouble();
    });
    afterAll(async () => {
      await double.close();
    });

    it('sends its requests to that host and port, with the pinned version and our app info', async () => {
      double.on('GET', '/v1/customers/cus_TestChiro0001', 200, fixture('customer'));
      const client = createStripeClient({ secretKey: TEST_SECRET_KEY, apiBase: double.url });

      const customer = await client.customers.retrieve('cus_TestChiro0001');

      expect(customer.id).toBe('cus_TestChiro0001');
      const [request] = double.requests;
      expect(request?.headers.host).toBe(`127.0.0.1:${double.port}`);
      expect(request?.headers['stripe-version']).toBe(STRIPE_API_VERSION);
      expect(request?.headers['user-agent']).toContain(`referral-checkout/${APP_VERSION}`);
      expect(double.unexpected).toEqual([]);
    });
  });
});
