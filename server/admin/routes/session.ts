/** The console's session (docs/decisions/0022), rate-limited per address and throttled per owner email. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { OwnerSession, SignInRequest } from '../../../src/contract/admin';
import { ErrorResponse } from '../../../src/contract/checkout';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import { HttpError } from '../../http/httpError';
import { ownerEmail, verifyOwner } from '../owners';
import { ownerSignInThrottle, THROTTLED } from '../../signIn';
import type { SessionKeeper } from '../../sessions/sessions';

interface SessionRoutesOptions {
  db: Database;
  config: Config;
  ownerSessions: SessionKeeper;
}

const SIGN_IN_REFUSED = 'Wrong email or password.';
const SIGN_IN_REQUIRED = 'Please sign in to the console.';
const SIGN_IN_THROTTLED = 'Too many failed sign-ins to this account. Please wait 15 minutes and try again.';

/** @throws HttpError 401 without a live session or when the owner is gone. */
export async function signedInOwner(
  db: Database,
  ownerSessions: SessionKeeper,
  request: FastifyRequest,
): Promise<{ id: string; email: string }> {
  const session = await ownerSessions.current(request);
  const email = session ? await ownerEmail(db, session.subject) : undefined;
  if (!session || !email) throw new HttpError(401, SIGN_IN_REQUIRED);
  return { id: session.subject, email };
}

export async function adminSessionRoutes(app: FastifyInstance, { db, config, ownerSessions }: SessionRoutesOptions): Promise<void> {
  const throttle = ownerSignInThrottle(app, config.OWNER_SIGN_IN_FAILURES_PER_15_MINUTES);
  app.post<{ Body: SignInRequest }>(
    '/api/admin/sign-in',
    {
      schema: {
        summary: "Console: sign in with an owner's email and password",
        body: SignInRequest,
        response: { 200: OwnerSession, '4xx': ErrorResponse },
      },
      config: { rateLimit: { max: config.SIGN_INS_PER_15_MINUTES, timeWindow: '15 minutes' } },
    },
    async (request, reply) => {
      const { email, password } = request.body;
      const owner = await throttle(request, email, () => verifyOwner(db, email, password));
      if (owner === THROTTLED) {
        request.log.warn('Console sign-in refused: too many failures for this email');
        throw new HttpError(429, SIGN_IN_THROTTLED);
      }
      if (!owner) {
        request.log.warn('Console sign-in refused');
        throw new HttpError(401, SIGN_IN_REFUSED);
      }
      await ownerSessions.open(request, reply, owner.id);
      request.log.info({ ownerId: owner.id }, 'Console sign-in');
      return { email: owner.email };
    },
  );

  app.post('/api/admin/sign-out', { schema: { summary: 'Console: sign out', response: { 204: Type.Null() } } }, async (request, reply) => {
    await ownerSessions.close(request, reply);
    return reply.code(204).send();
  });

  app.get(
    '/api/admin/session',
    { schema: { summary: 'Console: the signed-in owner', response: { 200: OwnerSession, 401: ErrorResponse } } },
    async (request) => ({
      email: (await signedInOwner(db, ownerSessions, request)).email,
    }),
  );
}
