/** CREDENTIALS_KEY, else one generated into DATA_DIR (0600), else per process (docs/decisions/0008). */
import { hkdfSync, randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../config';
import { CREDENTIALS_KEY_BYTES, parseCredentialsKey } from './credentialsCipher';

export const CREDENTIALS_KEY_FILE = 'credentials.key';

/** @throws Error when CREDENTIALS_KEY is missing with DATABASE_URL, or DATA_DIR/credentials.key holds no key. */
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

/** The cookie signing secret, derived by HKDF so every process sharing the key signs alike. */
export function cookieSecretFrom(credentialsKey: Buffer): string {
  return Buffer.from(hkdfSync('sha256', credentialsKey, Buffer.alloc(0), 'checkout cookies', 32)).toString('hex');
}
