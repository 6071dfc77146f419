/**
 * POST /api/sandbox/payment-intents/confirm: the sandbox card form confirms its PaymentIntent with a test card
 * (architecture.md, "sandbox"; rules in server/payments/sandboxCards.ts and sandboxIntents.ts). Registered only
 * when the provider is the sandbox. 200 succeeded / requires_action; 402 declined; 400 bad card; 404 unknown.
 * An accepted payment completes its order before the answer (./paymentEvents.ts).
 * 428 with a proof-of-work challenge once the client address has too many refusals this hour
 * (server/security/confirmationChallenge.ts); the card form solves it and sends the card again with the solution.
 * Each confirmation of a checkout's intent is a 'payment_submitted' funnel event, each refusal also 'payment_failed'.
 */
import type { FastifyPluginAsync } from 'fastify';
import { ErrorResponse } from '../../../src/contract/checkout';
import {
  ChallengeRequiredResponse,
  SandboxConfirmRequest,
  SandboxDeclineResponse,
  SandboxIntentResponse,
} from '../../../src/contract/sandbox';
import { HttpError } from '../../http/httpError';
import type { OrderServices } from '../../orders/order';
import { challengeRequired, isSolved, issueChallenge, recordDecline } from '../../security/confirmationChallenge';
import { checkSandboxCard } from './cards';
import { replyWithIntentOutcome } from './intentReplies';
import { confirmSandboxIntent } from './intents';
import { raiseSandboxPayment, recordSandboxAttempt } from './paymentEvents';

/** The buyer sees this only if their browser could not solve the challenge by itself. */
export const CHALLENGE_REQUIRED = 'Please wait a moment while we verify this payment, then try again.';

interface SandboxConfirmOptions extends OrderServices {
  /** Signs and checks proof-of-work challenges (confirmationChallenge.ts challengeKeyFrom). */
  challengeKey: string;
}

const schema = {
  summary: 'Sandbox: confirm a PaymentIntent with a test card',
  body: SandboxConfirmRequest,
  response: { 200: SandboxIntentResponse, 402: SandboxDeclineResponse, 428: ChallengeRequiredResponse, '4xx': ErrorResponse },
};

export const sandboxConfirmRoute: FastifyPluginAsync<SandboxConfirmOptions> = async (app, { challengeKey, ...services }) => {
  const rateLimit = { max: services.config.CONFIRMATIONS_PER_MINUTE, timeWindow: '1 minute', groupId: 'sandbox-confirmations' };
  app.post<{ Body: SandboxConfirmRequest }>('/api/sandbox/payment-intents/confirm', { schema, config: { rateLimit } }, async (request, reply) => {
    const { clientSecret, challenge } = request.body;
    if (await challengeRequired(services.db, request.ip, services.config.DECLINES_BEFORE_CHALLENGE)) {
      if (!challenge || !(await isSolved(challengeKey, challenge, clientSecret))) {
        request.log.info('Confirmation needs a solved challenge');
        return reply.code(428).send({ error: CHALLENGE_REQUIRED, challenge: await issueChallenge(challengeKey, clientSecret) });
      }
    }
    const card = checkSandboxCard(request.body.card);
    if (!card.ok) throw new HttpError(400, card.message);
    const outcome = await confirmSandboxIntent(services.db, clientSecret, card, request.body.billingDetails);
    await recordSandboxAttempt({ ...services, log: request.log }, clientSecret, outcome, 'confirmation');
    if (outcome.kind === 'succeeded') await raiseSandboxPayment({ ...services, log: request.log }, outcome);
    if (outcome.kind === 'failed' || outcome.kind === 'too_many_failures') await recordDecline(services.db, request.ip);
    return replyWithIntentOutcome(reply, outcome);
  });
};

