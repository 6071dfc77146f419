/**
 * Set-up for tests that render views in jsdom: jest-dom matchers, cleanup between tests, and any
 * unexpected console.error fails the test (style.md: "console.error in a test is a failure unless expected").
 */
import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';

let consoleErrors: unknown[][] = [];

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
