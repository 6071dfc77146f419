/**
 * Single-use links into the buyer's manage page (table account_links): 32 random bytes as base64url, only their
 * SHA-256 stored. A link is used once: the first use marks it, on the database clock, before it is expired.
 */
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../db/client';
import { accountLinks } from '../db/schema';
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
export async function useAccountLink(db: Database, token: string): Promise<{ transactionId: string; purpose: 'manage' | 'agreement' } | null> {
  const [used] = await db
    .update(accountLinks)
    .set({ usedAt: sql`now()` })
    .where(and(eq(accountLinks.tokenHash, hashHandoffToken(token)), isNull(accountLinks.usedAt), gt(accountLinks.expiresAt, sql`now()`)))
    .returning({ transactionId: accountLinks.transactionId, purpose: accountLinks.purpose });
  return used ?? null;
}
