import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { PROJECTS } from './vitest.config';

/**
 * The tests that judge the statecharts, for `npm run bench:mutation` (Stryker): unit, views and model. The server
 * and browser projects do not import src/machines/.
 */
export default defineConfig({
  plugins: [react()],
  test: { projects: PROJECTS.filter((project) => ['unit', 'views', 'model'].includes(project.test.name)) },
});
