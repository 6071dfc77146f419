import { index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Keyed by the SHA-256 of the cookie's id, so a database read yields no usable cookie (docs/decisions/0022). */
export const sessions = pgTable(
  'sessions',
  {
    idHash: text('id_hash').primaryKey(),
    kind: text('kind').$type<'owner' | 'buyer' | 'referrer'>().notNull(),
    /** The owner's id, the order's transactionId or the referrer's id, by kind. */
    subject: text('subject').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull(),
    /** Never past sign-in + absolute lifetime. */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('sessions_kind_subject_idx').on(table.kind, table.subject)],
);
