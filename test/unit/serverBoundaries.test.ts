/**
 * The server's boundaries, read from the source of every .ts file under server/: what it may import
 * from the browser's code, no import cycle, the sandbox kept behind the provider interface, and SQL kept out of
 * the routes. Imports are read with TypeScript's own pre-processor, so
 * `import type`, `export … from` and `import()` all count.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SERVER_DIR = join(REPO_ROOT, 'server');
const SRC_DIR = join(REPO_ROOT, 'src');

/** The folders of src/ the server may import: the calls' shapes and the rules both sides share. */
const SHARED_WITH_SERVER = ['contract', 'domain'];

/** A server file: its repo-relative path, the repo-relative paths its relative imports resolve to, and its text. */
interface ServerFile {
  path: string;
  imports: string[];
  /** Bare package imports (`drizzle-orm`, `fastify`). */
  packages: string[];
  source: string;
}

/** `specifier` (relative) from `fromFile` as a file that exists (`.ts`, `.tsx`, `/index.ts`), or as written. */
function resolveRelative(fromFile: string, specifier: string): string {
  const base = join(dirname(fromFile), specifier);
  const found = [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), base].find((candidate) => existsSync(candidate));
  return found ?? base;
}

function readServerFiles(): ServerFile[] {
  return readdirSync(SERVER_DIR, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .sort()
    .map((name) => {
      const file = join(SERVER_DIR, name);
      const source = readFileSync(file, 'utf8');
      const { importedFiles } = ts.preProcessFile(source, true, true);
      const specifiers = importedFiles.map((imported) => imported.fileName);
      const imports = specifiers
        .filter((specifier) => specifier.startsWith('.'))
        .map((specifier) => relative(REPO_ROOT, resolveRelative(file, specifier)));
      const packages = specifiers.filter((specifier) => !specifier.startsWith('.'));
      return { path: relative(REPO_ROOT, file), imports, packages, source };
    });
}

/** Each import cycle among `files`, as the chain of paths from a file back to itself. */
function findCycles(files: ServerFile[]): string[][] {
  const importsOf = new Map(files.map((file) => [file.path, file.imports.filter((path) => path.startsWith('server/'))]));
  const done = new Set<string>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (path: string) => {
    const open = stack.indexOf(path);
    if (open >= 0) {
      cycles.push([...stack.slice(open), path]);
      return;
    }
    if (done.has(path)) return;
    stack.push(path);
    for (const imported of importsOf.get(path) ?? []) visit(imported);
    stack.pop();
    done.add(path);
  };
  for (const path of importsOf.keys()) visit(path);
  return cycles;
}

const serverFiles = readServerFiles();
if (!serverFiles.some((file) => file.path === 'server/main.ts')) throw new Error(`no server/main.ts under ${SERVER_DIR}`);

describe('server/ boundaries', () => {
  it(`imports from src/ only ${SHARED_WITH_SERVER.map((folder) => `src/${folder}/`).join(' and ')}`, () => {
    const allowed = SHARED_WITH_SERVER.map((folder) => `${relative(REPO_ROOT, join(SRC_DIR, folder))}/`);
    const offending = serverFiles.flatMap((file) =>
      file.imports
        .filter((path) => path.startsWith('src/') && !allowed.some((folder) => path.startsWith(folder)))
        .map((path) => `${file.path} imports ${path}`),
    );
    expect(offending, 'move what the server needs into src/domain/ (or src/contract/)').toEqual([]);
  });

  it('has no import cycle', () => {
    const cycles = findCycles(serverFiles).map((cycle) => cycle.join(' → '));
    expect(cycles, 'server files that import each other').toEqual([]);
  });

  it('keeps the sandbox behind the provider interface: only server/payments/ imports it or asks which provider runs', () => {
    const outside = serverFiles.filter((file) => !file.path.startsWith('server/payments/'));
    const imports = outside.flatMap((file) =>
      file.imports.filter((path) => path.startsWith('server/payments/sandbox')).map((path) => `${file.path} imports ${path}`),
    );
    const comparisons = outside
      .filter((file) => /provider\.name\s*[!=]==|[!=]==\s*provider\.name|provider\s*[!=]==\s*'(sandbox|stripe)'/.test(file.source))
      .map((file) => `${file.path} compares the provider's name`);
    expect([...imports, ...comparisons], 'extend PaymentProvider (server/payments/provider.ts) instead').toEqual([]);
  });

  it('has no SQL in a routes file (server/<feature>/routes/): a route validates, calls a step, maps its outcome', () => {
    const withSql = serverFiles
      .filter((file) => /^server\/.+\/routes(\/|\.ts$)/.test(file.path))
      .filter(
        (file) =>
          file.packages.includes('drizzle-orm') ||
          file.imports.includes('server/db/schema.ts') ||
          /\bdb\.(select|insert|update|delete|execute|transaction)\(/.test(file.source),
      )
      .map((file) => file.path);
    expect(withSql, 'move the query into server/checkout, server/account or server/admin').toEqual([]);
  });
});
