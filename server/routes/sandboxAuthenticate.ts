/**
 * POST /api/sandbox/payment-intents/authenticate: the buyer completes or fails the sandbox's authentication
 * challenge (test card 4000 0025 0000 3155). Only for an intent in requires_action; a failure sends it back to
 * requires_payment_method. Registered only when the provider is the sandbox.
 */
import type { FastifyPluginAsync } from 'fastify';
import { closedObject } from '../http/schemaParts';
import type { OrderServices } from '../orders/orderContext';
import { authenticateSandboxIntent } from '../payments/sandboxIntents';
import { replyWithIntentOutcome } from './sandboxOutcome';

interface AuthenticateBody {
  clientSecret: string;
  outcome: 'completed' | 'failed';
}

const body = closedObject({
  clientSecret: { type: 'string', minLength: 1, maxLength: 255 },
  outcome: { type: 'string', enum: ['completed', 'failed'] },
});

export const sandboxAuthenticateRoute: FastifyPluginAsync<OrderServices> = async (app, { db }) => {
  app.post<{ Body: AuthenticateBody }>(
    '/api/sandbox/payment-intents/authenticate',
    { schema: { body } },
    async (request, reply) => {
      const outcome = await authenticateSandboxIntent(db, request.body.clientSecret, request.body.outcome);
      return replyWithIntentOutcome(reply, outcome);
    },
  );
};
