import { bigserial, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { referrers } from '../referrals/tables';

export const FUNNEL_EVENT_TYPES = [
  'page_view',
  'checkout_opened',
  'seats_changed',
  'payment_submitted',
  'payment_failed',
  'paid',
  'handoff_redeemed',
  'cancelled',
  'refunded',
  'renewal_paid',
  'proration_paid',
  'cancel_scheduled',
  'cancel_undone',
  'disputed',
  'dispute_closed',
  'refund_failed',
] as const;

export type FunnelEventType = (typeof FUNNEL_EVENT_TYPES)[number];

/** `transactionId` is no foreign key: events outlive an abandoned order (docs/decisions/0018). */
export const funnelEvents = pgTable(
  'funnel_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    type: text('type', { enum: FUNNEL_EVENT_TYPES }).notNull(),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull().defaultNow(),
    transactionId: text('transaction_id'),
    referrerId: uuid('referrer_id').references(() => referrers.id),
    /**
     * seats_changed: seats; payment_failed: decline code; paid, renewal_paid, proration_paid, refunded: amountCents;
     * cancel_scheduled, cancelled: the reason.
     */
    detail: jsonb('detail').$type<Record<string, string | number>>(),
  },
  (table) => [
    index('funnel_events_occurred_at_idx').on(table.occurredAt),
    index('funnel_events_transaction_id_idx').on(table.transactionId),
  ],
);
