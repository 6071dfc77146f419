/**
 * Mutation testing of the statecharts (`npm run bench:mutation`): scripts/bench-mutation.ts runs Stryker once per
 * file of src/machines/ (`--mutate`), each against the unit, view and model tests that reach it (decision 0067;
 * docs/testing.md lists the survivors judged equivalent). `mutate` below is what a bare `npx stryker run` takes.
 */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts', related: false },
  mutate: ['src/machines/**/*.ts'],
  coverageAnalysis: 'perTest',
  concurrency: 2,
  timeoutMS: 20_000,
  // The first run of every selected test file, unmutated: Stryker's default of 5 minutes ran out for a machine that
  // 40 files import (actorError) at a load average of 18 on this shared 2-core machine.
  dryRunTimeoutMinutes: 30,
  // `survivors` (scripts/support/strykerSurvivors.mjs) prints each undetected mutant as soon as it is tested.
  appendPlugins: ['./scripts/support/strykerSurvivors.mjs'],
  reporters: ['clear-text', 'progress-append-only', 'json', 'survivors'],
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true },
  thresholds: { high: 95, low: 90, break: null },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
