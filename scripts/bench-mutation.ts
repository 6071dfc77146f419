/**
 * `npm run bench:mutation`: Stryker on the statecharts (docs/testing.md, "Mutation testing").
 *
 * - Without arguments: every file of src/machines/ against the unit, view and model tests (stryker.config.mjs).
 * - `-- --machine team` (or `teamMachine`, `teamMachine.ts`; repeat `--machine` or separate names by commas): only
 *   that machine's file is mutated, and each mutant runs only the unit, view and model test files that import it,
 *   directly or through a view or helper (a static walk of their relative imports). A chart's mutants are static
 *   (the chart is built when its module loads), so Stryker cannot narrow them by coverage; narrowing the files is
 *   what makes one machine's score take minutes instead of every mutant running every file.
 *
 * `--list-tests` prints a machine's test files and stops. Other arguments go to `stryker run` as they are (e.g.
 * `--incremental`). Prints the selection and the time taken;
 * the score is Stryker's report. Exits with Stryker's status; an unknown machine name exits 1 with the list.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const MACHINES_DIR = 'src/machines';
const TEST_DIRS = ['test/unit', 'test/views', 'test/model'];

/** `team`, `teamMachine` or `teamMachine.ts` → `src/machines/teamMachine.ts`; null when there is none. */
function machineFile(name: string): string | null {
  const base = name.replace(/\.ts$/, '').replace(/Machine$/, '');
  for (const candidate of [`${base}Machine.ts`, `${base}.ts`]) {
    const path = join(MACHINES_DIR, candidate);
    if (existsSync(join(ROOT, path))) return path;
  }
  return null;
}

function filesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(join(ROOT, path)).isDirectory() ? filesUnder(path) : [path];
  });
}

/**
 * The repository files `file` imports by a relative path: static imports, vi.mock's targets, and a test's dynamic
 * imports. A page's lazy import of another page (in src/) is left out: that page's chart loads only when a test
 * goes there, and its own tests do.
 */
function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const pattern = file.startsWith('test/')
    ? /(?:from\s+|import\s*\(\s*|import\s+|vi\.mock\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g
    : /(?:from\s+|import\s+)['"](\.{1,2}\/[^'"]+)['"]/g;
  const specifiers = [...text.matchAll(pattern)].map((match) => match[1]!);
  return specifiers.flatMap((specifier) => {
    const target = join(dirname(file), specifier);
    for (const candidate of [target, `${target}.ts`, `${target}.tsx`, join(target, 'index.ts'), join(target, 'index.tsx')]) {
      if (existsSync(join(ROOT, candidate)) && statSync(join(ROOT, candidate)).isFile()) return [relative(ROOT, join(ROOT, candidate))];
    }
    return [];
  });
}

/** The unit, view and model test files whose imports reach `target`, in any number of steps. */
function testsImporting(target: string): string[] {
  const reaches = new Map<string, boolean>();
  const visit = (file: string, trail: Set<string>): boolean => {
    if (file === target) return true;
    const known = reaches.get(file);
    if (known !== undefined) return known;
    if (trail.has(file)) return false;
    trail.add(file);
    const found = importsOf(file).some((each) => visit(each, trail));
    trail.delete(file);
    reaches.set(file, found);
    return found;
  };
  return TEST_DIRS.flatMap(filesUnder)
    .filter((file) => /\.test\.tsx?$/.test(file))
    .filter((file) => visit(file, new Set()))
    .sort();
}

/** The test that builds every chart inside its own test (test/unit/statechartsBuild.test.ts). */
const CHARTS_BUILD_TEST = 'test/unit/statechartsBuild.test.ts';

function main(): number {
  const args = process.argv.slice(2);
  const names: string[] = [];
  const passOn: string[] = [];
  let listOnly = false;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (arg === '--machine') names.push(...(args[++index] ?? '').split(','));
    else if (arg.startsWith('--machine=')) names.push(...arg.slice('--machine='.length).split(','));
    else if (arg === '--list-tests') listOnly = true;
    else passOn.push(arg);
  }
  const started = Date.now();
  let env = process.env;
  if (names.length > 0) {
    const files = names.filter(Boolean).map((name) => ({ name, file: machineFile(name) }));
    const unknown = files.filter((each) => !each.file);
    if (unknown.length > 0 || files.length === 0) {
      const known = readdirSync(join(ROOT, MACHINES_DIR)).filter((file) => file.endsWith('Machine.ts'));
      console.error(
        `No machine named ${unknown.map((each) => `"${each.name}"`).join(', ') || '""'}. The machines: ${known.map((file) => file.replace(/Machine\.ts$/, '')).join(', ')}.`,
      );
      return 1;
    }
    const mutate = files.map((each) => each.file!);
    // The charts' build test imports them through a lazy glob, which the walk does not follow; it is what fails when
    // a mutant makes XState refuse a chart at load (an empty `initial`), so every selection runs it.
    const tests = [...new Set([...mutate.flatMap(testsImporting), CHARTS_BUILD_TEST])].sort();
    if (tests.length === 0) {
      console.error(`No unit, view or model test imports ${mutate.join(', ')}: every mutant would survive.`);
      return 1;
    }
    console.log(`Mutating ${mutate.join(', ')} against ${tests.length} test files:\n  ${tests.join('\n  ')}`);
    if (listOnly) return 0;
    passOn.unshift('--mutate', mutate.join(','));
    if (!passOn.includes('--incrementalFile') && passOn.includes('--incremental')) {
      passOn.push('--incrementalFile', `reports/stryker-incremental-${names.join('-')}.json`);
    }
    const bases = mutate.map((file) => file.replace(/^.*\//, '').replace(/(Machine)?\.ts$/, ''));
    env = { ...process.env, MUTATION_TEST_FILES: tests.join(','), MUTATION_MACHINE: bases.join(',') };
  }
  const run = spawnSync('npx', ['stryker', 'run', ...passOn], { cwd: ROOT, env, stdio: 'inherit' });
  const seconds = Math.round((Date.now() - started) / 1000);
  console.log(`bench:mutation ${names.length ? names.join(', ') : 'all machines'}: ${Math.floor(seconds / 60)} min ${seconds % 60} s`);
  return run.status ?? 1;
}

process.exitCode = main();
