/**
 * Server rendering at build time (`npm run build` → scripts/prerender.ts): the same tree src/mountApp.tsx draws,
 * rendered at `/` in its first state (the statechart's `init`, 'Initializing secure checkout...'; the browser
 * hydrates its islands only, src/mountIslands.tsx), the 404 page, the success page's loading state, the sign-in,
 * partner and join pages (`joinAnswer`: the join page's invitation or problem, as placeholders), with the pages' styles. The referrer's name and quote, the testimonials and the guarantee are placeholders the server
 * fills per request (server/referrals/offerPage.ts). Nothing here runs in the browser.
 */
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { prerenderToNodeStream } from 'react-dom/static';
import { ServerStyleSheet } from 'styled-components';
import { Router } from 'wouter';
import { App } from './App';
import { JoinAnswerContext } from './content/joinAnswer';
import { OfferContentContext } from './content/offerContent';
import { OfferReferrerContext } from './content/offerReferrer';
import type { JoinAnswer } from './domain/joinPage';
import { CONTENT_PLACEHOLDERS } from './domain/offerContent';
import { REFERRER_PLACEHOLDERS } from './domain/offerReferrer';
import { GlobalStyle } from './views/GlobalStyle';
import { Island } from './views/checkout/checkoutIslands';

/**
 * The HTML of `path` and the style tags it needs. `waitForChunks`: React's static prerender, which waits for the
 * pages loaded as chunks of their own (the 404 page), so their HTML is complete and the browser hydrates it;
 * otherwise such a page renders as its loading state (the success page's 'Loading payment details...', whose
 * content depends on what this browser stored).
 */
export async function renderPage(
  path: string,
  { waitForChunks, joinAnswer = null }: { waitForChunks: boolean; joinAnswer?: JoinAnswer | null },
): Promise<{ html: string; styles: string }> {
  const sheet = new ServerStyleSheet();
  try {
    const tree = sheet.collectStyles(
      <StrictMode>
        <GlobalStyle />
        <Router ssrPath={path}>
          <OfferReferrerContext.Provider value={REFERRER_PLACEHOLDERS}>
            <OfferContentContext.Provider value={CONTENT_PLACEHOLDERS}>
              <JoinAnswerContext.Provider value={joinAnswer}>
                <App />
              </JoinAnswerContext.Provider>
            </OfferContentContext.Provider>
          </OfferReferrerContext.Provider>
        </Router>
        <Island name="toasts" />
      </StrictMode>,
    );
    if (!waitForChunks) return { html: renderToString(tree), styles: sheet.getStyleTags() };
    // Every boundary inline: React would otherwise move a large one to the end of the HTML, to be put in place by
    // an inline script, which the page's Content-Security-Policy refuses.
    const { prelude } = await prerenderToNodeStream(tree, { progressiveChunkSize: Number.POSITIVE_INFINITY });
    let html = '';
    for await (const chunk of prelude) html += String(chunk);
    return { html, styles: sheet.getStyleTags() };
  } finally {
    sheet.seal();
  }
}
