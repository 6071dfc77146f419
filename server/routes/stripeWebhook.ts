/**
 * POST /api/stripe/webhook (architecture.md), registered only when Stripe is the provider. This plugin alone
 * reads the raw body: it replaces the JSON parser, in its own encapsulated context, with one that hands the
 * handler the bytes as a Buffer, since the signature is computed over the exact bytes Stripe sent.
 *
 * The `Stripe-Signature` header is verified first (server/payments/stripeWebhook.ts); a missing or bad one is
 * 400 `{ error }` with no effect. Allow-listed events about our subscriptions go to applyPaymentEvent; anything
 * else is acknowledged with 200 and ignored. 500 only for our own transient failures, so Stripe retries them
 * (Stripe docs, "Receive Stripe events in your webhook endpoint": any non-2xx answer is retried).
 *
 * Outside the per-IP rate limit: Stripe delivers from a handful of addresses, and a forged request costs one HMAC.
 */
import type { FastifyPluginAsync } from 'fastify';
import { HttpError, WEBHOOK_ERRORS } from '../http/httpError';
import { applyPaymentEvent, type PaymentEventResult } from '../orders/applyPaymentEvent';
import type { OrderServices } from '../orders/orderContext';
import { readStripeEvent, verifyStripeEvent, WebhookSignatureError } from '../payments/stripeWebhook';

export interface StripeWebhookOptions extends OrderServices {
  /** The endpoint's signing secret, `whsec_…` (STRIPE_WEBHOOK_SECRET). */
  webhookSecret: string;
}

/** Stripe's event payloads exceed the API's 16 KiB body limit (an invoice with its lines); 1 MiB is ample. */
const WEBHOOK_BODY_LIMIT_BYTES = 1024 * 1024;

/** The answer Stripe sees: `received` and, for the delivery log, what became of the event. */
interface WebhookReply {
  received: true;
  outcome: PaymentEventResult['outcome'];
}

export const stripeWebhookRoute: FastifyPluginAsync<StripeWebhookOptions> = async (app, { webhookSecret, ...services }) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT_BYTES }, (_request, body, done) =>
    done(null, body),
  );

  app.post<{ Body: Buffer | undefined; Reply: WebhookReply }>('/api/stripe/webhook', async (request) => {
    let verified;
    try {
      verified = verifyStripeEvent(request.body, request.headers['stripe-signature'], webhookSecret);
    } catch (error) {
      if (!(error instanceof WebhookSignatureError)) throw error;
      request.log.warn({ reason: error.message }, 'Rejected a webhook request');
      throw new HttpError(400, WEBHOOK_ERRORS.badSignature);
    }
    const read = readStripeEvent(verified);
    if ('ignored' in read) {
      request.log.info({ eventId: verified.id, eventType: verified.type, reason: read.ignored }, 'Webhook event ignored');
      return { received: true, outcome: 'ignored' };
    }
    const result = await applyPaymentEvent({ ...services, log: request.log }, read.event);
    return { received: true, outcome: result.outcome };
  });
};
