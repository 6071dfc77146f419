/**
 * Signed webhooks to the agreement site (SUCCESS_SITE_WEBHOOK_URL). The body is JSON; the header
 * `Checkout-Signature: t=<Unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" with SUCCESS_SITE_WEBHOOK_SECRET>`
 * lets the receiver check who sent it and when (the scheme of Stripe's `Stripe-Signature`; verification snippet
 * in docs/operations.md). A non-2xx answer or no answer within 10 s is a failure the outbox retries. The agreement
 * site signs its reports to us (POST /api/agreement/signed) the same way, checked by checkWebhookSignature.
 */
import { createHmac } from 'node:crypto';
import { secretsMatch } from '../security/secretCompare';

const TIMEOUT_MS = 10_000;

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

/**
 * POSTs `body` to `url`, signed.
 * @throws Error naming the status or the network failure.
 */
export async function postWebhook(url: string, secret: string, body: string, now = Date.now()): Promise<void> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'checkout-signature': webhookSignature(secret, Math.floor(now / 1000), body) },
    body,
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  if (!response.ok) throw new Error(`Webhook answered ${response.status}`);
}
