import { createHash, timingSafeEqual } from 'node:crypto';

/** Constant time, whatever the lengths. */
export function secretsMatch(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(expected));
}
