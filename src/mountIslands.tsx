/**
 * The prerendered `/` taken over island by island (docs/decisions/0027-islands.md), imported by src/main.tsx after
 * the first paint: each island the server's HTML marks (src/views/checkout/checkoutIslands.tsx) is hydrated as a
 * React root of its own, and the rest of the page (header, hero text, What's Included, guarantee, bonus text,
 * testimonials) stays the server's HTML, never hydrated and never styled again. One checkout actor,
 * created here, is shared by every island; it starts once all of them have taken over their HTML, so each
 * hydrates the statechart's first state, the one the server rendered.
 * A browser with a payment to resume or a recent purchase draws the page afresh instead (src/mountApp.tsx), as
 * the page then starts in another state (decisions 0006, 0007, 0016); so does the move to the success page.
 */
// First: the islands' styled components are numbered as in the renderer (see checkoutIslands.tsx).
import { CHECKOUT_ISLANDS, ISLAND_ATTRIBUTE, type IslandName } from './views/checkout/checkoutIslands';
import { StrictMode, useEffect } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { createActor, type InspectionEvent, type Observer } from 'xstate';
import { readPendingPayment, readRecentPurchase } from './api/pendingPayment';
import { OfferReferrerContext, readOfferReferrer } from './content/offerReferrer';
import { checkoutMachine } from './machines/checkoutMachine';
import { CheckoutActor, checkoutInput } from './views/checkout/checkoutActor';

/** Calls `onHydrated` once its root has taken over the server's HTML (renders nothing). */
function Hydrated({ onHydrated }: { onHydrated: () => void }) {
  useEffect(onHydrated, [onHydrated]);
  return null;
}

/** Hydrates every island of the page, each in a task of its own, with one checkout actor; the actor starts once all are hydrated. */
function hydrateIslands(inspect?: Observer<InspectionEvent>) {
  const referrer = readOfferReferrer(document);
  const actor = createActor(checkoutMachine, { input: checkoutInput(referrer.shortLabel), inspect });
  const names = Object.keys(CHECKOUT_ISLANDS) as IslandName[];
  const waiting = new Set(names);
  const roots: Root[] = [];
  const hydrateIsland = (name: IslandName) => {
    const element = document.querySelector(`[${ISLAND_ATTRIBUTE}="${name}"]`);
    if (!element) throw new Error(`The page has no ${name} island`);
    const Component = CHECKOUT_ISLANDS[name];
    const onHydrated = () => {
      waiting.delete(name);
      if (waiting.size === 0) actor.start();
    };
    roots.push(
      hydrateRoot(
        element,
        <StrictMode>
          <OfferReferrerContext.Provider value={referrer}>
            <CheckoutActor.Provider actor={actor}>
              <Component />
              <Hydrated onHydrated={onHydrated} />
            </CheckoutActor.Provider>
          </OfferReferrerContext.Provider>
        </StrictMode>,
      ),
    );
  };
  // One island per task: the main thread is never held for all of them at once (Total Blocking Time).
  names.forEach((name) => setTimeout(() => hydrateIsland(name), 0));
  // The payment panel moves to /payment-success (src/views/checkout/useCheckoutEvents.ts); no island draws that
  // page, so the whole app takes over from here, as the one tree it is on every other route.
  actor.on('paymentCompleted', () => {
    setTimeout(() => {
      roots.forEach((root) => root.unmount());
      actor.stop();
      void import('./mountApp');
    }, 0);
  });
}

const now = Date.now();
if (readPendingPayment(now) !== null || readRecentPurchase(now) !== null) {
  void import('./mountApp');
} else if (import.meta.env.VITE_INSPECT === '1') {
  void import('./browser/inspector').then(({ startInspector }) => hydrateIslands(startInspector()));
} else {
  hydrateIslands();
}
