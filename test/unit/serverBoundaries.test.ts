/**
 * The server's boundaries, read from the source of every .ts file under server/: what it may import
 * from the browser's code, no import cycle, the sandbox kept behind the provider interface, SQL kept out of
 * the routes, features that meet only at their index.ts, and feature folders in the order of architecture.md
 * ("Layout"). Imports are read with TypeScript's own pre-processor, so `import type`, `export … from` and
 * `import()` all count.
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

/**
 * The ground every feature stands on, imported file by file: the database, the edge's errors and headers,
 * secrets and sessions (architecture.md, "Layout", feature order 1).
 */
const BASE_FOLDERS = ['db', 'http', 'security', 'sessions'];

/**
 * The server's folders from the ground up (architecture.md, feature order): a folder imports only folders before
 * it, but for the edges in AGAINST_THE_ORDER.
 */
const FOLDER_ORDER = [
  ...BASE_FOLDERS,
  'referrals',
  'funnel',
  'content',
  'payments',
  'checkout',
  'outbox',
  'commissions',
  'tax',
  'seats',
  'signIn',
  'handoff',
  'account',
  'admin',
  'partner',
];

/**
 * The imports that run against FOLDER_ORDER, each one closing a cycle between folders: none. A later feature hands
 * an earlier one what it needs instead (a listener, docs/decisions/0061; a part or a parameter, docs/decisions/0066).
 * A new edge against the order fails.
 */
const AGAINST_THE_ORDER: string[] = [];

/**
 * Pairs of features where one imports the other's files instead of its index.ts: none. A new pair fails: export
 * what the importer needs from the feature's index.ts.
 */
const SIDE_DOORS: string[] = [];

/**
 * The tables a feature reads or writes that another feature's tables.ts defines, through server/db/schema.ts, as
 * `feature → table`, each with its reason. What a feature deletes of its own goes through its part of the retention
 * sweep (docs/decisions/0066). Each of these reads or writes another's rows in the same transaction as its own
 * change; moving one behind the owner's step takes it off this list. A new one fails.
 */
const FOREIGN_TABLES: Record<string, string> = {
  'account → accounts': "the manage page reads and changes the order's credentials",
  'account → handoffTokens': "a manage link mints the order's agreement hand-off, and new credentials re-key it",
  'account → orders': 'a sign-in link is for the newest subscription of an email',
  'account → outbox': 'a sign-in link is mailed in the transaction that mints it',
  'admin → accounts': "the console's order shows the buyer's sign-in state",
  'admin → funnelEvents': "the dashboard's funnel",
  'admin → orderRefunds': "the order's row names the tax its refunds returned",
  'admin → orderDisputes': "the dashboard's and the orders' open disputes",
  'admin → orders': "the console's orders, reports and mail list",
  'admin → outbox': "the console's mail list, a held mail re-sent, an owner's action mailed with it",
  'admin → referrers': "the reports and the mail list name each order's referrer",
  'admin → seats': "the dashboard's seats",
  'checkout → funnelEvents': "the first payment's funnel event, once, with the order's change",
  'checkout → handoffTokens': "the agreement hand-off minted with the completed order (the finalize's answer)",
  'commissions → orderDisputes': "a dispute's outcome settles the commission it touches",
  'commissions → orderRefunds': "a refund's share of the commission",
  'commissions → orders': "the referrer's mail names the order",
  'commissions → outbox': "the referrer's and the owners' mail, written with the ledger's change",
  'commissions → referrers': "the referrer's email, name and rule",
  'tax → orderRefunds': "a refund's record reads the payment's refunds so far, for its share of the tax (decision 0074)",
  'funnel → orders': "a payment attempt's funnel event names the order's referrer",
  'handoff → accounts': 'the hand-off redeems the credentials and records the signed agreement',
  'handoff → orders': 'the order a hand-off or an agreement is for',
  'handoff → seats': "a member's signed agreement",
  'outbox → accounts': "a mail's recipient is the buyer of the order",
  'outbox → orders': "a mail's order: its buyer, seats and amounts",
  'outbox → owners': "the owners' mail goes to every owner",
  'outbox → seats': "a seat's row type for its invitation event",
  'partner → orders': "the referrer's page lists the orders they referred",
  'partner → referrers': "the referrer's page",
  'seats → accounts': "seat 1 is the buyer's, with the order's credentials",
  'seats → handoffTokens': "a claim mints the member's agreement hand-off, a revoke ends it, the buyer's opens the team page",
  'seats → orders': "the team's seats follow the order's paid seats",
  'signIn → accounts': "a buyer signs in with the order's credentials",
  'signIn → orders': 'only a live subscription signs in',
  'signIn → outbox': "a member's new-password link is mailed when asked for",
  'signIn → seats': "a member signs in with their claimed seat's password",
};

