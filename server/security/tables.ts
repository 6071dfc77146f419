/**
 * The card-testing defence's declines by address (docs/decisions/0015-proof-of-work-after-refusals.md).
 * Gathered by server/db/schema.ts; migrations come from there.
 */
import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Refused card confirmations per client address, in a window of one hour (card testing). Past
 * DECLINES_BEFORE_CHALLENGE in the window, the address must solve a proof-of-work challenge to confirm again.
 */
export const addressDeclines = pgTable('address_declines', {
  address: text('address').primaryKey(),
  declines: integer('declines').notNull(),
  windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull().defaultNow(),
});
