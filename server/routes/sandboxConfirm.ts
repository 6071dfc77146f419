/**
 * POST /api/sandbox/payment-intents/confirm: the sandbox card form confirms its PaymentIntent with a test card
 * (architecture.md, "sandbox"; rules in server/payments/sandboxCards.ts and sandboxIntents.ts). Registered only
 * when the provider is the sandbox. 200 succeeded / requires_action; 402 declined; 400 bad card; 404 unknown.
 * An accepted payment completes its order before the answer (server/orders/sandboxPaymentEvent.ts).
 */
import type { FastifyPluginAsync } from 'fastify';
import { HttpError } from '../http/httpError';
import { ErrorResponse } from '../../src/contract/checkout';
import { SandboxConfirmRequest, SandboxDeclineResponse, SandboxIntentResponse } from '../../src/contract/sandbox';
import type { OrderServices } from '../orders/order';
import { raiseSandboxPayment } from '../orders/sandboxPaymentEvent';
import { checkSandboxCard } from '../payments/sandboxCards';
import { confirmSandboxIntent } from '../payments/sandboxIntents';
import { replyWithIntentOutcome } from './sandboxOutcome';

const schema = {
  summary: 'Sandbox: confirm a PaymentIntent with a test card',
  body: SandboxConfirmRequest,
  response: { 200: SandboxIntentResponse, 402: SandboxDeclineResponse, '4xx': ErrorResponse },
};

export const sandboxConfirmRoute: FastifyPluginAsync<OrderServices> = async (app, services) => {
  const rateLimit = { max: services.config.CONFIRMATIONS_PER_MINUTE, timeWindow: '1 minute', groupId: 'sandbox-confirmations' };
  app.post<{ Body: SandboxConfirmRequest }>('/api/sandbox/payment-intents/confirm', { schema, config: { rateLimit } }, async (request, reply) => {
    const card = checkSandboxCard(request.body.card);
    if (!card.ok) throw new HttpError(400, card.message);
    const outcome = await confirmSandboxIntent(services.db, request.body.clientSecret, card, request.body.billingDetails);
    if (outcome.kind === 'succeeded') await raiseSandboxPayment({ ...services, log: request.log }, outcome);
    return replyWithIntentOutcome(reply, outcome);
  });
};
