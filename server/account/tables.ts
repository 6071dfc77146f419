import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { orders } from '../checkout/tables';

/** Looked up by SHA-256: requested on /account (15 minutes) or sent in the confirmation. */
export const accountLinks = pgTable('account_links', {
  tokenHash: text('token_hash').primaryKey(),
  transactionId: text('transaction_id')
    .notNull()
    .references(() => orders.transactionId),
  /** 'agreement' also hands the buyer on to the agreement site. */
  purpose: text('purpose', { enum: ['manage', 'agreement'] }).notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
