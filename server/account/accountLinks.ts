/**
 * Single-use links into the buyer's manage page (table account_links): 32 random bytes as base64url, only their
 * SHA-256 stored. A link is used once: the first use marks it, on the database clock, before it is expired.
 */
import { randomUUID } from 'node:crypto';
import { and, desc, eq, gt, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../db/client';
import { accountLinks, accounts, handoffTokens, orders, outbox } from '../db/schema';
import { newHandoffToken, hashHandoffToken } from '../security/handoffToken';

/** Issues a link for `transactionId` valid `minutes`; returns the token for the URL. */
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

/** Uses `token`: its order and purpose, or null when it is unknown, expired or already used. */
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
 * Queues the mail with a link to the manage page for `email` (POST /api/account/link). The same work whatever the
 * email (no enumeration by timing): one outbox row, topic 'account_link', the email in its payload and
 * no order yet; the outbox worker resolves it at send time (newestSubscriptionOf) and drops the row, unmailed, for
 * an email with no subscription.
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

/**
 * The newest subscription (paid, past due or ended) whose login email is `email`, compared case-insensitively:
 * its transactionId, or null when the email has none.
 */
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

/** How often finalize may mail an order's sign-in link: once an hour, however often it is repeated. */
const SIGN_IN_LINK_EVERY_MS = 3_600_000;

/**
 * Queues the sign-in link mail (`account_link`, to the order's login email) for an order whose finalize answered
 * no credentials (docs/decisions/0026). At most one per order per clock hour: repeated finalizes do not flood the
 * buyer's inbox. `now` in ms since the epoch.
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

/** A fresh hand-off token for the order, valid `minutes` (the agreement link of a mail); returns the token. */
export async function issueAgreementHandoff(db: Database, transactionId: string, minutes: number): Promise<string> {
  const { token, tokenHash } = newHandoffToken();
  await db.insert(handoffTokens).values({ tokenHash, transactionId, expiresAt: sql`now() + make_interval(mins => ${minutes})` });
  return token;
}

/** The retention sweep's part: deletes links to the manage page expired for more than a day. Returns how many. */
export async function deleteExpiredAccountLinks(tx: Transaction): Promise<number> {
  const deleted = await tx
    .delete(accountLinks)
    .where(lt(accountLinks.expiresAt, sql`now() - interval '1 day'`))
    .returning({ tokenHash: accountLinks.tokenHash });
  return deleted.length;
}
