import { sql } from 'drizzle-orm';
import { bigserial, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Written in the transaction of the change that causes them (docs/decisions/0019); `dedupeKey` makes one row per
 * event however often raised.
 */
export const outbox = pgTable(
  'outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: text('kind', { enum: ['mail', 'webhook'] }).notNull(),
    topic: text('topic').notNull(),
    dedupeKey: text('dedupe_key').notNull().unique(),
    transactionId: text('transaction_id'),
    /** A requested link ('account_link', no transactionId) holds the email, resolved at send time. */
    payload: jsonb('payload').$type<Record<string, string | number | null>>().notNull(),
    /** 'held': nowhere to send (no SMTP_URL); 'dropped': a requested link to an email with no subscription. */
    status: text('status', { enum: ['pending', 'sent', 'held', 'failed', 'dropped'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    /** A crashed worker's claim expires and the row is sent again. */
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lastError: text('last_error'),
    /** Tokens `[hidden]`: never a live one. */
    rendered: jsonb('rendered').$type<{ to: string; subject: string; text: string }>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (table) => [
    index('outbox_due_idx')
      .on(table.nextAttemptAt)
      .where(sql`status = 'pending'`),
  ],
);
