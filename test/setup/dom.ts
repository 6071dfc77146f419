/**
 * Set-up for tests that render views in jsdom: jest-dom matchers, cleanup between tests, and any
 * unexpected console.error fails the test (style.md: "console.error in a test is a failure unless expected").
 */
import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { preloadConfetti } from '../../src/views/checkout/LazyConfetti';
import { preloadToasts } from '../../src/views/toasts/lazyToasts';

let consoleErrors: unknown[][] = [];

// jsdom gaps the views touch: react-hot-toast reads prefers-reduced-motion through matchMedia, and the checkout
// scrolls to its form with scrollIntoView.
if (typeof globalThis.matchMedia !== 'function') {
  const matchMedia = (query: string): MediaQueryList =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }) as MediaQueryList;
  globalThis.matchMedia = matchMedia;
  window.matchMedia = matchMedia;
}
if (typeof Element.prototype.scrollIntoView !== 'function') {
  Element.prototype.scrollIntoView = () => undefined;
}
// The page fetches the confetti's code on the first celebration (src/views/checkout/LazyConfetti.tsx) and the
// notifications' with the first toast (src/views/toasts/lazyToasts.tsx); here both are fetched up front, so a test
// sees the confetti and the toast in the same render as the event, as the model asserts.
await Promise.all([preloadConfetti(), preloadToasts()]);

beforeEach(() => {
  consoleErrors = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    consoleErrors.push(args);
  });
  window.sessionStorage.clear();
});

afterEach(() => {
  cleanup();
  const unexpected = consoleErrors;
  vi.mocked(console.error).mockRestore();
  if (unexpected.length > 0) {
    throw new Error(`Unexpected console.error: ${unexpected.map((args) => args.map(String).join(' ')).join('\n')}`);
  }
});
