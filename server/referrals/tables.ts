import { sql } from 'drizzle-orm';
import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * A referring chiropractor ('For Friends of Dr. {displayName} Only'). Disabled, never deleted: orders and funnel
 * events point at them (docs/decisions/0017).
 */
export const referrers = pgTable('referrers', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  slug: text('slug').notNull().unique(),
  /** Without 'Dr.'. */
  displayName: text('display_name').notNull(),
  /** Sent by the page as affiliate_id with call 1 (spec §3). */
  shortLabel: text('short_label').notNull(),
  quote: text('quote').notNull(),
  status: text('status', { enum: ['active', 'disabled'] })
    .notNull()
    .default('active'),
  /** Where sign-in links to /partner and payout mail go; null: none yet. */
  email: text('email'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
