import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Refused card confirmations per client address in a one-hour window (docs/decisions/0015). */
export const addressDeclines = pgTable('address_declines', {
  address: text('address').primaryKey(),
  declines: integer('declines').notNull(),
  windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull().defaultNow(),
});
