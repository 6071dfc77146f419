/**
 * Where the project's files are, whether the server runs from its TypeScript sources (`tsx server/main.ts`) or
 * from the bundle `npm start` builds (`build/server/main.js`): both find the project root, the folder of
 * package.json, above their own module.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findProjectRoot(from: string): string {
  for (let folder = from; ; folder = dirname(folder)) {
    if (existsSync(join(folder, 'package.json'))) return folder;
    if (dirname(folder) === folder) throw new Error(`No package.json above ${from}`);
  }
}

/** The project root (the folder holding package.json). */
const PROJECT_ROOT = findProjectRoot(dirname(fileURLToPath(import.meta.url)));

/** The built SPA (`vite build`). */
export const DIST_DIR = join(PROJECT_ROOT, 'dist');

/** The SQL migrations generated from server/db/schema.ts. */
export const MIGRATIONS_DIR = join(PROJECT_ROOT, 'server', 'db', 'migrations');