/** Each table's feature: the folder of the tables.ts that exports it. */
function tableOwners(files: ServerFile[]): Map<string, string> {
  const owners = new Map<string, string>();
  for (const file of files.filter((candidate) => candidate.path.endsWith('/tables.ts'))) {
    for (const [, name] of file.source.matchAll(/^export (?:const|type|interface|function|enum) (\w+)/gm)) {
      owners.set(name!, folderOf(file.path)!);
    }
  }
  return owners;
}

/** The names `file` imports from server/db/schema.ts (`*` for the whole module). */
function schemaImports(file: ServerFile): string[] {
  const source = ts.createSourceFile(file.path, file.source, ts.ScriptTarget.Latest);
  return source.statements.flatMap((statement) => {
    if (!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) return [];
    const specifier = statement.moduleSpecifier;
    if (!specifier || !ts.isStringLiteral(specifier) || !specifier.text.startsWith('.')) return [];
    if (relative(REPO_ROOT, resolveRelative(join(REPO_ROOT, file.path), specifier.text)) !== 'server/db/schema.ts') return [];
    const bindings = ts.isImportDeclaration(statement) ? statement.importClause?.namedBindings : statement.exportClause;
    if (!bindings || !(ts.isNamedImports(bindings) || ts.isNamedExports(bindings))) return ['*'];
    return bindings.elements.map((element) => (element.propertyName ?? element.name).text);
  });
}

/** The folder right under server/ that holds `path` (`server/seats/claim.ts` → `seats`); none for server/app.ts. */
function folderOf(path: string): string | undefined {
  const parts = path.split('/');
  return parts.length > 2 ? parts[1] : undefined;
}

/** One import from a file in one folder of server/ to a file in another. */
interface CrossImport {
  from: string;
  to: string;
  importer: string;
  imported: string;
}

/**
 * Every import between two folders of server/, but for server/db/schema.ts's: it only gathers the features' tables
 * for the client, and depends on none of them.
 */
function crossImports(files: ServerFile[]): CrossImport[] {
  return files
    .filter((file) => file.path !== 'server/db/schema.ts')
    .flatMap((file) =>
      file.imports.map((imported) => ({ from: folderOf(file.path), to: folderOf(imported), importer: file.path, imported })),
    )
    .filter((edge): edge is CrossImport => edge.imported.startsWith('server/') && !!edge.from && !!edge.to && edge.from !== edge.to);
}

/** `listed` against what `found` (edge name → the imports behind it) holds: what is new, what is stale. */
function compareWithList(found: Map<string, string[]>, listed: string[]) {
  return {
    unlisted: [...found].filter(([edge]) => !listed.includes(edge)).map(([edge, imports]) => `${edge}: ${imports.join(', ')}`),
    stale: listed.filter((edge) => !found.has(edge)),
  };
}

