/**
 * The OpenID Provider's signing keys (server/signIn/oidcKeys.ts): OIDC_JWKS when set; else generated once into
 * DATA_DIR/oidc-jwks.json (0600) and read back on later starts; refused with DATABASE_URL and no OIDC_JWKS.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateJwks, loadOidcJwks } from '../../../server/signIn/oidcKeys';

describe('the signing keys', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'oidc-keys-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('are generated once into DATA_DIR, owner-only, and the same on the next start', async () => {
    const first = await loadOidcJwks({ DATA_DIR: dataDir, DATABASE_URL: undefined, OIDC_JWKS: undefined });
    expect(first.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
    expect(statSync(join(dataDir, 'oidc-jwks.json')).mode & 0o777).toBe(0o600);
    expect(await loadOidcJwks({ DATA_DIR: dataDir, DATABASE_URL: undefined, OIDC_JWKS: undefined })).toEqual(first);
  });

  it('come from OIDC_JWKS when set, and are required with DATABASE_URL', async () => {
    const configured = generateJwks();
    expect(await loadOidcJwks({ DATA_DIR: dataDir, DATABASE_URL: 'postgres://db/x', OIDC_JWKS: configured })).toBe(configured);
    await expect(loadOidcJwks({ DATA_DIR: dataDir, DATABASE_URL: 'postgres://db/x', OIDC_JWKS: undefined })).rejects.toThrow(
      /OIDC_JWKS is required/,
    );
  });
});
