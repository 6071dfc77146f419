/**
 * POST /api/sandbox/payment-intents/authenticate: the buyer completes or fails the sandbox's authentication
 * challenge (test card 4000 0025 0000 3155). Only for an intent in requires_action; a failure sends it back to
 * requires_payment_method. Registered only when the provider is the sandbox.
 */
import type { FastifyPluginAsync } from 'fastify';
import { closedObject, text } from '../http/schemaParts';
import type { OrderServices } from '../orders/orderContext';
import { raiseSandboxPayment } from '../orders/sandboxPaymentEvent';
import { authenticateSandboxIntent } from '../payments/sandboxIntents';
import { replyWithIntentOutcome } from './sandboxOutcome';

interface AuthenticateBody {
  clientSecret: string;
  outcome: 'completed' | 'failed';
}

const body = closedObject({
  clientSecret: text(1, 255),
  outcome: { type: 'string', enum: ['completed', 'failed'] },
});

export const sandboxAuthenticateRoute: FastifyPluginAsync<OrderServices> = async (app, services) => {
  app.post<{ Body: AuthenticateBody }>(
    '/api/sandbox/payment-intents/authenticate',
    {
      schema: { body },
      config: { rateLimit: { max: services.config.CONFIRMATIONS_PER_MINUTE, timeWindow: '1 minute', groupId: 'sandbox-confirmations' } },
    },
    async (request, reply) => {
      const outcome = await authenticateSandboxIntent(services.db, request.body.clientSecret, request.body.outcome);
      if (outcome.kind === 'succeeded') await raiseSandboxPayment({ ...services, log: request.log }, outcome);
      return replyWithIntentOutcome(reply, outcome);
    },
  );
};
