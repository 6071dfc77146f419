import { PluginKind, declareClassPlugin } from '@stryker-mutator/api/plugin';

/**
 * A Stryker reporter (`npm run bench:mutation`) that prints each mutant no test detected the moment Stryker has
 * tested it: its line and column, mutator and replacement. A chart's run can take an hour, and its report names
 * the survivors only at the end; with this one, the test that kills a survivor can be written while the run goes on.
 */
class SurvivorReporter {
  /** @param {Readonly<import('@stryker-mutator/api/core').MutantResult>} result */
  onMutantTested(result) {
    if (result.status !== 'Survived' && result.status !== 'NoCoverage') return;
    const { line, column } = result.location.start;
    const replacement = (result.replacement ?? '').replace(/\s+/g, ' ').slice(0, 120);
    console.log(`${result.status} ${result.fileName}:${line}:${column} ${result.mutatorName}: ${replacement}`);
  }
}

export const strykerPlugins = [declareClassPlugin(PluginKind.Reporter, 'survivors', SurvivorReporter)];
