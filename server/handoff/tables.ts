import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { orders } from '../checkout/tables';
import { seats } from '../seats/tables';

/**
 * Looked up by SHA-256; the live token is also kept encrypted, like the password, until redeemed, revoked or expired.
 */
export const handoffTokens = pgTable(
  'handoff_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    /** Null once wiped. */
    tokenCiphertext: text('token_ciphertext'),
    transactionId: text('transaction_id')
      .notNull()
      .references(() => orders.transactionId),
    /** Null for the buyer's own. */
    seatId: uuid('seat_id').references(() => seats.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    redeemedAt: timestamp('redeemed_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (table) => [index('handoff_tokens_transaction_id_idx').on(table.transactionId)],
);
