import { randomInt } from 'node:crypto';

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** crypto.randomInt has no modulo bias. */
export function randomAlphanumeric(length: number): string {
  let text = '';
  for (let i = 0; i < length; i += 1) text += ALPHANUMERIC[randomInt(ALPHANUMERIC.length)];
  return text;
}
