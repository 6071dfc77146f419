/**
 * The outbox's mails as the console shows them (/admin → Mail): the newest first, a held one (no SMTP_URL) with
 * its rendered text so the owner can read what would have gone out.
 */
import { desc, eq } from 'drizzle-orm';
import type { OutboxMail } from '../../src/contract/admin';
import type { Database } from '../db/client';
import { outbox } from '../db/schema';

/** Mails the console lists at most. */
const MAIL_LIST_LIMIT = 200;

/** The newest MAIL_LIST_LIMIT mails of the outbox, newest first (times in ISO 8601). */
export async function listMails(db: Database): Promise<OutboxMail[]> {
  const rows = await db.select().from(outbox).where(eq(outbox.kind, 'mail')).orderBy(desc(outbox.id)).limit(MAIL_LIST_LIMIT);
  return rows.map((row) => ({
    id: row.id,
    topic: row.topic,
    status: row.status,
    transactionId: row.transactionId,
    attempts: row.attempts,
    lastError: row.lastError,
    createdAt: row.createdAt.toISOString(),
    sentAt: row.sentAt?.toISOString() ?? null,
    rendered: row.rendered ?? null,
  }));
}
