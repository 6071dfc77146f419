import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { PROJECTS } from './vitest.config';
import MutationSequencer from './test/setup/mutationSequencer';

/**
 * The tests that judge the statecharts, for `npm run bench:mutation` (Stryker): unit, views and model. The server
 * and browser projects do not import src/machines/. The sequencer puts the cheap, targeted files first, since a
 * mutant's run stops at its first failing test. scripts/bench-mutation.ts runs one file of src/machines/ at a time
 * and names the test files that import it in MUTATION_TEST_FILES; only those run.
 */
const only = process.env.MUTATION_TEST_FILES?.split(',').filter(Boolean);

/**
 * Every test's limit in a mutation run. Mutation runs share this 2-core machine with other runs: at load average
 * 20–25 (2026-11-27) the first test of a checkout view file, which pays the page's imports, took 37 s, past the
 * views' 30 s, and failed Stryker's first (unmutated) run. A mutant that hangs is still stopped by Stryker's own
 * timeout (`timeoutMS` over the dry run's time, stryker.config.mjs).
 */
const MUTATION_TEST_TIMEOUT_MS = 120_000;

export default defineConfig({
  plugins: [react()],
  test: {
    projects: PROJECTS.filter((project) => ['unit', 'views', 'model'].includes(project.test.name))
      .map((project) => ({ ...project, test: { ...project.test, testTimeout: MUTATION_TEST_TIMEOUT_MS } }))
      .map((project) =>
        only
          ? { ...project, test: { ...project.test, include: only.filter((file) => file.startsWith(`test/${project.test.name}/`)) } }
          : project,
      )
      .filter((project) => project.test.include.length > 0),
    sequence: { sequencer: MutationSequencer },
    // A test file that cannot load counts as a failed test (test/setup/mutationRunner.ts).
    runner: './test/setup/mutationRunner.ts',
  },
});
