/**
 * Mail and outbound webhooks, written with their cause (docs/decisions/0019-outbox-for-mail-and-webhooks.md).
 * Gathered by server/db/schema.ts; migrations come from there.
 */
import { sql } from 'drizzle-orm';
import { bigserial, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Mails and outbound webhooks to send (server/outbox/): written in the same transaction as the change that causes
 * them, sent by the outbox worker with retries. `dedupeKey` makes one row per event however often it is raised.
 */
export const outbox = pgTable(
  'outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: text('kind', { enum: ['mail', 'webhook'] }).notNull(),
    /** The mail template or webhook event type (server/outbox/mailTemplates.ts, webhooks.ts). */
    topic: text('topic').notNull(),
    dedupeKey: text('dedupe_key').notNull().unique(),
    transactionId: text('transaction_id'),
    /**
     * What the template or webhook needs beyond the order (e.g. the seats before a change); a requested link
     * ('account_link' with no transactionId) holds the email it was asked for, resolved at send time.
     */
    payload: jsonb('payload').$type<Record<string, string | number | null>>().notNull(),
    /**
     * pending → sent; 'held' when there is nowhere to send to (no SMTP_URL; the console re-queues it); 'failed'
     * after the last attempt; 'dropped' for a requested link to an email with no subscription (never mailed).
     */
    status: text('status', { enum: ['pending', 'sent', 'held', 'failed', 'dropped'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    /** A worker claimed the row until then (a crashed worker's claim expires and the row is sent again). */
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lastError: text('last_error'),
    /**
     * A held mail as it would have been sent, its links' tokens replaced by `[hidden]` (none is minted for a held
     * mail; a re-send renders it afresh). Never a live token.
     */
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
