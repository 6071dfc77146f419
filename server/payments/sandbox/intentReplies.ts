/** How the two sandbox confirmation routes answer a PaymentIntent outcome (Stripe's statuses and codes). */
import type { FastifyReply } from 'fastify';
import { HttpError } from '../../http/httpError';
import type { IntentOutcome } from './intents';

/**
 * 200 `{ status, paymentIntentId }` for succeeded / requires_action; 402 `{ error, code }` for a failure, and
 * for a checkout closed after too many refused confirmations.
 * @throws HttpError 404 unknown client secret; 400 cancelled intent or one not awaiting authentication.
 */
export function replyWithIntentOutcome(reply: FastifyReply, outcome: IntentOutcome) {
  switch (outcome.kind) {
    case 'succeeded':
    case 'requires_action':
      return { status: outcome.kind, paymentIntentId: outcome.paymentIntentId };
    case 'failed':
      return reply.code(402).send({ error: outcome.message, code: outcome.code });
    case 'unknown':
      throw new HttpError(404, 'No such payment intent.');
    case 'too_many_failures':
      return reply.code(402).send({
        error: 'This payment was declined too many times. Please refresh the page to start again.',
        code: 'too_many_attempts',
      });
    case 'not_payable':
      throw new HttpError(400, 'This payment can no longer be confirmed. Please refresh the page.');
    case 'not_awaiting_authentication':
      throw new HttpError(400, 'This payment is not waiting for authentication.');
  }
}
