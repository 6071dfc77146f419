/**
 * The app as one React tree, with its global style and notification area: imported by src/main.tsx after the
 * first paint on every route but the prerendered `/` (hydrated island by island: src/mountIslands.tsx), and by
 * that when `/` is to be drawn afresh (a payment to resume, a recent purchase) or moves to the success page. The
 * 404 page arrives rendered (src/prerender.tsx at build time) and is hydrated; every other page is drawn afresh.
 * With `VITE_INSPECT=1` (development) both statecharts stream to the Stately inspector, secrets redacted
 * (src/browser/inspector.ts).
 */
import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import type { InspectionEvent, Observer } from 'xstate';
import { App } from './App';
import { JoinAnswerContext, readJoinAnswer } from './content/joinAnswer';
import { OfferContentContext, readOfferContent } from './content/offerContent';
import { OfferReferrerContext, readOfferReferrer } from './content/offerReferrer';
import { isPagePath, PAGE_PATHS } from './domain/pagePaths';
import { Island } from './views/checkout/checkoutIslands';
import { GlobalStyle } from './views/GlobalStyle';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');

/**
 * True when the HTML in #root is what this browser's first render draws, so React can take it over: the 404 page and the sign-in page,
 * the same for everyone, and the join page, filled in by the server with the answer the page carries. /payment-success and the console depend on this browser; `/` comes here only to be
 * drawn afresh.
 */
function canHydrate(root: HTMLElement): boolean {
  const path = window.location.pathname;
  return root.hasChildNodes() && (!isPagePath(path) || path === PAGE_PATHS.signIn || path === PAGE_PATHS.join);
}

function mount(inspect?: Observer<InspectionEvent>) {
  const tree = (
    <StrictMode>
      <GlobalStyle />
      <OfferReferrerContext.Provider value={readOfferReferrer(document)}>
        <OfferContentContext.Provider value={readOfferContent(document)}>
          <JoinAnswerContext.Provider value={readJoinAnswer(document)}>
            <App checkout={{ inspect }} paymentSuccess={{ inspect }} />
          </JoinAnswerContext.Provider>
        </OfferContentContext.Provider>
      </OfferReferrerContext.Provider>
      <Island name="toasts" />
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
  // A task of its own: the modules' evaluation and the first render are not one long task.
  setTimeout(() => mount(), 0);
}
