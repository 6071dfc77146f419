/**
 * The funnel's events: what the console's dashboard counts (docs/decisions/0018-owner-console.md).
 * Gathered by server/db/schema.ts; migrations come from there.
 */
import { bigserial, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { referrers } from '../referrals/tables';

/** The kinds of funnel event the server records (issue: referrers and the owner's console). */
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

/**
 * The checkout funnel, append-only, written by the server as things happen (never from a client beacon). Kept
 * FUNNEL_RETENTION_DAYS; `transactionId` is not a foreign key, so an abandoned order's events outlive its row.
 */
export const funnelEvents = pgTable(
  'funnel_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    type: text('type', { enum: FUNNEL_EVENT_TYPES }).notNull(),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull().defaultNow(),
    transactionId: text('transaction_id'),
    referrerId: uuid('referrer_id').references(() => referrers.id),
    /**
     * Event details: seats for seats_changed, the provider's decline code for payment_failed, amountCents for paid,
     * renewal_paid and proration_paid (with the invoice, booked once) and refunded, the reason for cancel_scheduled (the buyer's, when given) and cancelled.
     */
    detail: jsonb('detail').$type<Record<string, string | number>>(),
  },
  (table) => [
    index('funnel_events_occurred_at_idx').on(table.occurredAt),
    index('funnel_events_transaction_id_idx').on(table.transactionId),
  ],
);
