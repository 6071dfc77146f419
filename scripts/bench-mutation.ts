/**
 * `npm run bench:mutation`: Stryker on the statecharts, one machine at a time (docs/testing.md, "Mutation testing";
 * decisions 0056, 0067 and 0078).
 *
 * - Without `--machine`: every file of src/machines/, each in its own Stryker run.
 * - `-- --machine team` (or `teamMachine`, `teamMachine.ts`; repeat `--machine` or separate names by commas): only
 *   those files, each in its own run.
 *
 * Each run mutates one file and runs only the unit, view and model test files that import it, directly or through a
 * view or helper (a static walk of their relative imports), plus the charts' build test. A chart's mutants are
 * static (the chart is built when its module loads), so Stryker cannot narrow them by coverage; narrowing the files
 * is what makes one machine's score take minutes instead of every mutant running every file. A helper the charts
 * share (`actorError.ts`, `toasts.ts`) runs only the test files that import it themselves, when it has any (decision
 * 0078): a lower bound of its score against every page's tests.
 *
 * After the runs, one report: per file its test files, mutants, killed, timed out, survived, without coverage, score
 * and minutes, then the total score (over all files' mutants) and the wall time with the load average at the start
 * and the end. Each file's Stryker report is kept as `reports/mutation/<name>.json`.
 *
 * `--list-tests` prints each file's test files and stops. `--incremental` reuses each file's own earlier results
 * (`reports/stryker-incremental-<name>.json`). Other arguments go to every `stryker run` as they are (e.g.
 * `--concurrency 1`). Exits 0 when every run completed, 1 when a run failed or a name is unknown (with the list).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const MACHINES_DIR = 'src/machines';
const TEST_DIRS = ['test/unit', 'test/views', 'test/model'];
const STRYKER_REPORT = 'reports/mutation/mutation.json';

/** `team`, `teamMachine` or `teamMachine.ts` → `src/machines/teamMachine.ts`; null when there is none. */
function machineFile(name: string): string | null {
  const base = name.replace(/\.ts$/, '').replace(/Machine$/, '');
  for (const candidate of [`${base}Machine.ts`, `${base}.ts`]) {
    const path = join(MACHINES_DIR, candidate);
    if (existsSync(join(ROOT, path))) return path;
  }
  return null;
}

