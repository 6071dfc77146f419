/**
 * The manage page's single-use sign-in links.
 * Gathered by server/db/schema.ts; migrations come from there.
 */
import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { orders } from '../checkout/tables';

/**
 * Single-use links into the buyer's manage page (/account), looked up by SHA-256 hash: requested on /account
 * (15 minutes) or sent in the order confirmation.
 */
export const accountLinks = pgTable('account_links', {
  tokenHash: text('token_hash').primaryKey(),
  transactionId: text('transaction_id')
    .notNull()
    .references(() => orders.transactionId),
  /** 'manage' opens /account; 'agreement' also hands the buyer on to the agreement site. */
  purpose: text('purpose', { enum: ['manage', 'agreement'] }).notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
