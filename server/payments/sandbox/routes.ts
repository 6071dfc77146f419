/**
 * The sandbox's routes (PaymentProvider.routes). The clock route changes every order's billing, so it exists only
 * with SANDBOX_CLOCK=1. An accepted payment is applied as `invoice.paid` before the answer, so the order is paid
 * even if the tab closes; its event id is the PaymentIntent's, so a repeated confirmation counts once.
 */
import type { FastifyBaseLogger, FastifyPluginAsync, FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { ClockAdvanceRequest } from '../../../src/contract/account';
import { ErrorResponse } from '../../../src/contract/checkout';
import {
  ChallengeRequiredResponse,
  SandboxAuthenticateRequest,
  SandboxConfirmRequest,
  SandboxDeclineResponse,
  SandboxIntentResponse,
} from '../../../src/contract/sandbox';
import { recordPaymentAttempt } from '../../funnel';
import { HttpError } from '../../http/httpError';
import { challengeRequired, isSolved, issueChallenge, recordDecline } from '../../security/confirmationChallenge';
import type { PaymentEvent, ProviderRouteOptions } from '../provider';
import { advanceSandboxClock, failSandboxRefunds, renewDueSandboxSubscriptions } from './billing';
import { checkSandboxCard } from './cards';
import { closeOverdueSandboxDisputes, closeSandboxDispute, openSandboxDisputeIfAny } from './disputes';
import { authenticateSandboxIntent, confirmSandboxIntent, transactionOfClientSecret, type IntentOutcome } from './intents';

/** The buyer sees this only if their browser could not solve the challenge by itself. */
export const CHALLENGE_REQUIRED = 'Please wait a moment while we verify this payment, then try again.';

const DAY_SECONDS = 24 * 60 * 60;

export const sandboxRoutes: FastifyPluginAsync<ProviderRouteOptions> = async (
  app,
  { challengeKey, nudgeOutbox, webhookStatus: _status, ...services },
) => {
  const rateLimit = { max: services.config.CONFIRMATIONS_PER_MINUTE, timeWindow: '1 minute', groupId: 'sandbox-confirmations' };

  app.post<{ Body: SandboxConfirmRequest }>(
    '/api/sandbox/payment-intents/confirm',
    {
      schema: {
        summary: 'Sandbox: confirm a PaymentIntent with a test card',
        body: SandboxConfirmRequest,
        response: { 200: SandboxIntentResponse, 402: SandboxDeclineResponse, 428: ChallengeRequiredResponse, '4xx': ErrorResponse },
      },
      config: { rateLimit },
    },
    async (request, reply) => {
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
      await settleAttempt({ ...services, log: request.log }, clientSecret, outcome, 'confirmation');
      if (outcome.kind === 'failed' || outcome.kind === 'too_many_failures') await recordDecline(services.db, request.ip);
      return replyWithIntentOutcome(reply, outcome);
    },
  );

  app.post<{ Body: SandboxAuthenticateRequest }>(
    '/api/sandbox/payment-intents/authenticate',
    {
      schema: {
        summary: 'Sandbox: complete or fail the authentication challenge of a PaymentIntent',
        body: SandboxAuthenticateRequest,
        response: { 200: SandboxIntentResponse, 402: SandboxDeclineResponse, '4xx': ErrorResponse },
      },
      config: { rateLimit },
    },
    async (request, reply) => {
      const outcome = await authenticateSandboxIntent(services.db, request.body.clientSecret, request.body.outcome);
      await settleAttempt({ ...services, log: request.log }, request.body.clientSecret, outcome, 'authentication');
      // A failed authentication is a refusal like a decline (server/security/confirmationChallenge.ts).
      if (outcome.kind === 'failed' || outcome.kind === 'too_many_failures') await recordDecline(services.db, request.ip);
      return replyWithIntentOutcome(reply, outcome);
    },
  );

  app.post<{ Params: { disputeId: string }; Body: { outcome: 'won' | 'lost' } }>(
    '/api/sandbox/disputes/:disputeId/close',
    {
      schema: {
        summary: 'Sandbox: the bank decides an open dispute (test card 4000 0000 0000 0259), won or lost',
        // The sandbox's dispute ids (./disputes.ts); anything else names no dispute (404).
        params: Type.Object({ disputeId: Type.String({ pattern: '^du_sbx_[A-Za-z0-9]{1,56}$' }) }),
        body: Type.Object({ outcome: Type.Union([Type.Literal('won'), Type.Literal('lost')]) }, { additionalProperties: false }),
        response: { 200: Type.Object({ outcome: Type.String() }), '4xx': ErrorResponse },
      },
    },
    async (request) => {
      const closed = await closeSandboxDispute(services.db, request.params.disputeId, request.body.outcome);
      if (!closed.ok)
        throw closed.refusal === 'unknown' ? new HttpError(404, 'No such dispute.') : new HttpError(409, 'This dispute is already closed.');
      await applySandboxEvents({ ...services, log: request.log }, [closed.event]);
      nudgeOutbox();
      return { outcome: request.body.outcome };
    },
  );

  if (!services.config.SANDBOX_CLOCK) return;
  app.post<{ Body: { days: number } }>(
    '/api/sandbox/clock/advance',
    {
      schema: {
        summary: 'Sandbox (SANDBOX_CLOCK=1): move the sandbox clock forward: renewals, overdue disputes lost, 5126 refunds failed',
        body: ClockAdvanceRequest,
        response: { 200: Type.Object({ now: Type.String(), renewals: Type.Integer() }), '4xx': ErrorResponse },
      },
    },
    async (request) => {
      const now = await advanceSandboxClock(services.db, request.body.days * DAY_SECONDS);
      if (!now) throw new HttpError(409, 'The sandbox clock goes at most 50 years ahead of today.');
      const renewals = await renewDueSandboxSubscriptions(services.db);
      const disputesLost = await closeOverdueSandboxDisputes(services.db);
      const refundsFailed = await failSandboxRefunds(services.db);
      await applySandboxEvents({ ...services, log: request.log }, [...renewals, ...disputesLost, ...refundsFailed]);
      nudgeOutbox();
      return { now: now.toISOString(), renewals: renewals.length };
    },
  );
};

/** What a card step and the sandbox's clock work with: the database, the request's logger, the one lifecycle. */
type SandboxContext = Pick<ProviderRouteOptions, 'db' | 'paymentEvents'> & { log: FastifyBaseLogger };

/** Never throws: the payment is taken whatever happens here, so a failure is left to server/checkout/reconcileOrders.ts. */
async function settleAttempt(
  context: SandboxContext,
  clientSecret: string,
  outcome: IntentOutcome,
  step: 'confirmation' | 'authentication',
) {
  if (outcome.kind === 'unknown' || outcome.kind === 'not_payable' || outcome.kind === 'not_awaiting_authentication') return;
  const transactionId = await transactionOfClientSecret(context.db, clientSecret).catch(() => undefined);
  if (transactionId) {
    const declineCode =
      outcome.kind === 'failed'
        ? (outcome.declineCode ?? outcome.code)
        : outcome.kind === 'too_many_failures'
          ? 'too_many_attempts'
          : undefined;
    await recordPaymentAttempt(context.db, transactionId, { step, ...(declineCode ? { declineCode } : {}) }, context.log);
  }
  if (outcome.kind !== 'succeeded') return;
  await applySandboxEvents(context, [
    {
      eventId: `sandbox:${outcome.paymentIntentId}:paid`,
      kind: 'invoice_paid',
      providerType: 'sandbox.invoice.paid',
      subscriptionId: outcome.subscriptionId,
      transactionId: outcome.transactionId,
    },
  ]);
  // Stripe's disputing test card: the payment stands, then the buyer's bank opens a dispute of it.
  const disputes = await openSandboxDisputeIfAny(context.db, outcome.subscriptionId).catch((error: unknown) => {
    context.log.error({ err: error }, 'Sandbox dispute could not be opened');
    return [];
  });
  await applySandboxEvents(context, disputes);
}

/** Never throws: the sandbox already did it; the next event or the sweep catches up. */
async function applySandboxEvents(context: SandboxContext, events: PaymentEvent[]): Promise<void> {
  for (const event of events) {
    try {
      await context.paymentEvents.events(context.log, [event]);
    } catch (error) {
      context.log.error(
        { err: error, eventId: event.eventId, transactionId: event.transactionId },
        'Sandbox payment event failed; the sweep catches up',
      );
    }
  }
}

/**
 * 200 `{ status, paymentIntentId }` for succeeded / requires_action; 402 `{ error, code }` for a failure, and
 * for a checkout closed after too many refused confirmations (Stripe's statuses and codes).
 * @throws HttpError 404 unknown client secret; 400 cancelled intent or one not awaiting authentication.
 */
function replyWithIntentOutcome(reply: FastifyReply, outcome: IntentOutcome) {
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
