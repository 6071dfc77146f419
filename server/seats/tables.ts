/**
 * The seats of an order and the hand-off tokens of the people who hold them (docs/decisions/0032-seat-rules.md).
 * Gathered by server/db/schema.ts; migrations come from there.
 */
import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { orders } from '../checkout/tables';

/**
 * Single-use, expiring hand-off tokens for the agreement site, looked up by SHA-256 hash. The live token is also
 * kept encrypted, like the password, until it is redeemed, revoked or expires.
 */
export const handoffTokens = pgTable(
  'handoff_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    /** The token, encrypted (server/security/credentialsCipher.ts); null once wiped. */
    tokenCiphertext: text('token_ciphertext'),
    transactionId: text('transaction_id')
      .notNull()
      .references(() => orders.transactionId),
    /** The team member's seat the token stands for (server/seats/); null for the buyer's own. */
    seatId: uuid('seat_id').references(() => seats.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    redeemedAt: timestamp('redeemed_at', { withTimezone: true }),
    /** Set when a newer token for the same order replaces this one. */
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (table) => [index('handoff_tokens_transaction_id_idx').on(table.transactionId)],
);

/** A seat's state (server/seats/seats.ts): invited → claimed; either → revoked (the row is kept, the seat freed). */
export const SEAT_STATES = ['invited', 'claimed', 'revoked'] as const;

/**
 * The buyer's team (docs/decisions/0032-seat-rules.md): one row per person a seat was given to, seats 2
 * to the order's quantity (seat 1 is the buyer's, `accounts`). A seat number without a live row is empty. A live
 * row ('invited' or 'claimed') holds its number and its email once per order (two partial unique indexes, so two
 * concurrent invitations cannot both win); `suspendedAt` is set while the provider's quantity is below the live
 * seats (the latest invited first) and cleared when it rises again; a suspended row gives its number up. A claimed
 * seat is an account of its own: its password's argon2id hash, and hand-off tokens with its `seatId`.
 */
export const seats = pgTable(
  'seats',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    transactionId: text('transaction_id')
      .notNull()
      .references(() => orders.transactionId),
    /** 2…quantity while live and not suspended; kept, but not unique, once revoked or suspended. */
    seatNumber: integer('seat_number').notNull(),
    status: text('status', { enum: SEAT_STATES }).notNull().default('invited'),
    email: text('email').notNull(),
    name: text('name').notNull(),
    /** Who gave the seat: the buyer's login email when invited. */
    invitedBy: text('invited_by').notNull(),
    invitedAt: timestamp('invited_at', { withTimezone: true }).notNull().defaultNow(),
    /** SHA-256 of the live invitation link's token (a new one on each mail); null once claimed or revoked. */
    claimTokenHash: text('claim_token_hash').unique(),
    /** When the live invitation link stops working (7 days after its mail). */
    claimExpiresAt: timestamp('claim_expires_at', { withTimezone: true }),
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    /**
     * The member's password, argon2id: generated at the claim (server/security/password.ts) or chosen through a
     * "set a new password" link (OWASP's parameters, docs/decisions/0039); null until claimed, wiped on revoke.
     */
    passwordHash: text('password_hash'),
    /**
     * SHA-256 of the live "set a new password" link's token (server/signIn/newPassword.ts); a new request replaces
     * it. Kept after use, so a second use answers "already used" rather than "unknown".
     */
    resetTokenHash: text('reset_token_hash').unique(),
    /** When that link stops working (RESET_LINK_MINUTES after its mail); null once it was used. */
    resetExpiresAt: timestamp('reset_expires_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    suspendedAt: timestamp('suspended_at', { withTimezone: true }),
    /** When the agreement site reported this member's signed training agreement (docs/decisions/0063); null: pending. */
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
