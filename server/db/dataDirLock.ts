/**
 * PGlite is one process's database: two on one DATA_DIR overwrite each other's writes. The first takes
 * `DATA_DIR/server.lock` (exclusive, its pid); a second refuses to start naming the holder; a dead holder's lock is
 * taken over.
 */
import { open, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';

export const DATA_DIR_LOCK_FILE = 'server.lock';

export class DataDirLockedError extends Error {
  override name = 'DataDirLockedError';
  constructor(
    readonly dataDir: string,
    readonly holderPid: number,
  ) {
    super(
      `DATA_DIR ${dataDir} is in use by another server process (pid ${holderPid}). The embedded database serves ` +
        'one process: stop that one, or set DATABASE_URL to run several processes on PostgreSQL.',
    );
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** @throws DataDirLockedError when a running process holds it; file-system errors otherwise. */
export async function lockDataDir(dataDir: string, pid: number = process.pid): Promise<() => Promise<void>> {
  const path = join(dataDir, DATA_DIR_LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const file = await open(path, 'wx', 0o600);
      await file.writeFile(`${pid}\n`);
      await file.close();
      return async () => {
        const holder = await readFile(path, 'utf8').catch(() => '');
        if (Number(holder.trim()) === pid) await unlink(path).catch(() => undefined);
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = Number((await readFile(path, 'utf8').catch(() => '')).trim());
    if (Number.isInteger(holder) && holder > 0 && holder !== pid && isRunning(holder)) throw new DataDirLockedError(dataDir, holder);
    // Left by a process that is gone (or unreadable): take it over.
    await unlink(path).catch(() => undefined);
  }
  throw new Error(`Could not take the lock ${path}`);
}
