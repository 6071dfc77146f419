/** Hand-off tokens (spec §4, §6): 32 random bytes given once; only their SHA-256 is stored. */
import { createHash, randomBytes } from 'node:crypto';

export function newHandoffToken(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, tokenHash: hashHandoffToken(token) };
}

export function hashHandoffToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
