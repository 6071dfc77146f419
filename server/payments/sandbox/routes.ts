/**
 * The sandbox's own routes, one Fastify plugin registered only when the sandbox is the provider (server/app.ts):
 * - POST /api/sandbox/payment-intents/confirm and …/authenticate: the sandbox card form (./confirmRoute.ts,
 *   ./authenticateRoute.ts).
 * - POST /api/sandbox/clock/advance `{ days }`: moves the sandbox clock forward and runs its renewals, so tests and
 *   demos see a subscription's months in seconds. It changes the billing of every order, so it exists only when
 *   SANDBOX_CLOCK=1 (tests, demos); otherwise it answers 404 like any unknown path.
 */
import type { FastifyPluginAsync } from 'fastify';
import { Type } from 'typebox';
import { ClockAdvanceRequest } from '../../../src/contract/account';
import { ErrorResponse } from '../../../src/contract/checkout';
import type { ProviderRouteOptions } from '../provider';
import { sandboxAuthenticateRoute } from './authenticateRoute';
import { advanceSandboxClock, renewDueSandboxSubscriptions } from './billing';
import { sandboxConfirmRoute } from './confirmRoute';
import { applySandboxEvents } from './paymentEvents';

const DAY_SECONDS = 24 * 60 * 60;

export const sandboxRoutes: FastifyPluginAsync<ProviderRouteOptions> = async (app, { challengeKey, nudgeOutbox, webhookStatus: _status, ...services }) => {
  await app.register(sandboxConfirmRoute, { ...services, challengeKey });
  await app.register(sandboxAuthenticateRoute, services);
  if (!services.config.SANDBOX_CLOCK) return;
  app.post<{ Body: { days: number } }>(
    '/api/sandbox/clock/advance',
    {
      schema: {
        summary: 'Sandbox (SANDBOX_CLOCK=1): move the sandbox clock forward and run renewals',
        body: ClockAdvanceRequest,
        response: { 200: Type.Object({ now: Type.String(), renewals: Type.Integer() }), '4xx': ErrorResponse },
      },
    },
    async (request) => {
      const now = await advanceSandboxClock(services.db, request.body.days * DAY_SECONDS);
      const events = await renewDueSandboxSubscriptions(services.db);
      await applySandboxEvents({ ...services, log: request.log }, events);
      nudgeOutbox();
      return { now: now.toISOString(), renewals: events.length };
    },
  );
};
