/**
 * The referrers' commissions (docs/decisions/0035): the ledger books what the one lifecycle announces about money
 * (server/checkout/orderListeners.ts), in the lifecycle's transaction; the console and the partner page read it.
 */
import type { OrderListener } from '../checkout';
import type { OutboxMailParts } from '../outbox';
import { bookEarned, bookLifecycleCommissions } from './ledger';
import { deleteExpiredPartnerLinks, deliverPartnerMail } from './partnerMail';

export { requestPartnerLink, usePartnerLink } from './partnerMail';
export { createPayoutBatch, findPayoutBatch, listPayoutBatches, markBatchPaid, referrerBalances, voidBatch } from './payouts';
export { ruleFor, setRule } from './rules';
export { entryJson, orderCommissions, readLedger, totalsOf } from './statements';
export { batchJson, commissionsOverview, genericPayoutCsv, paypalPayoutsCsv, setReferrerCommission } from './views';

/**
 * What the ledger hears: the first payment earns; later money (renewals, refunds, disputes) is booked or settled.
 * Its part of the retention sweep: the referrers' spent sign-in links.
 */
export function commissionsListener(): OrderListener {
  return {
    firstPaid: (tx, { order, invoice, clock }) => bookEarned(tx, order, invoice, clock),
    moneyChanged: (tx, { order, changes, clock, changeId }) => bookLifecycleCommissions(tx, order, changes, clock, changeId),
    sweepExpired: async (tx) => ({ partnerLinks: await deleteExpiredPartnerLinks(tx) }),
  };
}

/** The referrer's mail, sent whole when the outbox worker comes to a 'partner_' row (./partnerMail.ts). */
export function commissionsMail(): Pick<OutboxMailParts, 'referrerMail'> {
  return { referrerMail: { topicPrefix: 'partner_', deliver: deliverPartnerMail } };
}
