import type { FastifyInstance } from 'fastify';
import type { OrderListener, OrderServices } from '../checkout';
import { countAgainstApiLimit } from '../http/apiLimit';
import type { OutboxMailParts } from '../outbox';
import { deleteExpiredAccountLinks, issueAccountLink, mailSignInLink, newestSubscriptionOf } from './accountLinks';
import { accountRoutes } from './routes';

export { cancelAtPeriodEnd } from './manageSubscription';

/** Its part of the retention sweep: spent links. */
export function accountListener(): OrderListener {
  return {
    signInLinkWanted: (tx, { transactionId }) => mailSignInLink(tx, transactionId),
    sweepExpired: async (tx) => ({ accountLinks: await deleteExpiredAccountLinks(tx) }),
  };
}

export function accountMail(): Pick<OutboxMailParts, 'manageLinks'> {
  return { manageLinks: { issue: issueAccountLink, newestSubscriptionOf } };
}

export async function accountPlugin(app: FastifyInstance, options: OrderServices & { nudgeOutbox: () => void }): Promise<void> {
  countAgainstApiLimit(app);
  await app.register(accountRoutes, options);
}
