/**
 * The checkout statechart as a React context: one actor per page load, which its components read the snapshot of
 * and send events through. The whole page as one React tree (src/views/checkout/CheckoutPage.tsx) creates it;
 * the prerendered page's islands (src/mountIslands.tsx), each a React root of its own, share one created outside
 * React (docs/decisions/0027-islands.md).
 */
import { useSelector } from '@xstate/react';
import { createContext, createElement, useContext, type ReactNode } from 'react';
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import { readPendingPayment, readRecentPurchase } from '../../api/pendingPayment';
import { readMaxSeats } from '../../content/checkoutLimits';
import type { checkoutMachine, CheckoutInput } from '../../machines/checkoutMachine';
import { TIMINGS } from '../../machines/checkoutTimings';

/** The page's address; empty when rendered at build time (src/prerender.tsx), where no call is made. */
const pageLocation = (): Pick<Location, 'href' | 'origin'> => globalThis.location ?? { href: '', origin: '' };

/** Milliseconds since the navigation that opened this page (`performance.now()` counts from its start). */
const msSincePageOpened = (): number => globalThis.performance?.now() ?? 0;

/** The page's machine; tests pass `checkoutMachine.provide({ actors: … })`. */
export type CheckoutLogic = typeof checkoutMachine;

type CheckoutActorRef = ActorRefFrom<CheckoutLogic>;
type CheckoutSnapshot = SnapshotFrom<CheckoutLogic>;

const CheckoutActorContext = createContext<CheckoutActorRef | null>(null);

/** The page's checkout actor. @throws Error outside a `CheckoutActor.Provider`. */
function useCheckoutActorRef(): CheckoutActorRef {
  const actor = useContext(CheckoutActorContext);
  if (!actor) throw new Error('A checkout view was rendered outside <CheckoutActor.Provider>');
  return actor;
}

/**
 * The shape of XState's `createActorContext`, fed with an actor that already exists, so that several React roots
 * can share it: `Provider` hands `actor` to the views under it, `useActorRef` returns it, `useSelector` reads its
 * snapshot.
 */
export const CheckoutActor = {
  Provider({ actor, children }: { actor: CheckoutActorRef; children?: ReactNode }) {
    return createElement(CheckoutActorContext.Provider, { value: actor }, children);
  },
  useActorRef: useCheckoutActorRef,
  useSelector<T>(selector: (snapshot: CheckoutSnapshot) => T, compare?: (a: T, b: T) => boolean): T {
    return useSelector(useCheckoutActorRef(), selector, compare);
  },
};

/**
 * The machine's input for this page load (spec §3: affiliate_id, the page's referrer's short label, and
 * affiliate_source; §4: return address), with the
 * payment this browser started and never saw finalized, and its purchase of the last 24 hours
 * (src/api/pendingPayment.ts), and the server's seat limit written into the page.
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
    maxSeats: readMaxSeats(globalThis.document),
  };
}
