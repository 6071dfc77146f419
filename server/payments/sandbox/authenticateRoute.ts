/**
 * POST /api/sandbox/payment-intents/authenticate: the buyer completes or fails the sandbox's authentication
 * challenge (test card 4000 0025 0000 3155). Only for an intent in requires_action; a failure sends it back to
 * requires_payment_method. Registered only when the provider is the sandbox.
 */
import type { FastifyPluginAsync } from 'fastify';
import { ErrorResponse } from '../../../src/contract/checkout';
import { SandboxAuthenticateRequest, SandboxDeclineResponse, SandboxIntentResponse } from '../../../src/contract/sandbox';
import type { OrderServices } from '../../orders/order';
import { recordDecline } from '../../security/confirmationChallenge';
import { replyWithIntentOutcome } from './intentReplies';
import { authenticateSandboxIntent } from './intents';
import { raiseSandboxPayment, recordSandboxAttempt } from './paymentEvents';

const schema = {
  summary: 'Sandbox: complete or fail the authentication challenge of a PaymentIntent',
  body: SandboxAuthenticateRequest,
  response: { 200: SandboxIntentResponse, 402: SandboxDeclineResponse, '4xx': ErrorResponse },
};

export const sandboxAuthenticateRoute: FastifyPluginAsync<OrderServices> = async (app, services) => {
  app.post<{ Body: SandboxAuthenticateRequest }>(
    '/api/sandbox/payment-intents/authenticate',
    {
      schema,
      config: { rateLimit: { max: services.config.CONFIRMATIONS_PER_MINUTE, timeWindow: '1 minute', groupId: 'sandbox-confirmations' } },
    },
    async (request, reply) => {
      const outcome = await authenticateSandboxIntent(services.db, request.body.clientSecret, request.body.outcome);
      await recordSandboxAttempt({ ...services, log: request.log }, request.body.clientSecret, outcome, 'authentication');
      if (outcome.kind === 'succeeded') await raiseSandboxPayment({ ...services, log: request.log }, outcome);
      // A failed authentication is a refusal like a decline (server/security/confirmationChallenge.ts).
      if (outcome.kind === 'failed' || outcome.kind === 'too_many_failures') await recordDecline(services.db, request.ip);
      return replyWithIntentOutcome(reply, outcome);
    },
  );
};
