/**
 * Signed webhooks to the agreement site (SUCCESS_SITE_WEBHOOK_URL). The body is JSON; the header
 * `Checkout-Signature: t=<Unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" with SUCCESS_SITE_WEBHOOK_SECRET>`
 * lets the receiver check who sent it and when (the scheme of Stripe's `Stripe-Signature`; verification snippet
 * in docs/operations.md). A non-2xx answer or no answer within 10 s is a failure the outbox retries. The agreement
 * site signs its reports to us (POST /api/agreement/signed) the same way (security/webhookSignature.ts).
 */
import { webhookSignature } from '../security/webhookSignature';

const TIMEOUT_MS = 10_000;

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
