/**
 * The one place the Stripe SDK client is made: the API version is pinned here and nowhere else
 * (style.md; stripe-samples/accept-a-payment pins it beside `new Stripe`).
 *
 * - `apiVersion`: the version the installed SDK (stripe-node 23.1.0) is generated for. Its types describe that
 *   version only, so the constant is typed as the SDK's `LatestApiVersion`: upgrading the SDK without
 *   revisiting this line fails `npm run typecheck`. Since 2025-03-31.basil an invoice carries
 *   `confirmation_secret` and `payments`, not `payment_intent` (Stripe changelog, "Adds support for multiple
 *   (partial) payments on invoices"); the adapter in stripe.ts relies on that shape.
 * - `maxNetworkRetries: 2`: the SDK retries connection errors, 409 conflicts, 5xx answers and any answer
 *   carrying `Stripe-Should-Retry: true` (lock timeouts, some 429s), with exponential backoff from 0.5 s,
 *   sending the same Idempotency-Key each time (stripe-node RequestSender `_shouldRetry`; Stripe docs,
 *   "Idempotent requests"). Declines and invalid requests are not retried.
 * - `STRIPE_API_BASE`: an optional base URL (`http://127.0.0.1:12111`) split into the SDK's `host`, `port` and
 *   `protocol` options, so the adapter can talk to stripe-mock or a test double instead of api.stripe.com.
 */
import Stripe from 'stripe';

/** The Stripe API version every request is sent with (the `Stripe-Version` header). */
export const STRIPE_API_VERSION: Stripe.LatestApiVersion = '2026-10-28.endive';

/** This application's version, reported to Stripe in the User-Agent; kept equal to package.json by a test. */
export const APP_VERSION = '0.1.0';

/** How this application names itself to Stripe (stripe-node `appInfo`). */
const STRIPE_APP_INFO = { name: 'referral-checkout', version: APP_VERSION } as const;

/** Automatic retries of one request (connection errors, 409, 5xx, `Stripe-Should-Retry: true`). */
export const STRIPE_MAX_NETWORK_RETRIES = 2;

/** Where the SDK sends requests, as its `host`, `port` and `protocol` options. */
interface StripeApiAddress {
  host: string;
  port: number;
  protocol: 'http' | 'https';
}

/**
 * Splits a base URL such as `http://127.0.0.1:12111` into the SDK's address options.
 * The SDK always prefixes `/v1/`, so the URL may not carry a path, query or credentials.
 * @throws Error naming STRIPE_API_BASE when the URL is not a bare http(s) origin.
 */
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
  // URL keeps IPv6 literals in brackets ("[::1]"); Node's http client wants the bare address.
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return { host, port, protocol };
}

/** What the client needs: the secret key and, optionally, another API address (stripe-mock, a test double). */
interface StripeClientOptions {
  secretKey: string;
  apiBase?: string;
}

/**
 * Creates the Stripe SDK client with the pinned API version, our app info, two network retries and, when
 * `apiBase` is given, that address instead of https://api.stripe.com.
 * @throws Error when `secretKey` is empty or `apiBase` is not a bare http(s) origin.
 */
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
