/**
 * Hand-off tokens for the agreement site (spec §4, §6: "a token for the external success site"): 32 random
 * bytes as base64url, given to the buyer once; only their SHA-256 hex digest is stored.
 */
import { createHash, randomBytes } from 'node:crypto';

/** A new token and the digest to store in handoff_tokens.token_hash. */
export function newHandoffToken(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, tokenHash: hashHandoffToken(token) };
}

/** SHA-256 hex of `token`, the form in which tokens are stored and looked up. */
export function hashHandoffToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
