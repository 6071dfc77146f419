/**
 * The outbox's mails as the console shows them (/admin → Mail): the newest first, a held one (no SMTP_URL) with
 * its rendered text, links' tokens `[hidden]` (server/outbox/outboxWorker.ts), so the owner can read what would
 * have gone out; and the owner's re-send of a held or failed mail.
 */
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { OutboxMail } from '../../src/contract/admin';
import type { Database } from '../db/client';
import { outbox } from '../db/schema';

/** Mails the console lists at most. */
const MAIL_LIST_LIMIT = 200;

/** The newest MAIL_LIST_LIMIT mails of the outbox, newest first (times in ISO 8601). */
export async function listMails(db: Database): Promise<OutboxMail[]> {
  const rows = await db.select().from(outbox).where(eq(outbox.kind, 'mail')).orderBy(desc(outbox.id)).limit(MAIL_LIST_LIMIT);
  return rows.map(mailOf);
}

function mailOf(row: typeof outbox.$inferSelect): OutboxMail {
  return {
    id: row.id,
    topic: row.topic,
    status: row.status,
    transactionId: row.transactionId,
    attempts: row.attempts,
    lastError: row.lastError,
    createdAt: row.createdAt.toISOString(),
    sentAt: row.sentAt?.toISOString() ?? null,
    rendered: row.rendered ?? null,
  };
}

/**
 * Re-queues mail `id` if it is held or failed: pending again, due now, attempts from 0, its held text cleared, so
 * the worker renders it afresh with freshly minted links. Answers the mail as it now is, or why not: 'unknown'
 * (no such mail), 'not_resendable' (pending, sent or dropped).
 */
export async function requeueMail(db: Database, id: number): Promise<OutboxMail | 'unknown' | 'not_resendable'> {
  const [requeued] = await db
    .update(outbox)
    .set({ status: 'pending', attempts: 0, nextAttemptAt: sql`now()`, lockedUntil: null, lastError: null, rendered: null, sentAt: null })
    .where(and(eq(outbox.id, id), eq(outbox.kind, 'mail'), inArray(outbox.status, ['held', 'failed'])))
    .returning();
  if (requeued) return mailOf(requeued);
  const [existing] = await db
    .select({ id: outbox.id })
    .from(outbox)
    .where(and(eq(outbox.id, id), eq(outbox.kind, 'mail')));
  return existing ? 'not_resendable' : 'unknown';
}
