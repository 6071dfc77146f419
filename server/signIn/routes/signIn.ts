/**
 * POST /sign-in/password, the provider's login prompt; under /sign-in because the interaction cookie is scoped to the
 * page. An unknown email gets a wrong password's answer after the same work (./verifySignIn.ts): 401; 403 a revoked
 * seat or ended subscription; 410 no sign-in in progress; 429 throttled. GET /sign-in/hint uses a login hint instead;
 * GET /sign-in/interaction says whether the sign-in is still live.
 */
import type { FastifyInstance } from 'fastify';
import type Provider from 'oidc-provider';
import { ErrorResponse } from '../../../src/contract/checkout';
import {
  PasswordSignInRequest,
  PasswordSignInResponse,
  SignInInteractionQuery,
  SignInInteractionResponse,
} from '../../../src/contract/signIn';
import { ownerSignInThrottle, THROTTLED } from '../signInThrottle';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import { HttpError } from '../../http/httpError';
import { useLoginHint } from '../loginHints';
import { HINT_ROUTE, providerRequest } from '../oidcProvider';
import { findPersonById, maySignIn } from '../people';
import { verifySignIn } from '../verifySignIn';

export const SIGN_IN_ERRORS = {
  wrong: 'The email or password is not right.',
  noAccess:
    'This login no longer gives access to the training: the subscription has ended, or the seat was taken back or given to someone else.',
  expired: 'This sign-in has expired. Please go back to the training platform and choose “Sign in” again.',
  throttled: 'Too many failed sign-ins to this account. Please wait 15 minutes and try again.',
} as const;

interface SignInRouteOptions {
  config: Config;
  db: Database;
  provider: Provider;
}

/** Needs the rate-limit plugin on `app` or a parent. */
export async function signInRoute(app: FastifyInstance, { config, db, provider }: SignInRouteOptions): Promise<void> {
  const throttle = ownerSignInThrottle(app, config.SIGN_IN_FAILURES_PER_15_MINUTES, 'person');
  app.post<{ Body: PasswordSignInRequest; Reply: PasswordSignInResponse }>(
    '/sign-in/password',
    {
      schema: {
        summary: 'Sign-in page: sign in with the email and password the success page gave',
        body: PasswordSignInRequest,
        response: { 200: PasswordSignInResponse, '4xx': ErrorResponse },
      },
      config: { rateLimit: { max: config.SIGN_INS_PER_15_MINUTES, timeWindow: '15 minutes' } },
    },
    async (request, reply) => {
      const interaction = await provider.interactionDetails(providerRequest(request, config), reply.raw).catch(() => null);
      if (!interaction || interaction.prompt.name !== 'login') throw new HttpError(410, SIGN_IN_ERRORS.expired);
      const { email, password } = request.body;
      const check = await throttle(request, email, async () => {
        const result = await verifySignIn(db, email, password);
        return result.outcome === 'wrong' ? null : result;
      });
      if (check === THROTTLED) throw new HttpError(429, SIGN_IN_ERRORS.throttled);
      if (!check) throw new HttpError(401, SIGN_IN_ERRORS.wrong);
      if (check.outcome === 'no_access') {
        request.log.info({ transactionId: check.person.orderId }, 'Sign-in refused: no access');
        throw new HttpError(403, SIGN_IN_ERRORS.noAccess);
      }
      const redirectTo = await provider.interactionResult(
        request.raw,
        reply.raw,
        { login: { accountId: check.person.personId } },
        { mergeWithLastSubmission: false },
      );
      request.log.info({ transactionId: check.person.orderId }, 'Signed in to the training platform');
      return { redirectTo };
    },
  );

  // Answered 200 either way, so an expired sign-in is said before a password is typed.
  app.get<{ Querystring: SignInInteractionQuery; Reply: SignInInteractionResponse }>(
    '/sign-in/interaction',
    {
      schema: {
        summary: 'Sign-in page: whether the sign-in its address names is still live in this browser',
        querystring: SignInInteractionQuery,
        response: { 200: SignInInteractionResponse, '4xx': ErrorResponse },
      },
    },
    async (request, reply) => {
      const interaction = await provider.interactionDetails(providerRequest(request, config), reply.raw).catch(() => null);
      return { live: interaction?.prompt.name === 'login' && interaction.uid === request.query.interaction };
    },
  );

  // docs/decisions/0034: a dead hint ends the sign-in with login_required, and the platform starts again without it.
  app.get(
    HINT_ROUTE,
    { schema: { hide: true }, config: { rateLimit: { max: config.SIGN_INS_PER_15_MINUTES, timeWindow: '15 minutes' } } },
    async (request, reply) => {
      const interaction = await provider.interactionDetails(providerRequest(request, config), reply.raw).catch(() => null);
      if (!interaction || interaction.prompt.name !== 'login') throw new HttpError(410, SIGN_IN_ERRORS.expired);
      const hint = interaction.params.login_hint;
      const personId = typeof hint === 'string' ? await useLoginHint(db, hint) : null;
      const person = personId ? await findPersonById(db, personId) : null;
      reply.hijack();
      if (person && maySignIn(person)) {
        request.log.info({ transactionId: person.orderId }, 'Signed in to the training platform with a login hint');
        await provider.interactionFinished(
          request.raw,
          reply.raw,
          { login: { accountId: person.personId } },
          { mergeWithLastSubmission: false },
        );
        return;
      }
      await provider.interactionFinished(
        request.raw,
        reply.raw,
        {
          error: 'login_required',
          error_description: 'The sign-in link was already used or has expired. Please sign in with your password.',
        },
        { mergeWithLastSubmission: false },
      );
    },
  );
}
