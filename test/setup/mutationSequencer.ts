import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * File order for a mutant's run (`npm run bench:mutation`). Stryker runs one file at a time and stops at the
 * first failing test (bail 1), so a mutant is killed sooner when the cheap, targeted files go first: the two
 * statecharts' own unit tests (about 0.1 s), then the other unit tests, the views, and last the model tests (the
 * checkout's takes about 18 s). Vitest's default order would run the `model` project first (projects by name,
 * then the longest file first). A surviving mutant still runs every file.
 */
export default class MutationSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return [...files].sort((a, b) => rank(a) - rank(b) || a.moduleId.localeCompare(b.moduleId));
  }
}

const ORDER: RegExp[] = [
  /test\/unit\/(statechartsBuild|checkoutMachine|paymentSuccessMachine)\.test\.ts$/,
  /test\/unit\//,
  /test\/views\//,
  /test\/model\/paymentSuccess\.model\.test\.tsx$/,
  /test\/model\//,
];

/** For one machine (`-- --machine mail`), its own files (named after it) go first: they kill most of its mutants. */
const MACHINES = (process.env.MUTATION_MACHINE ?? '')
  .split(',')
  .filter(Boolean)
  .map((name) => name.toLowerCase());

function rank(file: TestSpecification): number {
  const name = file.moduleId.split('/').pop()!.toLowerCase();
  if (MACHINES.some((machine) => name.startsWith(machine))) return -1;
  const index = ORDER.findIndex((pattern) => pattern.test(file.moduleId));
  return index === -1 ? ORDER.length : index;
}
