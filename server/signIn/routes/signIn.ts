/**
 * POST /sign-in/password: the sign-in page (/sign-in, the OpenID Provider's login prompt) sends the email and
 * password; a right one finishes the provider's login interaction and answers where the browser goes on
 * (server/signIn/oidcProvider.ts). Its path is under /sign-in because the provider's interaction cookie is scoped
 * to the page's path. Rate-limited per address (SIGN_INS_PER_15_MINUTES) and throttled per email
 * (SIGN_IN_FAILURES_PER_15_MINUTES, server/signIn/signInThrottle.ts); an unknown email gets the same answer, after
 * the same work, as a wrong password (server/signIn/verifySignIn.ts). 401 wrong email or password, 403 a login whose
 * seat was revoked or subscription ended, 410 no sign-in in progress (expired, or not started by this browser),
 * 429 throttled. GET /sign-in/hint uses a one-time login hint instead of the password. GET /sign-in/interaction
 * tells the page, as it loads, whether the sign-in its address names is still live in this browser.
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

/** The answers the page shows. */
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

/** Registers POST /sign-in/password (needs the rate-limit plugin on `app` or a parent). */
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

  // The page's first question when its address names a sign-in: is it still this browser's, waiting for a password?
  // Answered 200 either way, so an expired one is said at once, before a password is typed (not as a 410 after).
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

  // A sign-in whose login_hint is one of our one-time hints (docs/decisions/0034): used once, it signs the person in
  // without the password; an unknown, used or expired one ends the sign-in with login_required, and the platform
  // starts it again without the hint (the password page).
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
