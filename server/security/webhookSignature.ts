/**
 * The `Checkout-Signature` scheme, both ways between us and the agreement site: our webhooks to it (outbox/webhooks.ts)
 * and its signature reports to us (POST /api/agreement/signed, docs/decisions/0063). `t=<Unix seconds>,v1=<hex
 * HMAC-SHA256 of "<t>.<body>">` with SUCCESS_SITE_WEBHOOK_SECRET, the scheme of Stripe's `Stripe-Signature`.
 */
import { createHmac } from 'node:crypto';
import { secretsMatch } from './secretCompare';

/** The signature header value for `body` sent at `timestampSeconds`. */
export function webhookSignature(secret: string, timestampSeconds: number, body: string): string {
  const digest = createHmac('sha256', secret).update(`${timestampSeconds}.${body}`).digest('hex');
  return `t=${timestampSeconds},v1=${digest}`;
}

/** Seconds a signature's time may lie from ours, either way (Stripe's tolerance, the one docs/operations.md names). */
const SIGNATURE_TOLERANCE_SECONDS = 300;

/**
 * Checks a `Checkout-Signature` header the agreement site sent us, in the scheme we sign our webhooks with (the same
 * shared secret, docs/decisions/0063): 'missing' (no header, or not `t=…,v1=…`), 'stale' (its time more than
 * SIGNATURE_TOLERANCE_SECONDS from `nowSeconds`: a replay, or a clock far off), 'wrong', or 'valid'. Compared in
 * constant time.
 */
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
