/** The OpenID Provider's private signing keys as OIDC_JWKS gives them (read by server/config.ts; ./oidcKeys.ts). */
import type { JsonWebKey } from 'node:crypto';

/** A private JSON Web Key Set: at least one key, each with its key type and private part (`d`). */
export interface PrivateJwks {
  keys: JsonWebKey[];
}

/** Parses `text` as a private JWK Set; null when it is not JSON, has no keys, or a key lacks `kty` or `d`. */
export function parseJwks(text: string): PrivateJwks | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const keys = (value as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys) || keys.length === 0) return null;
  const valid = keys.every((key: unknown) => {
    const jwk = key as Record<string, unknown> | null;
    return typeof jwk === 'object' && jwk !== null && typeof jwk.kty === 'string' && typeof jwk.d === 'string';
  });
  return valid ? { keys: keys as JsonWebKey[] } : null;
}
