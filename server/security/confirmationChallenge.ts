/**
 * The proof-of-work challenge that slows card testing (ALTCHA's protocol, `altcha-lib`; offline, no third party).
 * Once a client address has DECLINES_BEFORE_CHALLENGE refused card confirmations within an hour, every further
 * sandbox confirmation from it must carry a solved challenge. The challenge is signed with a key derived from
 * CREDENTIALS_KEY (so every server process accepts it), expires after CHALLENGE_TTL_MS, and is bound to one
 * PaymentIntent's client secret: one solve serves one checkout, whose own refusals are capped at 3.
 * A buyer's browser solves it without a click in about 0.1 s; a card tester pays that for every new checkout.
 */
import { createHash, hkdfSync } from 'node:crypto';
import { createChallenge, extractParams, verifySolution } from 'altcha-lib';
import type { Challenge } from 'altcha-lib/types';
import { lt, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../db/client';
import { addressDeclines } from '../db/schema';

/** How long a challenge may be solved and used, ms. */
const CHALLENGE_TTL_MS = 10 * 60 * 1000;

/** The work: the secret number is drawn from 0..MAX_NUMBER, so a solve takes MAX_NUMBER / 2 SHA-256 hashes on average. */
const MAX_NUMBER = 100_000;

/** The HMAC key (hex) that signs challenges, derived from the credentials key (HKDF-SHA256). */
export function challengeKeyFrom(credentialsKey: Buffer): string {
  return Buffer.from(hkdfSync('sha256', credentialsKey, Buffer.alloc(0), 'checkout confirmation challenge', 32)).toString('hex');
}

const intentTag = (clientSecret: string) => createHash('sha256').update(clientSecret).digest('hex').slice(0, 32);

/** A new challenge for confirming the PaymentIntent of `clientSecret`. */
export function issueChallenge(hmacKey: string, clientSecret: string): Promise<Challenge> {
  return createChallenge({
    hmacKey,
    maxNumber: MAX_NUMBER,
    expires: new Date(Date.now() + CHALLENGE_TTL_MS),
    params: { intent: intentTag(clientSecret) },
  });
}

/** True when `payload` (ALTCHA's base64 JSON) solves an unexpired challenge we signed for `clientSecret`. */
export async function isSolved(hmacKey: string, payload: string, clientSecret: string): Promise<boolean> {
  try {
    if (!(await verifySolution(payload, hmacKey, true))) return false;
    return extractParams(payload).intent === intentTag(clientSecret);
  } catch {
    return false;
  }
}

/** Counts a refused confirmation from `address`; the count restarts once its hour is over. */
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

/** True when `address` had at least `threshold` refused confirmations in its current hour. */
export async function challengeRequired(db: Database, address: string, threshold: number): Promise<boolean> {
  const [row] = await db
    .select({ declines: addressDeclines.declines })
    .from(addressDeclines)
    .where(sql`${addressDeclines.address} = ${address} and ${addressDeclines.windowStartedAt} >= now() - interval '1 hour'`);
  return (row?.declines ?? 0) >= threshold;
}

/** The retention sweep's part: deletes counts whose hour is long over (a day). Returns how many. */
export async function deleteOldDeclineCounts(tx: Transaction): Promise<number> {
  const deleted = await tx
    .delete(addressDeclines)
    .where(lt(addressDeclines.windowStartedAt, sql`now() - interval '1 day'`))
    .returning({ address: addressDeclines.address });
  return deleted.length;
}
