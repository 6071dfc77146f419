/** A paid order keeps its client secret only as a SHA-256 (docs/decisions/0052). */
import { createHash } from 'node:crypto';
import { secretsMatch } from './secretCompare';

/** A Stripe or sandbox secret never starts so. */
const HASHED = 'sha256:';

export function sealClientSecret(clientSecret: string): string {
  if (clientSecret.startsWith(HASHED)) return clientSecret;
  return `${HASHED}${createHash('sha256').update(clientSecret, 'utf8').digest('hex')}`;
}

/** Constant time, against a secret kept in clear or sealed. */
export function clientSecretMatches(given: string, stored: string): boolean {
  return stored.startsWith(HASHED) ? secretsMatch(sealClientSecret(given), stored) : secretsMatch(given, stored);
}
