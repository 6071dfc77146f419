import type { JsonWebKey } from 'node:crypto';

export interface PrivateJwks {
  keys: JsonWebKey[];
}

/** Null when not JSON, no keys, or a key without `kty` or `d`. */
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
