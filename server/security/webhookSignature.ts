/** `Checkout-Signature` (docs/decisions/0063): `t=<Unix s>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, as Stripe's. */
import { createHmac } from 'node:crypto';
import { secretsMatch } from './secretCompare';

export function webhookSignature(secret: string, timestampSeconds: number, body: string): string {
  const digest = createHmac('sha256', secret).update(`${timestampSeconds}.${body}`).digest('hex');
  return `t=${timestampSeconds},v1=${digest}`;
}

/** Stripe's tolerance (docs/operations.md). */
const SIGNATURE_TOLERANCE_SECONDS = 300;

export function checkWebhookSignature(
  secret: string,
  header: string | undefined,
  body: string,
  nowSeconds: number,
): 'valid' | 'missing' | 'stale' | 'wrong' {
  const parts = new Map(
    (header ?? '').split(',').map((part): [string, string] => {
      const [key = '', value = ''] = part.trim().split('=', 2);
      return [key, value];
    }),
  );
  const timestamp = Number(parts.get('t'));
  const given = parts.get('v1');
  if (!Number.isSafeInteger(timestamp) || !given) return 'missing';
  if (Math.abs(nowSeconds - timestamp) > SIGNATURE_TOLERANCE_SECONDS) return 'stale';
  return secretsMatch(webhookSignature(secret, timestamp, body), `t=${timestamp},v1=${given}`) ? 'valid' : 'wrong';
}
