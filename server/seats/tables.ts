import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { orders } from '../checkout/tables';

export const SEAT_STATES = ['invited', 'claimed', 'revoked'] as const;

/**
 * One row per person a seat was given to (docs/decisions/0032). A live row holds its number and its email once per
 * order (two partial unique indexes, so two concurrent invitations cannot both win); a suspended row gives its number
 * up.
 */
export const seats = pgTable(
  'seats',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    transactionId: text('transaction_id')
      .notNull()
      .references(() => orders.transactionId),
    /** Kept, but not unique, once revoked or suspended. */
    seatNumber: integer('seat_number').notNull(),
    status: text('status', { enum: SEAT_STATES }).notNull().default('invited'),
    email: text('email').notNull(),
    name: text('name').notNull(),
    invitedBy: text('invited_by').notNull(),
    invitedAt: timestamp('invited_at', { withTimezone: true }).notNull().defaultNow(),
    /** Null once claimed or revoked. */
    claimTokenHash: text('claim_token_hash').unique(),
    claimExpiresAt: timestamp('claim_expires_at', { withTimezone: true }),
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    /** argon2id: generated at the claim or chosen through a link (docs/decisions/0039); wiped on revoke. */
    passwordHash: text('password_hash'),
    /** Kept after use, so a second use answers "already used". */
    resetTokenHash: text('reset_token_hash').unique(),
    /** Null once used. */
    resetExpiresAt: timestamp('reset_expires_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    suspendedAt: timestamp('suspended_at', { withTimezone: true }),
    /** Null: pending (docs/decisions/0063). */
    agreementSignedAt: timestamp('agreement_signed_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('seats_live_number_idx')
      .on(table.transactionId, table.seatNumber)
      .where(sql`status <> 'revoked' and suspended_at is null`),
    uniqueIndex('seats_live_email_idx')
      .on(table.transactionId, sql`lower(${table.email})`)
      .where(sql`status <> 'revoked'`),
    index('seats_email_idx').on(sql`lower(${table.email})`),
  ],
);
