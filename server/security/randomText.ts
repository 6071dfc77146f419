/** Random text from the operating system's CSPRNG (node:crypto), for passwords and sandbox ids. */
import { randomInt } from 'node:crypto';

/** The 62 letters and digits, A–Z, a–z, 0–9. */
const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** `length` characters drawn uniformly from ALPHANUMERIC (crypto.randomInt has no modulo bias). */
export function randomAlphanumeric(length: number): string {
  let text = '';
  for (let i = 0; i < length; i += 1) text += ALPHANUMERIC[randomInt(ALPHANUMERIC.length)];
  return text;
}