/** The imports behind each `from → to` edge among `imports`. */
function groupByEdge(imports: CrossImport[]): Map<string, string[]> {
  const edges = new Map<string, string[]>();
  for (const { from, to, importer, imported } of imports) {
    const edge = `${from} → ${to}`;
    edges.set(edge, [...(edges.get(edge) ?? []), `${importer} imports ${imported}`]);
  }
  return edges;
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

  it("has no SQL in a feature's index.ts either: a plugin registers routes", () => {
    const withSql = serverFiles
      .filter((file) => /^server\/[^/]+\/index\.ts$/.test(file.path))
      .filter((file) => file.packages.includes('drizzle-orm') || file.imports.some((path) => path.endsWith('/tables.ts')))
      .map((file) => file.path);
    expect(withSql).toEqual([]);
  });

  it('places every folder of server/ in the feature order', () => {
    const folders = [...new Set(serverFiles.map((file) => folderOf(file.path)).filter((folder) => folder !== undefined))];
    expect(
      folders.filter((folder) => !FOLDER_ORDER.includes(folder)),
      'add the folder to FOLDER_ORDER',
    ).toEqual([]);
  });

  it("gathers in server/db/schema.ts every feature's tables.ts, which drizzle-kit reads by its glob, and nothing else", () => {
    const schema = serverFiles.find((file) => file.path === 'server/db/schema.ts')!;
    const gathered = [...schema.source.matchAll(/^export \* from '\.\.\/([^/']+)\/tables';$/gm)].map((match) => match[1]!);
    const lines = schema.source.split('\n').filter((line) => line.trim() && !/^\s*(\/\*\*|\*|\/\/)/.test(line));
    const features = serverFiles.filter((file) => /^server\/[^/]+\/tables\.ts$/.test(file.path)).map((file) => folderOf(file.path)!);
    expect(gathered.toSorted(), 'add `export * from ../<feature>/tables` to server/db/schema.ts').toEqual(features.toSorted());
    expect(lines.length, 'server/db/schema.ts holds only the gathering lines').toBe(gathered.length);
  });

  it("lets features import each other only through their index.ts (a table's foreign key and the schema's gathering aside)", () => {
    const sideDoors = crossImports(serverFiles).filter(
      ({ to, importer, imported }) =>
        !BASE_FOLDERS.includes(to) &&
        imported !== `server/${to}/index.ts` &&
        !(imported.endsWith('/tables.ts') && importer.endsWith('/tables.ts')),
    );
    const { unlisted, stale } = compareWithList(groupByEdge(sideDoors), SIDE_DOORS);
    expect(unlisted, "import the feature's index.ts (export what you need there)").toEqual([]);
    expect(stale, 'these pairs meet only through index.ts now: take them off SIDE_DOORS').toEqual([]);
  });

  it('lets the files at the top of server/ (the app, the start) take a feature only through its index.ts', () => {
    const sideDoors = serverFiles
      .filter((file) => folderOf(file.path) === undefined)
      .flatMap((file) => file.imports.map((imported) => ({ importer: file.path, imported, to: folderOf(imported) })))
      .filter(
        ({ imported, to }) => imported.startsWith('server/') && to && !BASE_FOLDERS.includes(to) && imported !== `server/${to}/index.ts`,
      )
      .map(({ importer, imported }) => `${importer} imports ${imported}`);
    expect(sideDoors, "export what the app needs from the feature's index.ts").toEqual([]);
  });

  it('keeps feature folders in their order: no cycle between folders beyond the listed edges against it', () => {
    const against = crossImports(serverFiles).filter(({ from, to }) => FOLDER_ORDER.indexOf(from) < FOLDER_ORDER.indexOf(to));
    const { unlisted, stale } = compareWithList(groupByEdge(against), AGAINST_THE_ORDER);
    expect(unlisted, 'a folder imports one later in FOLDER_ORDER: this closes a cycle between features').toEqual([]);
    expect(stale, 'these edges are gone: take them off AGAINST_THE_ORDER').toEqual([]);
  });
  it('lets a feature take from server/db/schema.ts only its own tables, but for the listed ones', () => {
    const owners = tableOwners(serverFiles);
    const foreign = serverFiles
      .filter((file) => folderOf(file.path) !== undefined && folderOf(file.path) !== 'db')
      .flatMap((file) =>
        schemaImports(file)
          .filter((name) => owners.get(name) !== folderOf(file.path))
          .map((name) => ({ edge: `${folderOf(file.path)} → ${name}`, use: `${file.path} imports ${name}` })),
      );
    const found = new Map<string, string[]>();
    for (const { edge, use } of foreign) found.set(edge, [...(found.get(edge) ?? []), use]);
    const { unlisted, stale } = compareWithList(found, Object.keys(FOREIGN_TABLES));
    expect(unlisted, "ask the table's feature through its index.ts (or hand the step in, docs/decisions/0066)").toEqual([]);
    expect(stale, "these tables are only their own feature's now: take them off FOREIGN_TABLES").toEqual([]);
  });
});
