/**
 * Server rendering of the checkout page at build time (`npm run build` → scripts/prerender.ts): the same tree
 * src/mountApp.tsx hydrates, rendered at `/` in its first state (the statechart's `init`, 'Initializing secure
 * checkout...'), with the page's styles. The referrer's name and quote are placeholders the server fills per
 * request (server/referrals/offerPage.ts). Nothing here runs in the browser.
 */
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { ServerStyleSheet } from 'styled-components';
import { Router } from 'wouter';
import { App } from './App';
import { OfferReferrerContext, REFERRER_PLACEHOLDERS } from './content/offerReferrer';
import { GlobalStyle } from './views/GlobalStyle';
import { AppToaster } from './views/toasts/AppToaster';

/** The HTML of `path` and the style tags it needs. */
export function renderPage(path: string): { html: string; styles: string } {
  const sheet = new ServerStyleSheet();
  try {
    const html = renderToString(
      sheet.collectStyles(
        <StrictMode>
          <GlobalStyle />
          <Router ssrPath={path}>
            <OfferReferrerContext.Provider value={REFERRER_PLACEHOLDERS}>
              <App />
            </OfferReferrerContext.Provider>
          </Router>
          <AppToaster />
        </StrictMode>,
      ),
    );
    return { html, styles: sheet.getStyleTags() };
  } finally {
    sheet.seal();
  }
}
