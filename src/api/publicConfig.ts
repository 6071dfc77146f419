/**
 * The server's public configuration (GET /api/config), fetched once per page load and shared by the payment
 * form and the success page's hand-off; a failed fetch is forgotten so the next reader tries again. The checkout
 * statechart starts the fetch when it starts, beside call 1, so the payment form does not wait for it after.
 */
import { fetchPublicConfig } from './checkoutApi';
import type { PublicConfig } from '../contract/checkout';

let cached: Promise<PublicConfig> | null = null;

/** The public configuration, from the one request this page makes for it. */
export function loadPublicConfig(): Promise<PublicConfig> {
  if (!cached) {
    cached = fetchPublicConfig().catch((error: unknown) => {
      cached = null;
      throw error;
    });
  }
  return cached;
}

/** Starts the one request for the configuration without waiting for it; a failure is left for the reader. */
export function preloadPublicConfig(): void {
  loadPublicConfig().catch(() => undefined);
}

/** Forgets the cached configuration (tests). */
export function resetPublicConfigCache(): void {
  cached = null;
}
