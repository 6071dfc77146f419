/**
 * The outbox's mails as /admin → Mail shows them: a held one with its text, tokens `[hidden]`, so the owner reads
 * what would have gone out; and the re-send.
 */
import { and, desc, eq, ilike, inArray, sql } from 'drizzle-orm';
import type { OutboxMail } from '../../src/contract/admin';
import type { Database } from '../db/client';
import { orders, outbox, referrers } from '../db/schema';
import { containing } from './likePattern';

const MAIL_LIST_LIMIT = 200;

/** The held text's To, the email a link was asked for, the invitee, the referrer, else the buyer. */
const recipient = sql<
  string | null
>`coalesce(${outbox.rendered}->>'to', ${outbox.payload}->>'email', ${outbox.payload}->>'seatEmail', ${referrers.email}, ${orders.email})`;

function selectMails(db: Database) {
  return db
    .select({ row: outbox, recipient })
    .from(outbox)
    .leftJoin(orders, eq(orders.transactionId, outbox.transactionId))
    .leftJoin(referrers, sql`${referrers.id}::text = ${outbox.payload}->>'referrerId'`)
    .$dynamic();
}

/** With `to`, only recipients containing it (any case). */
export async function listMails(db: Database, { to }: { to?: string } = {}): Promise<OutboxMail[]> {
  const search = to?.trim();
  const rows = await selectMails(db)
    .where(and(eq(outbox.kind, 'mail'), search ? ilike(recipient, containing(search)) : undefined))
    .orderBy(desc(outbox.id))
    .limit(MAIL_LIST_LIMIT);
  return rows.map(({ row, recipient }) => mailOf(row, recipient));
}

function mailOf(row: typeof outbox.$inferSelect, recipient: string | null): OutboxMail {
  return {
    id: row.id,
    topic: row.topic,
    status: row.status,
    transactionId: row.transactionId,
    attempts: row.attempts,
    lastError: row.lastError,
    createdAt: row.createdAt.toISOString(),
    sentAt: row.sentAt?.toISOString() ?? null,
    recipient,
    rendered: row.rendered ?? null,
  };
}

/**
 * Pending again, due now, held text cleared, so the worker mints fresh links. 'not_resendable': pending, sent or
 * dropped.
 */
export async function requeueMail(db: Database, id: number): Promise<OutboxMail | 'unknown' | 'not_resendable'> {
  const [requeued] = await db
    .update(outbox)
    .set({ status: 'pending', attempts: 0, nextAttemptAt: sql`now()`, lockedUntil: null, lastError: null, rendered: null, sentAt: null })
    .where(and(eq(outbox.id, id), eq(outbox.kind, 'mail'), inArray(outbox.status, ['held', 'failed'])))
    .returning();
  if (requeued) {
    const [mail] = await selectMails(db).where(eq(outbox.id, requeued.id));
    return mailOf(mail!.row, mail!.recipient);
  }
  const [existing] = await db
    .select({ id: outbox.id })
    .from(outbox)
    .where(and(eq(outbox.id, id), eq(outbox.kind, 'mail')));
  return existing ? 'not_resendable' : 'unknown';
}
