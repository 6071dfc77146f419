/**
 * The training platform's sign-in when a client is configured (docs/decisions/0033): the OpenID Provider under /oidc,
 * /sign-in's calls, a member's new password; under the API's rate limit.
 */
import { hkdfSync } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { OrderListener } from '../checkout';
import type { Config } from '../config';
import type { OutboxMailParts } from '../outbox';
import type { Database } from '../db/client';
import { countAgainstApiLimit } from '../http/apiLimit';
import type { PrivateJwks } from '../security/jwks';
import { MEMBER_NEW_PASSWORD, mintNewPasswordLink, PASSWORD_LINK_REQUEST, passwordLinkOf } from './newPassword';
import { generateJwks } from './oidcKeys';
import { deleteExpiredOidcRecords } from './oidcStore';
import { createOidcProvider, mountOidcProvider } from './oidcProvider';
import { newPasswordRoutes } from './routes/newPassword';
import { signInRoute } from './routes/signIn';

interface SignInOptions {
  config: Config;
  db: Database;
  nudgeOutbox: () => void;
  /** The provider's cookie keys derive from it, so every process reads every other's. */
  cookieSecret: string;
  /** Default: a fresh key, for one process. */
  oidcJwks?: PrivateJwks;
}

/** Its part of the retention sweep, with or without OIDC_CLIENT_ID: the provider's expired records. */
export function signInListener(): OrderListener {
  return { sweepExpired: async (tx) => ({ oidcRecords: await deleteExpiredOidcRecords(tx) }) };
}

/** "Forgot your password?" as the outbox sends it: a member's link is minted when sent. */
export function signInMail(): Pick<OutboxMailParts, 'passwordLinks'> {
  return {
    passwordLinks: {
      requestTopic: PASSWORD_LINK_REQUEST,
      memberTopic: MEMBER_NEW_PASSWORD,
      whomFor: passwordLinkOf,
      mint: mintNewPasswordLink,
    },
  };
}

export async function signInPlugin(
  app: FastifyInstance,
  { config, db, nudgeOutbox, cookieSecret, oidcJwks }: SignInOptions,
): Promise<void> {
  if (!config.OIDC_CLIENT_ID) return;
  const provider = createOidcProvider({
    config,
    db,
    jwks: oidcJwks ?? generateJwks(),
    cookieKeys: [Buffer.from(hkdfSync('sha256', cookieSecret, Buffer.alloc(0), 'oidc cookies', 32)).toString('hex')],
  });
  countAgainstApiLimit(app);
  await mountOidcProvider(app, provider, config);
  await app.register(signInRoute, { config, db, provider });
  await app.register(newPasswordRoutes, { config, db, nudgeOutbox });
}

export { issueLoginHint } from './loginHints';
export { loadOidcJwks } from './oidcKeys';
export { endPersonSignIns } from './oidcStore';
export { findPersonById, maySignIn } from './people';
export { normalEmail, ownerSignInThrottle, THROTTLED } from './signInThrottle';
export { findBuyerOfOrder } from './people';
