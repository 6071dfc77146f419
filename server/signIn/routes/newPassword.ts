/**
 * "Forgot your password?" for everyone who signs in on /sign-in (docs/decisions/0039):
 * POST /sign-in/forgot queues the answer for an email (../newPassword.ts: a member's "set a new password"
 * link, a buyer's /account link, nothing for anyone else) and answers 202 with the same words in every case;
 * rate-limited per address (ACCOUNT_LINKS_PER_15_MINUTES) and per email (LINKS_PER_EMAIL_PER_15_MINUTES, counted
 * by the sign-in's throttle, server/signIn/signInThrottle.ts, known and unknown emails alike), 429 past either. POST /sign-in/new-password/check tells the page
 * whose password a link sets; POST /sign-in/new-password sets it (400 a password the rules refuse, 410 a link that
 * is unknown, expired, used or whose seat was taken back; both change nothing). Under /sign-in, so the one Origin
 * check (server/sessions/sameOrigin.ts) covers them.
 */
import type { FastifyInstance } from 'fastify';
import { ErrorResponse } from '../../../src/contract/checkout';
import {
  NewPasswordLink,
  NewPasswordLinkRequest,
  NewPasswordRequest,
  NewPasswordResponse,
  PasswordLinkRequest,
  PasswordLinkResponse,
} from '../../../src/contract/signIn';
import { ownerSignInThrottle, THROTTLED } from '../signInThrottle';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import { HttpError } from '../../http/httpError';
import { peekNewPasswordLink, requestPasswordLink, setNewPassword, type NewPasswordLinkProblem } from '../newPassword';

/** The words of the answers. */
export const NEW_PASSWORD_TEXT = {
  linkSent:
    'If that email has a login, a link is on its way: team members get one to set a new password, the buyer one to the manage page. It works once, for a limited time.',
  throttled: 'Too many links were asked for this email. Please wait 15 minutes and try again.',
  set: 'Your new password is set, and you were signed out everywhere. Go back to the training platform and sign in with it.',
} as const;

/** Why a link cannot be used, in words, each offering the way on. */
export const LINK_PROBLEMS: Record<NewPasswordLinkProblem, string> = {
  unknown: 'This link is not valid, or a newer one replaced it. Please use the newest mail, or ask for a new link.',
  expired: 'This link has expired: it works for one hour. Please ask for a new one.',
  used: 'This link was already used to set a password. If you need to change it again, ask for a new link.',
  revoked: 'This login no longer gives access to the training: the seat was taken back or is on hold.',
};

interface NewPasswordRouteOptions {
  config: Config;
  db: Database;
  /** Wakes the outbox worker, so the mail goes out now. */
  nudgeOutbox: () => void;
}

const errors = { '4xx': ErrorResponse };

/** Link requests one email may cause in 15 minutes, from any address: enough to retry, too few to flood an inbox. */
export const LINKS_PER_EMAIL_PER_15_MINUTES = 3;

/** Registers the three routes (needs the rate-limit plugin on `app` or a parent). */
export async function newPasswordRoutes(app: FastifyInstance, { config, db, nudgeOutbox }: NewPasswordRouteOptions): Promise<void> {
  const perEmail = ownerSignInThrottle(app, LINKS_PER_EMAIL_PER_15_MINUTES, 'password-link');
  const perAddress = { rateLimit: { max: config.ACCOUNT_LINKS_PER_15_MINUTES, timeWindow: '15 minutes' } };

  app.post<{ Body: PasswordLinkRequest }>(
    '/sign-in/forgot',
    {
      schema: {
        summary: 'Sign-in page: email a link to set a new password (members) or to the manage page (buyers)',
        body: PasswordLinkRequest,
        response: { 202: PasswordLinkResponse, ...errors },
      },
      config: perAddress,
    },
    async (request, reply) => {
      const { email } = request.body;
      // Every request counts against the email (a null result is counted), known or not.
      const queued = await perEmail(request, email, async () => {
        await requestPasswordLink(db, email);
        return null;
      });
      if (queued === THROTTLED) throw new HttpError(429, NEW_PASSWORD_TEXT.throttled);
      nudgeOutbox();
      return reply.code(202).send({ message: NEW_PASSWORD_TEXT.linkSent });
    },
  );

  const perAddressSignIn = { rateLimit: { max: config.SIGN_INS_PER_15_MINUTES, timeWindow: '15 minutes' } };

  app.post<{ Body: NewPasswordLinkRequest }>(
    '/sign-in/new-password/check',
    {
      schema: {
        summary: 'New password page: whose password the link sets',
        body: NewPasswordLinkRequest,
        response: { 200: NewPasswordLink, ...errors },
      },
      config: perAddressSignIn,
    },
    async (request) => {
      const link = await peekNewPasswordLink(db, request.body.token);
      if ('problem' in link) throw new HttpError(410, LINK_PROBLEMS[link.problem]);
      return link;
    },
  );

  app.post<{ Body: NewPasswordRequest }>(
    '/sign-in/new-password',
    {
      schema: {
        summary: 'New password page: set the password the person chose (the link is spent, their sign-ins end)',
        body: NewPasswordRequest,
        response: { 200: NewPasswordResponse, ...errors },
      },
      config: perAddressSignIn,
    },
    async (request) => {
      const result = await setNewPassword(db, request.body.token, request.body.password);
      if ('weak' in result) throw new HttpError(400, result.weak);
      if ('problem' in result) throw new HttpError(410, LINK_PROBLEMS[result.problem]);
      request.log.info({ transactionId: result.transactionId }, 'A member set a new password; their sign-ins ended');
      return { message: NEW_PASSWORD_TEXT.set };
    },
  );
}
