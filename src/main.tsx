/**
 * Browser entry, kept tiny: `/` arrives already painted (src/prerender.tsx), so the code that takes it over is
 * imported only after the first frame is on screen: its islands alone (src/mountIslands.tsx) when the server's
 * HTML has them, the whole app (src/mountApp.tsx: its React tree and both statecharts) otherwise. The page's first
 * paint never waits for a bundle to download or run; the spec's 500 ms initialisation counts from navigation start
 * all the same (src/views/checkout/checkoutActor.ts).
 */
requestAnimationFrame(() => {
  // A task queued from inside the frame callback runs once that frame has been painted.
  setTimeout(() => {
    // The islands' marker (src/views/checkout/checkoutIslands.tsx), written only into the prerendered `/`.
    if (window.location.pathname === '/' && document.querySelector('[data-island]')) void import('./mountIslands');
    else void import('./mountApp');
  }, 0);
});
