/**
 * A paid order's payment client secret, kept only as its SHA-256 (docs/decisions/0052): the secret confirms the
 * order's PaymentIntent and is needed in clear only while the checkout is open (a seat change that changes nothing
 * answers it again). Once the order is paid, a redirect return (/api/finalize-from-payment-intent) still proves it
 * holds the secret, against the hash.
 */
import { createHash } from 'node:crypto';
import { secretsMatch } from './secretCompare';

/** How a hashed client secret is told from one in clear (a Stripe or sandbox secret never starts so). */
const HASHED = 'sha256:';

/** `clientSecret` as a paid order keeps it: `sha256:` and the hex SHA-256 of its UTF-8 text. */
export function sealClientSecret(clientSecret: string): string {
  if (clientSecret.startsWith(HASHED)) return clientSecret;
  return `${HASHED}${createHash('sha256').update(clientSecret, 'utf8').digest('hex')}`;
}

/** Whether `given` is the order's client secret `stored`, kept in clear or sealed (constant time). */
export function clientSecretMatches(given: string, stored: string): boolean {
  return stored.startsWith(HASHED) ? secretsMatch(sealClientSecret(given), stored) : secretsMatch(given, stored);
}
