/** A proof of work against card testing (ALTCHA, offline; docs/decisions/0015); a browser solves it in about 0.1 s. */
import { createHash, hkdfSync } from 'node:crypto';
import { createChallenge, extractParams, verifySolution } from 'altcha-lib';
import type { Challenge } from 'altcha-lib/types';
import { lt, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../db/client';
import { addressDeclines } from '../db/schema';

const CHALLENGE_TTL_MS = 10 * 60 * 1000;

/** A solve takes MAX_NUMBER / 2 SHA-256 hashes on average. */
const MAX_NUMBER = 100_000;

/** HKDF-SHA256 of the credentials key, so every server process accepts every other's challenge. */
export function challengeKeyFrom(credentialsKey: Buffer): string {
  return Buffer.from(hkdfSync('sha256', credentialsKey, Buffer.alloc(0), 'checkout confirmation challenge', 32)).toString('hex');
}

const intentTag = (clientSecret: string) => createHash('sha256').update(clientSecret).digest('hex').slice(0, 32);

export function issueChallenge(hmacKey: string, clientSecret: string): Promise<Challenge> {
  return createChallenge({
    hmacKey,
    maxNumber: MAX_NUMBER,
    expires: new Date(Date.now() + CHALLENGE_TTL_MS),
    params: { intent: intentTag(clientSecret) },
  });
}

export async function isSolved(hmacKey: string, payload: string, clientSecret: string): Promise<boolean> {
  try {
    if (!(await verifySolution(payload, hmacKey, true))) return false;
    return extractParams(payload).intent === intentTag(clientSecret);
  } catch {
    return false;
  }
}

export async function recordDecline(db: Database, address: string): Promise<void> {
  const windowOver = sql`${addressDeclines.windowStartedAt} < now() - interval '1 hour'`;
  await db
    .insert(addressDeclines)
    .values({ address, declines: 1 })
    .onConflictDoUpdate({
      target: addressDeclines.address,
      set: {
        declines: sql`case when ${windowOver} then 1 else ${addressDeclines.declines} + 1 end`,
        windowStartedAt: sql`case when ${windowOver} then now() else ${addressDeclines.windowStartedAt} end`,
      },
    });
}

export async function challengeRequired(db: Database, address: string, threshold: number): Promise<boolean> {
  const [row] = await db
    .select({ declines: addressDeclines.declines })
    .from(addressDeclines)
    .where(sql`${addressDeclines.address} = ${address} and ${addressDeclines.windowStartedAt} >= now() - interval '1 hour'`);
  return (row?.declines ?? 0) >= threshold;
}

/** The retention sweep's part: counts whose hour is a day over. Returns how many. */
export async function deleteOldDeclineCounts(tx: Transaction): Promise<number> {
  const deleted = await tx
    .delete(addressDeclines)
    .where(lt(addressDeclines.windowStartedAt, sql`now() - interval '1 day'`))
    .returning({ address: addressDeclines.address });
  return deleted.length;
}
