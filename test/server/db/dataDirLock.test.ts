/**
 * The embedded database belongs to one process: a second process on the same DATA_DIR refuses to start, with a
 * message naming the holder; a lock left by a process that is gone is taken over.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openPglite } from '../../../server/db/client';
import { DATA_DIR_LOCK_FILE, DataDirLockedError } from '../../../server/db/dataDirLock';

describe('the DATA_DIR lock', () => {
  const dirs: string[] = [];
  const newDir = async () => {
    const dir = await mkdtemp(join(tmpdir(), 'checkout-lock-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(async () => {
    await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it('is held while the database is open and given back when it closes', async () => {
    const dir = await newDir();
    const database = await openPglite(dir);
    expect((await readFile(join(dir, DATA_DIR_LOCK_FILE), 'utf8')).trim()).toBe(String(process.pid));
    await database.close();
    await expect(readFile(join(dir, DATA_DIR_LOCK_FILE), 'utf8')).rejects.toThrow();
    await (await openPglite(dir)).close();
  });

  it('refuses a folder a running process holds, and takes over one whose holder is gone', async () => {
    const dir = await newDir();
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    try {
      await writeFile(join(dir, DATA_DIR_LOCK_FILE), `${holder.pid}\n`);
      const refused = await openPglite(dir).then(
        () => null,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(DataDirLockedError);
      expect((refused as Error).message).toContain(`pid ${holder.pid}`);
      expect((refused as Error).message).toContain('DATABASE_URL');
    } finally {
      const exited = new Promise((resolve) => holder.once('exit', resolve));
      holder.kill('SIGKILL');
      await exited;
    }
    const database = await openPglite(dir);
    expect((await readFile(join(dir, DATA_DIR_LOCK_FILE), 'utf8')).trim()).toBe(String(process.pid));
    await database.close();
  });

  it('stops a second server process on the same DATA_DIR with a clear message', { timeout: 120_000 }, async () => {
    const dir = await newDir();
    const start = (port: number) =>
      spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
        env: {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? '/root',
          DATA_DIR: dir,
          PORT: String(port),
          HOST: '127.0.0.1',
          LOG_LEVEL: 'warn',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    const first = start(0);
    try {
      // The first has the lock once its database is open.
      for (let waited = 0; waited < 60_000; waited += 200) {
        if ((await readFile(join(dir, DATA_DIR_LOCK_FILE), 'utf8').catch(() => '')).trim() === String(first.pid)) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      const second = start(0);
      let output = '';
      second.stdout.on('data', (chunk) => (output += String(chunk)));
      second.stderr.on('data', (chunk) => (output += String(chunk)));
      const code = await new Promise((resolve) => second.once('exit', resolve));
      expect(code).toBe(1);
      expect(output).toContain(`in use by another server process (pid ${first.pid})`);
    } finally {
      const exited = new Promise((resolve) => first.once('exit', resolve));
      first.kill('SIGTERM');
      await exited;
    }
  });
});
