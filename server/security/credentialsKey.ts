/**
 * Where the credentials key comes from (docs/decisions/0008): CREDENTIALS_KEY when set (required with
 * DATABASE_URL, checked by server/config.ts); otherwise, for the embedded database, a key generated once into
 * `DATA_DIR/credentials.key` (mode 0600) beside the data it protects; for an in-memory database (`memory://`), a
 * key that lives as long as the process, like the data.
 */
import { hkdfSync, randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../config';
import { CREDENTIALS_KEY_BYTES, parseCredentialsKey } from './credentialsCipher';

/** The file the embedded default keeps its generated key in, inside DATA_DIR. */
export const CREDENTIALS_KEY_FILE = 'credentials.key';

/**
 * The 32-byte credentials key for `config`.
 * @throws Error when CREDENTIALS_KEY is missing with DATABASE_URL (config validation normally catches this first),
 *   or when DATA_DIR/credentials.key exists but does not hold a key.
 */
export async function loadCredentialsKey(config: Pick<Config, 'CREDENTIALS_KEY' | 'DATABASE_URL' | 'DATA_DIR'>): Promise<Buffer> {
  if (config.CREDENTIALS_KEY) return config.CREDENTIALS_KEY;
  if (config.DATABASE_URL) throw new Error('CREDENTIALS_KEY is required when DATABASE_URL is set');
  if (config.DATA_DIR.startsWith('memory://')) return randomBytes(CREDENTIALS_KEY_BYTES);
  const path = join(config.DATA_DIR, CREDENTIALS_KEY_FILE);
  const generated = randomBytes(CREDENTIALS_KEY_BYTES).toString('hex');
  try {
    // 'wx': only the first start writes it; later starts (and a second process racing this one) read it.
    await writeFile(path, `${generated}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const key = parseCredentialsKey(await readFile(path, 'utf8'));
  if (!key) throw new Error(`${path} does not hold a credentials key (64 hex digits)`);
  return key;
}

/**
 * The secret that signs the referral cookie and the console's session cookie (hex, 32 bytes), derived from the
 * credentials key with HKDF-SHA256, so every process that shares the key signs alike.
 */
export function cookieSecretFrom(credentialsKey: Buffer): string {
  return Buffer.from(hkdfSync('sha256', credentialsKey, Buffer.alloc(0), 'checkout cookies', 32)).toString('hex');
}
