/**
 * The provider's signing keys (docs/decisions/0033): OIDC_JWKS (required with DATABASE_URL, so every process signs
 * alike); else an RSA key generated once into DATA_DIR/oidc-jwks.json (0600); for `memory://`, one per process.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../config';
import { parseJwks, type PrivateJwks } from '../security/jwks';

const JWKS_FILE = 'oidc-jwks.json';

/** RS256, which OpenID Connect requires every provider to offer. */
export function generateJwks(): PrivateJwks {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = privateKey.export({ format: 'jwk' });
  return { keys: [{ ...jwk, kid: randomBytes(8).toString('hex'), alg: 'RS256', use: 'sig' }] };
}

/** @throws Error when OIDC_JWKS is missing with DATABASE_URL, or DATA_DIR/oidc-jwks.json holds no private key set. */
export async function loadOidcJwks(config: Pick<Config, 'OIDC_JWKS' | 'DATABASE_URL' | 'DATA_DIR'>): Promise<PrivateJwks> {
  if (config.OIDC_JWKS) return config.OIDC_JWKS;
  if (config.DATABASE_URL) throw new Error('OIDC_JWKS is required when DATABASE_URL is set');
  if (config.DATA_DIR.startsWith('memory://')) return generateJwks();
  const path = join(config.DATA_DIR, JWKS_FILE);
  if (!existsSync(path)) {
    try {
      // 'wx': only the first start writes it; a process racing this one reads it.
      await writeFile(path, `${JSON.stringify(generateJwks())}\n`, { flag: 'wx', mode: 0o600 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  const jwks = parseJwks(await readFile(path, 'utf8'));
  if (!jwks) throw new Error(`${path} does not hold a private JSON Web Key Set`);
  return jwks;
}
