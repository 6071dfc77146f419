/**
 * POST /api/sandbox/payment-intents/confirm: the sandbox card form confirms its PaymentIntent with a test card
 * (architecture.md, "sandbox"; rules in server/payments/sandboxCards.ts and sandboxIntents.ts). Registered only
 * when the provider is the sandbox. 200 succeeded / requires_action; 402 declined; 400 bad card; 404 unknown.
 */
import type { FastifyPluginAsync } from 'fastify';
import { EMAIL_PATTERN } from '../../src/domain/validation';
import { HttpError } from '../http/httpError';
import { closedObject } from '../http/schemaParts';
import type { OrderServices } from '../orders/orderContext';
import { checkSandboxCard, type SandboxCard } from '../payments/sandboxCards';
import { confirmSandboxIntent } from '../payments/sandboxIntents';
import { replyWithIntentOutcome } from './sandboxOutcome';

interface ConfirmBody {
  clientSecret: string;
  card: SandboxCard;
  billingDetails: { name: string; email: string };
}

const body = closedObject({
  clientSecret: { type: 'string', minLength: 1, maxLength: 255 },
  card: closedObject({
    number: { type: 'string', pattern: '^[0-9 ]{1,40}$' },
    expMonth: { type: 'integer', minimum: 1, maximum: 12 },
    expYear: { type: 'integer', minimum: 0, maximum: 2199 },
    cvc: { type: 'string', maxLength: 8 },
    postalCode: { type: 'string', maxLength: 16 },
  }),
  billingDetails: closedObject({
    name: { type: 'string', minLength: 1, maxLength: 200 },
    email: { type: 'string', pattern: EMAIL_PATTERN.source, maxLength: 254 },
  }),
});

export const sandboxConfirmRoute: FastifyPluginAsync<OrderServices> = async (app, { db }) => {
  app.post<{ Body: ConfirmBody }>('/api/sandbox/payment-intents/confirm', { schema: { body } }, async (request, reply) => {
    const card = checkSandboxCard(request.body.card);
    if (!card.ok) throw new HttpError(400, card.message);
    const outcome = await confirmSandboxIntent(db, request.body.clientSecret, card, request.body.billingDetails);
    return replyWithIntentOutcome(reply, outcome);
  });
};
