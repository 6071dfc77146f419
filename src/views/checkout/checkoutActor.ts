/**
 * The checkout statechart as a React context: the page creates one actor, its components read the snapshot
 * and send events through it.
 */
import { createActorContext } from '@xstate/react';
import { readPendingPayment, readRecentPurchase } from '../../api/pendingPayment';
import { checkoutMachine, type CheckoutInput } from '../../machines/checkoutMachine';
import { TIMINGS } from '../../machines/checkoutTimings';

/** The page's address; empty when rendered at build time (src/prerender.tsx), where no call is made. */
const pageLocation = (): Pick<Location, 'href' | 'origin'> => globalThis.location ?? { href: '', origin: '' };

/** Milliseconds since the navigation that opened this page (`performance.now()` counts from its start). */
const msSincePageOpened = (): number => globalThis.performance?.now() ?? 0;

export const CheckoutActor = createActorContext(checkoutMachine);

/** The page's machine; tests pass `checkoutMachine.provide({ actors: … })`. */
export type CheckoutLogic = typeof checkoutMachine;

/**
 * The machine's input for this page load (spec §3: affiliate_id, the page's referrer's short label, and
 * affiliate_source; §4: return address), with the
 * payment this browser started and never saw finalized, and its purchase of the last 24 hours
 * (src/api/pendingPayment.ts).
 */
export function checkoutInput(
  affiliateId: string,
  location: Pick<Location, 'href' | 'origin'> = pageLocation(),
  now: number = Date.now(),
): CheckoutInput {
  return {
    affiliateId,
    affiliateSource: location.href,
    returnUrl: `${location.origin}/payment-success`,
    pendingPayment: readPendingPayment(now),
    recentPurchase: readRecentPurchase(now),
    initDelayMs: Math.max(0, TIMINGS.initDelay - msSincePageOpened()),
  };
}
