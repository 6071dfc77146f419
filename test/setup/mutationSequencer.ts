import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * File order for a mutant's run (`npm run bench:mutation`). Stryker runs one file at a time and stops at the
 * first failing test (bail 1), so a mutant is killed sooner when the cheap, targeted files go first: the unit tests
 * (about 0.1 s a file; the charts' build test and the checkout's and success page's own first), then the views, and
 * last the model tests (the checkout's takes about 18 s). Within each layer the files named after the machine of
 * the run go first: they kill most of its mutants. Vitest's default order would run the `model` project first
 * (projects by name, then the longest file first). A surviving mutant still runs every file.
 */
export default class MutationSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return [...files].sort((a, b) => layer(a) - layer(b) || named(a) - named(b) || a.moduleId.localeCompare(b.moduleId));
  }
}

const ORDER: RegExp[] = [
  /test\/unit\/(statechartsBuild|checkoutMachine|paymentSuccessMachine)\.test\.ts$/,
  /test\/unit\//,
  /test\/views\//,
  /test\/model\/paymentSuccess\.model\.test\.tsx$/,
  /test\/model\//,
];

/** The machines of the run (`-- --machine mail`): their own files (named after them) go first in their layer. */
const MACHINES = (process.env.MUTATION_MACHINE ?? '')
  .split(',')
  .filter(Boolean)
  .map((name) => name.toLowerCase());

function layer(file: TestSpecification): number {
  const index = ORDER.findIndex((pattern) => pattern.test(file.moduleId));
  return index === -1 ? ORDER.length : index;
}

function named(file: TestSpecification): number {
  const name = file.moduleId.split('/').pop()!.toLowerCase();
  return MACHINES.some((machine) => name.startsWith(machine)) ? 0 : 1;
}
