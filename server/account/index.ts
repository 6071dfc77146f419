/** The buyer's manage page API, /api/account/* (./routes/index.ts), under the API's rate limit. */
import type { FastifyInstance } from 'fastify';
import type { OrderListener, OrderServices } from '../checkout';
import { countAgainstApiLimit } from '../http/apiLimit';
import type { OutboxMailParts } from '../outbox';
import { deleteExpiredAccountLinks, issueAccountLink, mailSignInLink, newestSubscriptionOf } from './accountLinks';
import { accountRoutes } from './routes';

export { cancelAtPeriodEnd } from './manageSubscription';

/**
 * What the account hears: a finalize answered no credentials, so the buyer is mailed a sign-in link; its part of the
 * retention sweep, spent links.
 */
export function accountListener(): OrderListener {
  return {
    signInLinkWanted: (tx, { transactionId }) => mailSignInLink(tx, transactionId),
    sweepExpired: async (tx) => ({ accountLinks: await deleteExpiredAccountLinks(tx) }),
  };
}

/** The links to the manage page a mail carries, minted when it is sent, and the order a requested link is for. */
export function accountMail(): Pick<OutboxMailParts, 'manageLinks'> {
  return { manageLinks: { issue: issueAccountLink, newestSubscriptionOf } };
}

/** Registers /api/account/*; `nudgeOutbox` sends the mail a change causes now. */
export async function accountPlugin(app: FastifyInstance, options: OrderServices & { nudgeOutbox: () => void }): Promise<void> {
  countAgainstApiLimit(app);
  await app.register(accountRoutes, options);
}
