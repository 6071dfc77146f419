/**
 * The server's public configuration (GET /api/config), shared by the payment form and the success page's hand-off
 * and kept 5 minutes (spec §9, src/api/reads.ts); a failed fetch, after its retries, is forgotten so the next
 * reader tries again. The checkout statechart starts the fetch when it starts, beside call 1, so the payment form
 * does not wait for it after.
 */
import { fetchPublicConfig } from './checkoutApi';
import { cachedRead, forgetCachedRead } from './reads';
import type { PublicConfig } from '../contract/checkout';

const PUBLIC_CONFIG = 'public-config';

/** The public configuration, from the one request this page makes for it in 5 minutes. */
export function loadPublicConfig(): Promise<PublicConfig> {
  return cachedRead(PUBLIC_CONFIG, () => fetchPublicConfig());
}

/** Starts the one request for the configuration without waiting for it; a failure is left for the reader. */
export function preloadPublicConfig(): void {
  loadPublicConfig().catch(() => undefined);
}

/** Forgets the cached configuration (tests). */
export function resetPublicConfigCache(): void {
  forgetCachedRead(PUBLIC_CONFIG);
}
