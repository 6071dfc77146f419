/**
 * POST /api/sandbox/payment-intents/confirm: the sandbox card form confirms its PaymentIntent with a test card
 * (architecture.md, "sandbox"; rules in server/payments/sandboxCards.ts and sandboxIntents.ts). Registered only
 * when the provider is the sandbox. 200 succeeded / requires_action; 402 declined; 400 bad card; 404 unknown.
 * An accepted payment completes its order before the answer (server/orders/sandboxPaymentEvent.ts).
 */
import type { FastifyPluginAsync } from 'fastify';
import { EMAIL_PATTERN } from '../../src/domain/validation';
import { HttpError } from '../http/httpError';
import { closedObject, text } from '../http/schemaParts';
import type { OrderServices } from '../orders/orderContext';
import { raiseSandboxPayment } from '../orders/sandboxPaymentEvent';
import { checkSandboxCard, type SandboxCard } from '../payments/sandboxCards';
import { confirmSandboxIntent } from '../payments/sandboxIntents';
import { replyWithIntentOutcome } from './sandboxOutcome';

interface ConfirmBody {
  clientSecret: string;
  card: SandboxCard;
  billingDetails: { name: string; email: string };
}

const body = closedObject({
  clientSecret: text(1, 255),
  card: closedObject({
    number: { type: 'string', pattern: '^[0-9 ]{1,40}$' },
    expMonth: { type: 'integer', minimum: 1, maximum: 12 },
    expYear: { type: 'integer', minimum: 0, maximum: 2199 },
    cvc: text(0, 8),
    postalCode: text(0, 16),
  }),
  billingDetails: closedObject({
    name: text(1, 200),
    email: { ...text(1, 254), allOf: [{ pattern: EMAIL_PATTERN.source }] },
  }),
});

export const sandboxConfirmRoute: FastifyPluginAsync<OrderServices> = async (app, services) => {
  const rateLimit = { max: services.config.CONFIRMATIONS_PER_MINUTE, timeWindow: '1 minute', groupId: 'sandbox-confirmations' };
  app.post<{ Body: ConfirmBody }>('/api/sandbox/payment-intents/confirm', { schema: { body }, config: { rateLimit } }, async (request, reply) => {
    const card = checkSandboxCard(request.body.card);
    if (!card.ok) throw new HttpError(400, card.message);
    const outcome = await confirmSandboxIntent(services.db, request.body.clientSecret, card, request.body.billingDetails);
    if (outcome.kind === 'succeeded') await raiseSandboxPayment({ ...services, log: request.log }, outcome);
    return replyWithIntentOutcome(reply, outcome);
  });
};
