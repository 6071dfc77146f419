/**
 * The referrers' commissions (docs/decisions/0035): the ledger books what the lifecycle announces about money, in its
 * transaction.
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

/** The first payment earns; later money is booked or settled. Its part of the retention sweep: spent /partner links. */
export function commissionsListener(): OrderListener {
  return {
    firstPaid: (tx, { order, invoice, clock }) => bookEarned(tx, order, invoice, clock),
    moneyChanged: (tx, { order, changes, clock, changeId }) => bookLifecycleCommissions(tx, order, changes, clock, changeId),
    sweepExpired: async (tx) => ({ partnerLinks: await deleteExpiredPartnerLinks(tx) }),
  };
}

export function commissionsMail(): Pick<OutboxMailParts, 'referrerMail'> {
  return { referrerMail: { topicPrefix: 'partner_', deliver: deliverPartnerMail } };
}
