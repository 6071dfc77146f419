/**
 * Signed webhooks to the agreement site (server/security/webhookSignature.ts; docs/operations.md). A non-2xx answer
 * or none within 10 s is a failure the outbox retries.
 */
import { webhookSignature } from '../security/webhookSignature';

const TIMEOUT_MS = 10_000;

/** @throws Error naming the status or the network failure. */
export async function postWebhook(url: string, secret: string, body: string, now = Date.now()): Promise<void> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'checkout-signature': webhookSignature(secret, Math.floor(now / 1000), body) },
    body,
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  if (!response.ok) throw new Error(`Webhook answered ${response.status}`);
}