/** `src/machines/teamMachine.ts` → `team`; `src/machines/actorError.ts` → `actorError`. */
function baseName(file: string): string {
  return file.replace(/^.*\//, '').replace(/(Machine)?\.ts$/, '');
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

/** The unit, view and model test files. */
const testFiles = () => TEST_DIRS.flatMap(filesUnder).filter((file) => /\.test\.tsx?$/.test(file));

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
  return testFiles()
    .filter((file) => visit(file, new Set()))
    .sort();
}

/** The test that builds every chart inside its own test (test/unit/statechartsBuild.test.ts). */
const CHARTS_BUILD_TEST = 'test/unit/statechartsBuild.test.ts';

/** The unit, view and model test files that import `target` themselves. */
function testsImportingDirectly(target: string): string[] {
  return testFiles()
    .filter((file) => importsOf(file).includes(target))
    .sort();
}

/** A chart is a `…Machine.ts`; the other files of src/machines/ are helpers the charts share (`actorError.ts`). */
const isHelper = (file: string) => !/Machine\.ts$/.test(file);

/**
 * A file's test selection: the test files whose imports reach it, and the charts' build test. The build test imports
 * every chart through a lazy glob, which the walk does not follow; it is what fails when a mutant makes XState refuse
 * a chart at load (an empty `initial`), so every selection runs it. With only that test, no test reaches the file:
 * the selection is empty (every mutant would survive).
 *
 * A helper with test files of its own (those that import it themselves) is scored against those only (decision
 * 0078): its mutants otherwise ran every page's tests (52 files for `actorError.ts`). A mutant those files kill is
 * killed by the wider selection too, so the score is a lower bound of the wider one.
 */
function testsFor(file: string): { tests: string[]; own: boolean } {
  const own = isHelper(file) ? testsImportingDirectly(file) : [];
  const tests = own.length > 0 ? own : testsImporting(file);
  return { tests: tests.length === 0 ? [] : [...new Set([...tests, CHARTS_BUILD_TEST])].sort(), own: own.length > 0 };
}

/** Stryker's mutant statuses, as its JSON report (mutation-testing-report-schema) spells them. */
type MutantStatus = 'Killed' | 'Survived' | 'NoCoverage' | 'Timeout' | 'CompileError' | 'RuntimeError' | 'Ignored' | 'Pending';

interface Counts {
  mutants: number;
  killed: number;
  timedOut: number;
  survived: number;
  noCoverage: number;
  /** Compile and runtime errors and ignored mutants: not valid, so outside the score (Stryker's rule). */
  invalid: number;
}

interface FileRun {
  file: string;
  tests: number;
  seconds: number;
  /** Stryker's exit status; null when it was not started (no test reaches the file). */
  status: number | null;
  counts: Counts | null;
  /** Stryker was ended by a signal (Ctrl-C, a kill). */
  stopped?: boolean;
}

/** The counts of one Stryker JSON report (reports/mutation/*.json). */
function countsOf(reportPath: string): Counts {
  const report = JSON.parse(readFileSync(reportPath, 'utf8')) as { files: Record<string, { mutants: { status: MutantStatus }[] }> };
  const counts: Counts = { mutants: 0, killed: 0, timedOut: 0, survived: 0, noCoverage: 0, invalid: 0 };
  for (const { mutants } of Object.values(report.files)) {
    for (const { status } of mutants) {
      counts.mutants++;
      if (status === 'Killed') counts.killed++;
      else if (status === 'Timeout') counts.timedOut++;
      else if (status === 'Survived') counts.survived++;
      else if (status === 'NoCoverage') counts.noCoverage++;
      else counts.invalid++;
    }
  }
  return counts;
}

/**
 * Stryker's mutation score in percent: detected (killed or timed out) over valid (detected, survived or without
 * coverage); null when nothing is valid.
 */
function mutationScore(counts: Counts): number | null {
  const detected = counts.killed + counts.timedOut;
  const valid = detected + counts.survived + counts.noCoverage;
  return valid === 0 ? null : (100 * detected) / valid;
}

function sum(runs: FileRun[]): Counts {
  const total: Counts = { mutants: 0, killed: 0, timedOut: 0, survived: 0, noCoverage: 0, invalid: 0 };
  for (const { counts } of runs) {
    if (!counts) continue;
    for (const key of Object.keys(total) as (keyof Counts)[]) total[key] += counts[key];
  }
  return total;
}

const minutes = (seconds: number) => `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, ' ')} s`;
const percent = (score: number | null) => (score === null ? 'n/a' : `${score.toFixed(2)} %`);
const load = () =>
  loadavg()
    .map((each) => each.toFixed(1))
    .join(' ');

/** One Stryker run: `file` mutated against `tests`; its report copied to reports/mutation/<name>.json. */
function runOne(file: string, tests: string[], passOn: string[]): FileRun {
  const name = baseName(file);
  const args = ['stryker', 'run', '--mutate', file, ...passOn];
  if (passOn.includes('--incremental') && !passOn.includes('--incrementalFile')) {
    args.push('--incrementalFile', `reports/stryker-incremental-${name}.json`);
  }
  const env = { ...process.env, MUTATION_TEST_FILES: tests.join(','), MUTATION_MACHINE: name };
  console.log(`\n== ${file}: ${tests.length} test files (load average ${load()})`);
  const started = Date.now();
  const run = spawnSync('npx', args, { cwd: ROOT, env, stdio: 'inherit' });
  const seconds = Math.round((Date.now() - started) / 1000);
  const kept = `reports/mutation/${name}.json`;
  let counts: Counts | null = null;
  if (run.status === 0 && existsSync(join(ROOT, STRYKER_REPORT))) {
    copyFileSync(join(ROOT, STRYKER_REPORT), join(ROOT, kept));
    counts = countsOf(join(ROOT, kept));
  }
  console.log(`== ${file}: ${counts ? percent(mutationScore(counts)) : `Stryker exited ${run.status}`} in ${minutes(seconds)}`);
  return { file, tests: tests.length, seconds, status: run.status ?? 1, counts, stopped: run.signal !== null };
}

function report(runs: FileRun[], wallSeconds: number, loadAtStart: string): void {
  const header = ['file', 'tests', 'mutants', 'killed', 'timed out', 'survived', 'no coverage', 'invalid', 'score', 'time'];
  const rows = runs.map(({ file, tests, seconds, status, counts }) => [
    file.replace(`${MACHINES_DIR}/`, ''),
    String(tests),
    ...(counts
      ? [counts.mutants, counts.killed, counts.timedOut, counts.survived, counts.noCoverage, counts.invalid].map(String)
      : ['-', '-', '-', '-', '-', '-']),
    counts ? percent(mutationScore(counts)) : status === null ? 'no test reaches it' : `failed (${status})`,
    minutes(seconds),
  ]);
  const total = sum(runs);
  const summed = runs.reduce((all, run) => all + run.seconds, 0);
  rows.push([
    'all',
    '',
    ...[total.mutants, total.killed, total.timedOut, total.survived, total.noCoverage, total.invalid].map(String),
    percent(mutationScore(total)),
    minutes(summed),
  ]);
  const widths = header.map((_, column) => Math.max(header[column]!.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) =>
    cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  ');
  console.log(`\n${line(header)}\n${widths.map((width) => '-'.repeat(width)).join('  ')}`);
  for (const row of rows) console.log(line(row));
  console.log(
    `\nbench:mutation: ${runs.length} file${runs.length === 1 ? '' : 's'} in ${minutes(wallSeconds)} wall time (load average ${loadAtStart} at the start, ${load()} at the end)`,
  );
}

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
  const everyFile = readdirSync(join(ROOT, MACHINES_DIR))
    .filter((file) => file.endsWith('.ts'))
    .sort()
    .map((file) => join(MACHINES_DIR, file));
  let files = everyFile;
  if (names.length > 0) {
    const chosen = names.filter(Boolean).map((name) => ({ name, file: machineFile(name) }));
    const unknown = chosen.filter((each) => !each.file);
    if (unknown.length > 0 || chosen.length === 0) {
      console.error(
        `No machine named ${unknown.map((each) => `"${each.name}"`).join(', ') || '""'}. The machines: ${everyFile.map(baseName).join(', ')}.`,
      );
      return 1;
    }
    files = [...new Set(chosen.map((each) => each.file!))];
  }
  const selections = files.map((file) => ({ file, ...testsFor(file) }));
  for (const { file, tests, own } of selections) {
    console.log(
      tests.length === 0
        ? `${file}: no unit, view or model test imports it (every mutant would survive)`
        : `${file} against ${tests.length} test files${own ? ' (its own: a lower bound)' : ''}:\n  ${tests.join('\n  ')}`,
    );
  }
  if (listOnly) return 0;

  const loadAtStart = load();
  const started = Date.now();
  const runs: FileRun[] = [];
  for (const { file, tests } of selections) {
    if (tests.length === 0) {
      runs.push({ file, tests: 0, seconds: 0, status: null, counts: null });
      continue;
    }
    const run = runOne(file, tests, passOn);
    runs.push(run);
    // Stopped (Ctrl-C, a kill): the files left are not started.
    if (run.stopped) break;
  }
  report(runs, Math.round((Date.now() - started) / 1000), loadAtStart);
  return runs.every((run) => run.status === 0) ? 0 : 1;
}

process.exitCode = main();
