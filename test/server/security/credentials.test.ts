/** The credentials cipher (AES-256-GCM bound to an order) and where its key comes from. */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCredentialsCipher, parseCredentialsKey } from '../../../server/security/credentialsCipher';
import { CREDENTIALS_KEY_FILE, loadCredentialsKey } from '../../../server/security/credentialsKey';

describe('createCredentialsCipher', () => {
  const cipher = createCredentialsCipher(randomBytes(32));

  it('round-trips a value for its order, with a fresh IV each time', () => {
    const first = cipher.encrypt('Secret123', 'txn-1');
    const second = cipher.encrypt('Secret123', 'txn-1');
    expect(first).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
    expect(first).not.toBe(second);
    expect(first).not.toContain('Secret123');
    expect(cipher.decrypt(first, 'txn-1')).toBe('Secret123');
  });

  it('refuses another order, another key, a changed byte and an unknown format', () => {
    const stored = cipher.encrypt('Secret123', 'txn-1');
    expect(() => cipher.decrypt(stored, 'txn-2')).toThrow();
    expect(() => createCredentialsCipher(randomBytes(32)).decrypt(stored, 'txn-1')).toThrow();
    const bytes = Buffer.from(stored.slice(3), 'base64url');
    bytes[14] = (bytes[14] ?? 0) ^ 1;
    expect(() => cipher.decrypt(`v1.${bytes.toString('base64url')}`, 'txn-1')).toThrow();
    expect(() => cipher.decrypt('v0.abc', 'txn-1')).toThrow(/format/);
    expect(() => cipher.decrypt('v1.abc', 'txn-1')).toThrow(/short/);
  });

  it('needs a 32-byte key', () => {
    expect(() => createCredentialsCipher(randomBytes(16))).toThrow(RangeError);
    expect(parseCredentialsKey('zz'.repeat(32))).toBeNull();
  });
});

describe('loadCredentialsKey', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it('uses CREDENTIALS_KEY when set', async () => {
    const key = randomBytes(32);
    expect(await loadCredentialsKey({ CREDENTIALS_KEY: key, DATABASE_URL: 'postgres://db/x', DATA_DIR: './data' })).toEqual(key);
  });

  it('refuses to run on PostgreSQL without CREDENTIALS_KEY', async () => {
    await expect(loadCredentialsKey({ DATABASE_URL: 'postgres://db/x', DATA_DIR: './data' })).rejects.toThrow(/CREDENTIALS_KEY/);
  });

  it('generates a key into DATA_DIR once (mode 0600) and reads the same one on the next start', async () => {
    dir = await mkdtemp(join(tmpdir(), 'credentials-key-'));
    const first = await loadCredentialsKey({ DATA_DIR: dir });
    const again = await loadCredentialsKey({ DATA_DIR: dir });
    expect(first).toHaveLength(32);
    expect(again).toEqual(first);
    const file = join(dir, CREDENTIALS_KEY_FILE);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await readFile(file, 'utf8')).trim()).toBe(first.toString('hex'));
  });

  it('stops on a key file that does not hold a key', async () => {
    dir = await mkdtemp(join(tmpdir(), 'credentials-key-'));
    await writeFile(join(dir, CREDENTIALS_KEY_FILE), 'not a key\n');
    await expect(loadCredentialsKey({ DATA_DIR: dir })).rejects.toThrow(/does not hold a credentials key/);
  });

  it('keeps an in-memory database’s key in memory', async () => {
    expect(await loadCredentialsKey({ DATA_DIR: 'memory://' })).toHaveLength(32);
  });
});
