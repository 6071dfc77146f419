/**
 * A real HTTP server standing in for the agreement site, on a free port of 127.0.0.1: it answers 204 to every
 * webhook and keeps each with whether its `Checkout-Signature` verifies against `secret`
 * (server/outbox/webhooks.ts).
 */
import { createServer } from 'node:http';
import { webhookSignature } from '../../server/security/webhookSignature';
import { freePort } from './freePort';

export interface ReceivedWebhook {
  type: string;
  data: Record<string, unknown>;
  /** The signature matches HMAC-SHA256 of "<t>.<body>" with the secret. */
  verified: boolean;
}

export interface WebhookReceiver {
  /** The endpoint, for SUCCESS_SITE_WEBHOOK_URL. */
  url: string;
  webhooks: ReceivedWebhook[];
  close(): Promise<void>;
}

export async function startWebhookReceiver(secret: string): Promise<WebhookReceiver> {
  const webhooks: ReceivedWebhook[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += String(chunk)));
    request.on('end', () => {
      const header = String(request.headers['checkout-signature'] ?? '');
      const timestamp = Number(/t=(\d+)/.exec(header)?.[1]);
      const parsed = JSON.parse(body) as { type: string; data: Record<string, unknown> };
      webhooks.push({ type: parsed.type, data: parsed.data, verified: header === webhookSignature(secret, timestamp, body) });
      response.writeHead(204).end();
    });
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    webhooks,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
