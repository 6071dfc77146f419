/**
 * The app, imported by src/main.tsx after the first paint: mounts it with its global style and notification
 * area. `/` arrives already rendered in its first state (src/prerender.tsx at build time) and is hydrated; it is drawn afresh instead when this browser has
 * a payment or a purchase to show first (the page then starts in another state), and on every other route.
 * With `VITE_INSPECT=1` (development) both statecharts stream to the Stately inspector, secrets redacted
 * (src/browser/inspector.ts).
 */
import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import type { InspectionEvent, Observer } from 'xstate';
import { readPendingPayment, readRecentPurchase } from './api/pendingPayment';
import { App } from './App';
import { OfferReferrerContext, readOfferReferrer } from './content/offerReferrer';
import { isPagePath, PAGE_PATHS } from './domain/pagePaths';
import { GlobalStyle } from './views/GlobalStyle';
import { AppToaster } from './views/toasts/AppToaster';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');

/** True when the HTML in #root is what this browser's first render draws, so React can take it over. */
function canHydrate(root: HTMLElement): boolean {
  if (!root.hasChildNodes()) return false;
  // The 404 page is the same for everyone; /payment-success and the console depend on this browser.
  if (!isPagePath(window.location.pathname)) return true;
  if (window.location.pathname !== PAGE_PATHS.checkout) return false;
  const now = Date.now();
  return readPendingPayment(now) === null && readRecentPurchase(now) === null;
}

function mount(inspect?: Observer<InspectionEvent>) {
  const tree = (
    <StrictMode>
      <GlobalStyle />
      <OfferReferrerContext.Provider value={readOfferReferrer(document)}>
        <App checkout={{ inspect }} paymentSuccess={{ inspect }} />
      </OfferReferrerContext.Provider>
      <AppToaster />
    </StrictMode>
  );
  if (canHydrate(container!)) {
    hydrateRoot(container!, tree);
  } else {
    container!.replaceChildren();
    createRoot(container!).render(tree);
  }
}

if (import.meta.env.VITE_INSPECT === '1') {
  void import('./browser/inspector').then(({ startInspector }) => mount(startInspector()));
} else {
  mount();
}
