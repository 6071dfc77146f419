/**
 * POST /api/stripe/webhook. This plugin alone reads the raw body, since the signature covers Stripe's exact bytes.
 * A bad signature or unreadable event is 400; 500 only for our own transient failures, so Stripe retries (Stripe
 * docs, "Receive Stripe events in your webhook endpoint"). Outside the per-IP rate limit: Stripe delivers from a
 * handful of addresses, and a forged request costs one HMAC.
 */
import type { FastifyPluginAsync } from 'fastify';
import { HttpError } from '../../http/httpError';
import type { PaymentEventHandled, ProviderRouteOptions } from '../provider';
import { STRIPE_API_VERSION } from './client';
import {
  MalformedWebhookEventError,
  readDefaultPaymentMethodChange,
  readDisputeEvent,
  readFailedRefund,
  readRefundedCharge,
  readStripeEvent,
  verifyStripeEvent,
  WebhookSignatureError,
} from './webhook';

interface StripeWebhookOptions extends ProviderRouteOptions {
  /** The endpoint's signing secret, `whsec_…` (STRIPE_WEBHOOK_SECRET). */
  webhookSecret: string;
}

/** Stripe shows them in the endpoint's delivery log. */
const WEBHOOK_ERRORS = {
  badSignature: 'Webhook signature verification failed.',
  malformedEvent: 'The webhook body is not a well-formed event.',
  retryLater: 'The event could not be processed now; it will be retried.',
} as const;

/** Stripe's event payloads exceed the API's 16 KiB body limit (an invoice with its lines); 1 MiB is ample. */
const WEBHOOK_BODY_LIMIT_BYTES = 1024 * 1024;

/** The answer Stripe sees: `received` and, for the delivery log, what became of the event. */
interface WebhookReply {
  received: true;
  outcome: Extract<PaymentEventHandled, { ok: true }>['value']['outcome'];
}

export const stripeWebhookRoute: FastifyPluginAsync<StripeWebhookOptions> = async (
  app,
  { webhookSecret, webhookStatus: status, challengeKey: _challengeKey, nudgeOutbox, ...services },
) => {
  status.apiVersion = { expected: STRIPE_API_VERSION, lastReceived: null, matches: true };
  const apiVersion = status.apiVersion;
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT_BYTES }, (_request, body, done) =>
    done(null, body),
  );

  app.post<{ Body: Buffer | undefined; Reply: WebhookReply }>('/api/stripe/webhook', async (request) => {
    let verified;
    try {
      verified = verifyStripeEvent(request.body, request.headers['stripe-signature'], webhookSecret);
    } catch (error) {
      if (error instanceof MalformedWebhookEventError) {
        request.log.warn({ reason: error.message }, 'Rejected a signed webhook body that is not an event');
        throw new HttpError(400, WEBHOOK_ERRORS.malformedEvent);
      }
      if (!(error instanceof WebhookSignatureError)) throw error;
      request.log.warn({ reason: error.message }, 'Rejected a webhook request');
      throw new HttpError(400, WEBHOOK_ERRORS.badSignature);
    }
    const received = typeof verified.api_version === 'string' ? verified.api_version : null;
    apiVersion.lastReceived = received;
    apiVersion.matches = received === STRIPE_API_VERSION;
    if (!apiVersion.matches) {
      request.log.warn(
        { eventId: verified.id, eventApiVersion: received, pinnedApiVersion: STRIPE_API_VERSION },
        'Webhook event built for another Stripe API version than the server is pinned to: recreate the endpoint with the pinned version (npm run stripe:setup)',
      );
    }
    const cardChange = readDefaultPaymentMethodChange(verified);
    if (cardChange && services.provider.syncDefaultPaymentMethod) {
      // The buyer's new card (Customer Portal) must be the one the next retry or renewal charges.
      try {
        const changed = await services.provider.syncDefaultPaymentMethod(cardChange.customerId, verified.id);
        request.log.info(
          { eventId: verified.id, customerId: cardChange.customerId, subscriptions: changed },
          'Subscriptions now charge the customer’s default payment method',
        );
      } catch (error) {
        request.log.error(
          { err: error, eventId: verified.id },
          'Could not bring the subscriptions’ payment method in line; Stripe will deliver the event again',
        );
        throw new HttpError(500, WEBHOOK_ERRORS.retryLater);
      }
      return { received: true, outcome: 'processed' };
    }
    const refunded = readRefundedCharge(verified);
    if (refunded) {
      const applied = await services.paymentEvents.refundNotice(request.log, {
        eventId: verified.id,
        providerType: verified.type,
        customerId: refunded.customerId,
        paymentId: refunded.paymentIntentId,
      });
      if (!applied.ok) throw new HttpError(500, WEBHOOK_ERRORS.retryLater);
      return { received: true, outcome: applied.value.outcome };
    }
    const disputed = readDisputeEvent(verified);
    const failedRefund = readFailedRefund(verified);
    if (disputed || failedRefund) {
      const applied = disputed
        ? await services.paymentEvents.disputeNotice(request.log, {
            eventId: verified.id,
            providerType: verified.type,
            disputeId: disputed.disputeId,
          })
        : await services.paymentEvents.failedRefundNotice(request.log, {
            eventId: verified.id,
            providerType: verified.type,
            paymentId: failedRefund!.paymentIntentId,
          });
      if (!applied.ok) throw new HttpError(500, WEBHOOK_ERRORS.retryLater);
      nudgeOutbox();
      return { received: true, outcome: applied.value.outcome };
    }
    const read = readStripeEvent(verified);
    if ('ignored' in read) {
      request.log.info({ eventId: verified.id, eventType: verified.type, reason: read.ignored }, 'Webhook event ignored');
      return { received: true, outcome: 'ignored' };
    }
    const result = await services.paymentEvents.event(request.log, read.event);
    // Our side could not ask Stripe now: a 500 leaves the event unrecorded, and Stripe delivers it again.
    if (!result.ok) throw new HttpError(500, WEBHOOK_ERRORS.retryLater);
    return { received: true, outcome: result.value.outcome };
  });
};
