/**
 * PGlite is one process's database: two processes on one DATA_DIR each keep their own copy in memory and
 * overwrite each other's writes on disk. The first process takes `DATA_DIR/server.lock` (created exclusively,
 * holding its pid); a second one refuses to start with a message naming the holder. A lock left by a process
 * that no longer runs (kill -9, power loss) is taken over.
 */
import { open, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';

/** The lock file's name inside DATA_DIR. */
export const DATA_DIR_LOCK_FILE = 'server.lock';

/** Another live process holds DATA_DIR. */
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

/**
 * Takes the lock on `dataDir` for this process and returns the function that gives it back.
 * @throws DataDirLockedError when a running process holds it; file-system errors otherwise.
 */
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
