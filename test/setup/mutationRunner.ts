import { TestRunner } from 'vitest';
type VitestRunnerImportSource = Parameters<TestRunner['importFile']>[1];

/**
 * The test runner of a mutant's run (`npm run bench:mutation`, vitest.mutation.config.ts). A test file that throws
 * while it loads (a model test generating its paths from a chart whose mutated action throws, or XState refusing
 * the chart) is a failed file to vitest but no failed test to Stryker's vitest runner, which counts only tests: the
 * mutant would survive. So a file that cannot load gets one test, 'the test file loads', failing with that error.
 */
export default class MutationRunner extends TestRunner {
  override async importFile(filepath: string, source: VitestRunnerImportSource): Promise<unknown> {
    if (source !== 'collect') return super.importFile(filepath, source);
    try {
      return await super.importFile(filepath, source);
    } catch (error) {
      TestRunner.getCurrentSuite().test('the test file loads', () => {
        throw error;
      });
      return undefined;
    }
  }
}
