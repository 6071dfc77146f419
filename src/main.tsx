/**
 * Browser entry, kept tiny: `/` arrives already painted (src/prerender.tsx), so the app (src/mountApp.tsx, the
 * React tree and both statecharts) is imported only after the first frame is on screen. The page's first paint
 * never waits for the bundle to download or run; the spec's 500 ms initialisation counts from navigation start
 * all the same (src/views/checkout/checkoutActor.ts).
 */
requestAnimationFrame(() => {
  // A task queued from inside the frame callback runs once that frame has been painted.
  setTimeout(() => void import('./mountApp'), 0);
});
