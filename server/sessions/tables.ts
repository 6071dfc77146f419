/**
 * Sessions of buyers, owners, referrers and members (docs/decisions/0022-one-session-mechanism.md).
 * Gathered by server/db/schema.ts; migrations come from there.
 */
import { index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Signed-in sessions of owners (/admin) and buyers (/account), server/sessions/sessions.ts
 * (docs/decisions/0022-one-session-mechanism.md). Keyed by the SHA-256 of the cookie's session id, so a database
 * read does not yield a usable cookie. Deleting a row ends that session everywhere.
 */
export const sessions = pgTable(
  'sessions',
  {
    idHash: text('id_hash').primaryKey(),
    kind: text('kind').$type<'owner' | 'buyer' | 'referrer'>().notNull(),
    /** Who is signed in: the owner's id (kind 'owner'), the order's transactionId (kind 'buyer') or the referrer's id (kind 'referrer'). */
    subject: text('subject').notNull(),
    /** Sign-in; the absolute lifetime counts from here. */
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull(),
    /** The idle end (last use + idle lifetime), never past sign-in + absolute lifetime. */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('sessions_kind_subject_idx').on(table.kind, table.subject)],
);
