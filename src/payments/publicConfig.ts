/**
 * The server's public configuration (GET /api/config), fetched once per page load and shared by every
 * payment form; a failed fetch is forgotten so the next form tries again.
 */
import { fetchPublicConfig } from '../api/checkoutApi';
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

/** Forgets the cached configuration (tests). */
export function resetPublicConfigCache(): void {
  cached = null;
}
