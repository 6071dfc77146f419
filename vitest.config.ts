import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

/**
 * Test layers (docs/testing.md): unit (pure logic), views and model (the statecharts driving the real views in
 * jsdom), server (Fastify through inject() on PGlite and PostgreSQL) and e2e (Debian's Chromium against the real
 * server as it ships; needs `npm run build` and `npm run build:server` first, which `npm test` runs).
 */
/**
 * Timeouts sized to measured cost, not to an idle machine: on this 2-core machine with the server suite and
 * three busy processes running beside it, the slowest view test (the first of its file, which pays the page's
 * imports) took 4.5 s, against vitest's 5 s default. Views and unit tests get 30 s.
 */
const UNDER_LOAD_TIMEOUT_MS = 30_000;

/** The five test projects; `vitest.mutation.config.ts` runs three of them. */
export const PROJECTS = [
  {
    extends: true as const,
    test: { name: 'unit', include: ['test/unit/**/*.test.ts'], environment: 'node', testTimeout: UNDER_LOAD_TIMEOUT_MS },
  },
  {
    extends: true as const,
    test: {
      name: 'views',
      include: ['test/views/**/*.test.{ts,tsx}'],
      environment: 'jsdom',
      setupFiles: ['test/setup/dom.ts'],
      testTimeout: UNDER_LOAD_TIMEOUT_MS,
    },
  },
  {
    extends: true as const,
    test: {
      name: 'model',
      include: ['test/model/**/*.test.{ts,tsx}'],
      environment: 'jsdom',
      setupFiles: ['test/setup/dom.ts'],
      testTimeout: 120_000,
    },
  },
  {
    extends: true as const,
    test: {
      name: 'server',
      include: ['test/server/**/*.test.ts'],
      environment: 'node',
      testTimeout: 30_000,
      hookTimeout: 60_000,
    },
  },
  {
    extends: true as const,
    test: {
      name: 'e2e',
      include: ['test/e2e/**/*.test.ts'],
      environment: 'node',
      testTimeout: 90_000,
      hookTimeout: 120_000,
      fileParallelism: false,
    },
  },
];

/**
 * Two files at a time, on every machine: vitest's default (the CPUs less one) is one file at a time on this 2-core
 * machine, while much of a file's time is spent waiting on another process (Chromium, PostgreSQL, a server under
 * test); the timeouts above hold with busy processes beside them. The browser files still run one after another.
 */
const WORKERS = 2;

export default defineConfig({
  plugins: [react()],
  test: { projects: PROJECTS, maxWorkers: WORKERS },
});
