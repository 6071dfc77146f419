/**
 * The embedded database's files are its owner's alone: opened on a fresh DATA_DIR under the usual
 * umask 022, every file PGlite writes is 0600 and every folder 0700, the credentials key included; a DATA_DIR
 * left open to others by an earlier version is closed to them at start.
 */
import { chmod, mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite } from '../../../server/db/client';
import { referrers } from '../../../server/db/schema';
import { seedReferrers } from '../../../server/referrals/referrers';
import { CREDENTIALS_KEY_FILE, loadCredentialsKey } from '../../../server/security/credentialsKey';

/** Every path under `dir` with its permission bits, `dir` itself first. */
async function modesUnder(dir: string): Promise<Map<string, { directory: boolean; mode: number }>> {
  const modes = new Map<string, { directory: boolean; mode: number }>();
  const visit = async (path: string) => {
    const info = await stat(path);
    modes.set(path, { directory: info.isDirectory(), mode: info.mode & 0o777 });
    if (info.isDirectory()) for (const entry of await readdir(path)) await visit(join(path, entry));
  };
  await visit(dir);
  return modes;
}

describe('DATA_DIR permissions', () => {
  let parent: string;
  let startingUmask: number;
  beforeAll(async () => {
    parent = await mkdtemp(join(tmpdir(), 'checkout-modes-'));
    startingUmask = process.umask(0o022);
  });
  afterAll(async () => {
    process.umask(startingUmask);
    await rm(parent, { recursive: true, force: true });
  });

  it('writes every file 0600 and every folder 0700, the credentials key too', async () => {
    const dataDir = join(parent, 'fresh');
    const database = await openPglite(dataDir);
    await loadCredentialsKey({ DATA_DIR: dataDir, DATABASE_URL: undefined, CREDENTIALS_KEY: undefined });
    await seedReferrers(database.db);
    await database.db.insert(referrers).values({ slug: 'modes', displayName: 'Modes', shortLabel: 'dr-modes', quote: 'Private.' });
    await database.close();

    const modes = await modesUnder(dataDir);
    expect(modes.get(join(dataDir, CREDENTIALS_KEY_FILE))).toEqual({ directory: false, mode: 0o600 });
    expect([...modes.values()].filter((each) => !each.directory).length).toBeGreaterThan(100);
    const open = [...modes].filter(([, { directory, mode }]) => mode !== (directory ? 0o700 : 0o600));
    expect(open.map(([path, { mode }]) => `${path} ${mode.toString(8)}`)).toEqual([]);
  });

  it('closes a DATA_DIR that an earlier start left open to others', async () => {
    const dataDir = join(parent, 'earlier');
    await mkdir(dataDir, { mode: 0o755 });
    await chmod(dataDir, 0o755);
    await writeFile(join(dataDir, 'left-by-an-earlier-version'), 'data', { mode: 0o666 });
    await chmod(join(dataDir, 'left-by-an-earlier-version'), 0o666);
    process.umask(0o022);
    await (await openPglite(dataDir)).close();
    const open = [...(await modesUnder(dataDir))].filter(([, { directory, mode }]) => mode !== (directory ? 0o700 : 0o600));
    expect(open).toEqual([]);
  });
});
