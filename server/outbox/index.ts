/**
 * The one outbox (docs/decisions/0019): it writes the rows of what the lifecycle announces, in its transaction;
 * ./outboxWorker.ts sends them.
 */
import type { OrderListener } from '../checkout';
import type { Config } from '../config';
import { raiseOrderEvent } from './orderEvents';
import { deleteSettledOutboxRows } from './outboxWorker';
import { raiseOwnerMail } from './ownerMail';

/** Its part of the retention sweep: what was sent or given up. */
export function outboxListener(config: Pick<Config, 'SUCCESS_SITE_WEBHOOK_URL'>): OrderListener {
  return {
    orderEvent: (tx, event) => raiseOrderEvent(tx, config, event),
    ownerNotice: (tx, notice) => raiseOwnerMail(tx, notice),
    sweepExpired: async (tx, { retentionDays }) => ({ outbox: await deleteSettledOutboxRows(tx, retentionDays) }),
  };
}

export type { FeatureMailContext, FeatureMailDelivery, FeatureMailRow, OutboxMailParts } from './mailParts';
export { compose } from './mailTemplates';
export { smtpMailer, startOutboxWorker } from './outboxWorker';
export { raiseSeatEvent } from './seatEvents';
