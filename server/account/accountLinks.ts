/**
 * Single-use links into the manage page: 32 random bytes, only their SHA-256 stored, used once on the database clock
 * before they expire.
 */
import { randomUUID } from 'node:crypto';
import { and, desc, eq, gt, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../db/client';
import { accountLinks, accounts, handoffTokens, orders, outbox } from '../db/schema';
import { newHandoffToken, hashHandoffToken } from '../security/handoffToken';

export async function issueAccountLink(
  db: Database | Transaction,
  transactionId: string,
  purpose: 'manage' | 'agreement',
  minutes: number,
): Promise<string> {
  const { token, tokenHash } = newHandoffToken();
  await db.insert(accountLinks).values({ tokenHash, transactionId, purpose, expiresAt: sql`now() + make_interval(mins => ${minutes})` });
  return token;
}

/** Null when unknown, expired or used. */
export async function useAccountLink(
  db: Database,
  token: string,
): Promise<{ transactionId: string; purpose: 'manage' | 'agreement' } | null> {
  const [used] = await db
    .update(accountLinks)
    .set({ usedAt: sql`now()` })
    .where(and(eq(accountLinks.tokenHash, hashHandoffToken(token)), isNull(accountLinks.usedAt), gt(accountLinks.expiresAt, sql`now()`)))
    .returning({ transactionId: accountLinks.transactionId, purpose: accountLinks.purpose });
  return used ?? null;
}

/**
 * The same work whatever the email (no enumeration by timing): one outbox row, resolved at send time, dropped
 * unmailed for an email with no subscription.
 */
export async function requestAccountLink(db: Database, email: string): Promise<void> {
  await db.insert(outbox).values({
    kind: 'mail',
    topic: 'account_link',
    dedupeKey: `mail:account_link:${randomUUID()}`,
    transactionId: null,
    payload: { email: email.trim() },
  });
}

/** Paid, past due or ended; `email` case-insensitive. */
export async function newestSubscriptionOf(db: Database, email: string): Promise<string | null> {
  const [latest] = await db
    .select({ transactionId: orders.transactionId })
    .from(orders)
    .innerJoin(accounts, eq(accounts.transactionId, orders.transactionId))
    .where(and(sql`lower(${accounts.email}) = ${email.trim().toLowerCase()}`, inArray(orders.status, ['paid', 'past_due', 'cancelled'])))
    .orderBy(desc(orders.paidAt))
    .limit(1);
  return latest?.transactionId ?? null;
}

/** However often finalize is repeated. */
const SIGN_IN_LINK_EVERY_MS = 3_600_000;

/**
 * For a finalize that answered no credentials (docs/decisions/0026), at most once per order per clock hour. `now` in
 * ms.
 */
export async function mailSignInLink(db: Database | Transaction, transactionId: string, now: number = Date.now()): Promise<void> {
  await db
    .insert(outbox)
    .values({
      kind: 'mail',
      topic: 'account_link',
      dedupeKey: `mail:account_link:${transactionId}:finalize:${Math.floor(now / SIGN_IN_LINK_EVERY_MS)}`,
      transactionId,
      payload: {},
    })
    .onConflictDoNothing({ target: outbox.dedupeKey });
}

/** The agreement link of a mail. */
export async function issueAgreementHandoff(db: Database, transactionId: string, minutes: number): Promise<string> {
  const { token, tokenHash } = newHandoffToken();
  await db.insert(handoffTokens).values({ tokenHash, transactionId, expiresAt: sql`now() + make_interval(mins => ${minutes})` });
  return token;
}

/** The retention sweep's part: links expired for more than a day. Returns how many. */
export async function deleteExpiredAccountLinks(tx: Transaction): Promise<number> {
  const deleted = await tx
    .delete(accountLinks)
    .where(lt(accountLinks.expiresAt, sql`now() - interval '1 day'`))
    .returning({ tokenHash: accountLinks.tokenHash });
  return deleted.length;
}
