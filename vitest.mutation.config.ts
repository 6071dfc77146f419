import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { PROJECTS } from './vitest.config';
import MutationSequencer from './test/setup/mutationSequencer';

/**
 * The tests that judge the statecharts, for `npm run bench:mutation` (Stryker): unit, views and model. The server
 * and browser projects do not import src/machines/. The sequencer puts the cheap, targeted files first, since a
 * mutant's run stops at its first failing test.
 */
export default defineConfig({
  plugins: [react()],
  test: {
    projects: PROJECTS.filter((project) => ['unit', 'views', 'model'].includes(project.test.name)),
    sequence: { sequencer: MutationSequencer },
  },
});
