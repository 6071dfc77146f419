/**
 * An order's events the buyer and the agreement site hear of, raised in the transaction of the change: its mail and,
 * with SUCCESS_SITE_WEBHOOK_URL, its webhook. `dedupeKey` names the event, so raising it again adds nothing.
 */
import type { OrderEvent } from '../checkout';
import type { Config } from '../config';
import type { Transaction } from '../db/client';
import { outbox } from '../db/schema';

const MAIL: Record<OrderEvent['kind'], string | null> = {
  activated: 'order_confirmation',
  renewal_paid: 'renewal_receipt',
  proration_paid: 'proration_receipt',
  payment_failed: 'payment_failed',
  seats_changed: 'seats_changed',
  cancel_scheduled: 'cancellation_confirmed',
  cancel_undone: 'cancellation_undone',
  cancelled: null,
  refunded: 'refund_issued',
  refund_asked: 'refund_asked',
};

const WEBHOOK: Record<OrderEvent['kind'], string | null> = {
  activated: 'subscription.activated',
  renewal_paid: null,
  proration_paid: null,
  payment_failed: 'subscription.past_due',
  seats_changed: 'subscription.seats_changed',
  cancel_scheduled: 'subscription.cancel_scheduled',
  cancel_undone: 'subscription.cancel_undone',
  cancelled: 'subscription.cancelled',
  refunded: 'subscription.refunded',
  refund_asked: null,
};

/** The invoice, or the provider event for a change (so a second cancellation after an undo mails again). */
function occurrence(event: OrderEvent): string {
  switch (event.kind) {
    case 'activated':
    case 'cancelled':
    case 'refund_asked':
      return '';
    case 'renewal_paid':
    case 'proration_paid':
    case 'payment_failed':
      return event.invoiceId;
    case 'seats_changed':
    case 'cancel_scheduled':
    case 'cancel_undone':
    case 'refunded':
      return event.changeId;
  }
}

/** @throws database errors: the change rolls back with it. */
export async function raiseOrderEvent(tx: Transaction, config: Pick<Config, 'SUCCESS_SITE_WEBHOOK_URL'>, event: OrderEvent): Promise<void> {
  const { kind, transactionId, ...details } = event;
  const payload = { event: kind, ...details } as Record<string, string | number | null>;
  const key = `${kind}:${transactionId}:${occurrence(event)}`;
  const rows: (typeof outbox.$inferInsert)[] = [];
  const mail = MAIL[kind];
  if (mail) rows.push({ kind: 'mail', topic: mail, dedupeKey: `mail:${key}`, transactionId, payload });
  const webhook = WEBHOOK[kind];
  if (webhook && config.SUCCESS_SITE_WEBHOOK_URL)
    rows.push({ kind: 'webhook', topic: webhook, dedupeKey: `webhook:${key}`, transactionId, payload });
  if (rows.length > 0) await tx.insert(outbox).values(rows).onConflictDoNothing({ target: outbox.dedupeKey });
}
