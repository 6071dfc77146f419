/**
 * Stripe.js, loaded only when the Stripe payment form mounts: `loadStripe` comes from `@stripe/stripe-js/pure`,
 * which inserts the js.stripe.com script on the first call instead of on import (the package README, "Importing
 * loadStripe without side effects"), so a sandbox checkout never loads it. One promise per publishable key is
 * kept for the page's life, as Stripe asks (`loadStripe` once, reuse the Stripe object); a failed load is
 * forgotten so the next mount tries again.
 */
import type { Stripe } from '@stripe/stripe-js';
import { loadStripe } from '@stripe/stripe-js/pure';

const loads = new Map<string, Promise<Stripe | null>>();

/**
 * The Stripe object for `publishableKey` (`pk_test_…` / `pk_live_…`, from GET /api/config).
 * Resolves null only where Stripe.js cannot run (no window). @throws (rejects) when the script cannot load.
 */
export function loadStripeOnce(publishableKey: string): Promise<Stripe | null> {
  let load = loads.get(publishableKey);
  if (!load) {
    load = loadStripe(publishableKey).catch((error: unknown) => {
      loads.delete(publishableKey);
      throw error;
    });
    loads.set(publishableKey, load);
  }
  return load;
}

/** Forgets every load (tests). */
export function resetStripeLoads(): void {
  loads.clear();
}
