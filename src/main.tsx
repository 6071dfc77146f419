/**
 * Browser entry, kept tiny: the built pages arrive already painted (scripts/prerender.ts), and request this module
 * only once their first paint is on screen (the pages' inline loader, scripts/prerender.ts, decision 0036), so the first
 * paint never waits for a bundle to download or run. It imports the code that takes the page over: the islands
 * alone (src/mountIslands.tsx) when the server's HTML has them, the whole app (src/mountApp.tsx: its React tree and
 * statecharts) otherwise. The spec's 500 ms initialisation counts from navigation start all the same
 * (src/views/checkout/checkoutActor.ts).
 */
// The islands' marker (src/views/checkout/checkoutIslands.tsx), written only into the prerendered `/`.
if (window.location.pathname === '/' && document.querySelector('[data-island]')) void import('./mountIslands');
else void import('./mountApp');
