/**
 * The one outbox (mail and the agreement site's webhooks that cannot be lost): it writes the rows of what the one
 * lifecycle announces (server/checkout/orderListeners.ts) in the lifecycle's transaction; ./outboxWorker.ts sends them.
 */
import type { OrderListener } from '../checkout';
import type { Config } from '../config';
import { raiseOrderEvent } from './orderEvents';
import { deleteSettledOutboxRows } from './outboxWorker';
import { raiseOwnerMail } from './ownerMail';

/**
 * What the outbox hears: an order's event (its mail and webhook), and what the owners must hear of; its part of the
 * retention sweep, what was sent or given up.
 */
export function outboxListener(config: Pick<Config, 'SUCCESS_SITE_WEBHOOK_URL'>): OrderListener {
  return {
    orderEvent: (tx, event) => raiseOrderEvent(tx, config, event),
    ownerNotice: (tx, notice) => raiseOwnerMail(tx, notice),
    sweepExpired: async (tx, { retentionDays }) => ({ outbox: await deleteSettledOutboxRows(tx, retentionDays) }),
  };
}

export type { FeatureMailContext, FeatureMailDelivery, FeatureMailRow, OutboxMailParts } from './mailParts';
export { compose } from './mailTemplates';
export { raiseSeatEvent } from './seatEvents';
