/**
 * The one place the Stripe client is made, the API version pinned here only (style.md). Typed as the SDK's
 * `LatestApiVersion`, so an SDK upgrade fails `npm run typecheck` until this line is revisited. The SDK retries
 * connection errors, 409, 5xx and `Stripe-Should-Retry` with the same Idempotency-Key (Stripe docs, "Idempotent
 * requests"). `STRIPE_API_BASE` points it at stripe-mock or a test double.
 */
import Stripe from 'stripe';

export const STRIPE_API_VERSION: Stripe.LatestApiVersion = '2026-10-28.endive';

/** Kept equal to package.json by a test. */
export const APP_VERSION = '0.1.0';

const STRIPE_APP_INFO = { name: 'referral-checkout', version: APP_VERSION } as const;

export const STRIPE_MAX_NETWORK_RETRIES = 2;

interface StripeApiAddress {
  host: string;
  port: number;
  protocol: 'http' | 'https';
}

/** The SDK always prefixes `/v1/`. @throws Error naming STRIPE_API_BASE when the URL is not a bare http(s) origin. */
export function parseStripeApiBase(apiBase: string): StripeApiAddress {
  let url: URL;
  try {
    url = new URL(apiBase);
  } catch {
    throw new Error(`STRIPE_API_BASE must be an absolute http(s) URL such as http://127.0.0.1:12111, got "${apiBase}"`);
  }
  const protocol = url.protocol === 'http:' ? 'http' : url.protocol === 'https:' ? 'https' : null;
  if (!protocol) throw new Error(`STRIPE_API_BASE must use http or https, got "${url.protocol}"`);
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash || url.username || url.password) {
    throw new Error('STRIPE_API_BASE must be an origin only (scheme, host and port), without a path, query or credentials');
  }
  const port = url.port ? Number(url.port) : protocol === 'https' ? 443 : 80;
  // Node's http client wants an IPv6 address without brackets.
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return { host, port, protocol };
}

interface StripeClientOptions {
  secretKey: string;
  apiBase?: string;
}

/** @throws Error when `secretKey` is empty or `apiBase` is not a bare http(s) origin. */
export function createStripeClient({ secretKey, apiBase }: StripeClientOptions): Stripe {
  if (secretKey.trim() === '') throw new Error('A Stripe secret key is required');
  return new Stripe(secretKey, {
    apiVersion: STRIPE_API_VERSION,
    appInfo: STRIPE_APP_INFO,
    maxNetworkRetries: STRIPE_MAX_NETWORK_RETRIES,
    typescript: true,
    ...(apiBase ? parseStripeApiBase(apiBase) : {}),
  });
}
