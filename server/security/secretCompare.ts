/** Constant-time comparison of secrets such as API keys. */
import { createHash, timingSafeEqual } from 'node:crypto';

/** True when `given` equals `expected`, in time independent of where they differ or of their lengths. */
export function secretsMatch(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(expected));
}
