/**
 * "Forgot your password?" on /sign-in (docs/decisions/0039): POST /sign-in/forgot answers 202 with the same words for
 * every email, limited per address and per email (429 past either); /sign-in/new-password/check and
 * /sign-in/new-password (400 a refused password, 410 a dead link). Under /sign-in, so the Origin check covers them.
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

export const NEW_PASSWORD_TEXT = {
  linkSent:
    'If that email has a login, a link is on its way: team members get one to set a new password, the buyer one to the manage page. It works once, for a limited time.',
  throttled: 'Too many links were asked for this email. Please wait 15 minutes and try again.',
  set: 'Your new password is set, and you were signed out everywhere. Go back to the training platform and sign in with it.',
} as const;

/** Each offers the way on. */
export const LINK_PROBLEMS: Record<NewPasswordLinkProblem, string> = {
  unknown: 'This link is not valid, or a newer one replaced it. Please use the newest mail, or ask for a new link.',
  expired: 'This link has expired: it works for one hour. Please ask for a new one.',
  used: 'This link was already used to set a password. If you need to change it again, ask for a new link.',
  revoked: 'This login no longer gives access to the training: the seat was taken back or is on hold.',
};

interface NewPasswordRouteOptions {
  config: Config;
  db: Database;
  nudgeOutbox: () => void;
}

const errors = { '4xx': ErrorResponse };

/** Enough to retry, too few to flood an inbox. */
export const LINKS_PER_EMAIL_PER_15_MINUTES = 3;

/** Needs the rate-limit plugin on `app` or a parent. */
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
      // Known or not, every email counts (a null result too).
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
