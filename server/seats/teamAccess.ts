/**
 * Who may manage an order's team: the buyer signed in on the manage page (the session of
 * server/sessions/), or, on the success page right after the purchase, the holder of the order's own hand-off
 * token (the secret finalize handed to that checkout once, docs/decisions/0026), until the agreement site redeems
 * it: the token then sits in the agreement site's records and its links, and the buyer manages the team from
 * /account (docs/decisions/0053).
 */
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { handoffTokens } from '../db/schema';
import { hashHandoffToken } from '../security/handoffToken';

/**
 * The order of the buyer's live hand-off token `token`, and whether the agreement site has redeemed it (then it
 * manages nothing); null when it is no buyer's live token (a member's token manages nothing).
 */
export async function orderOfBuyerToken(db: Database, token: string): Promise<{ transactionId: string; redeemed: boolean } | null> {
  const [row] = await db
    .select({ transactionId: handoffTokens.transactionId, redeemedAt: handoffTokens.redeemedAt })
    .from(handoffTokens)
    .where(
      and(
        eq(handoffTokens.tokenHash, hashHandoffToken(token)),
        isNull(handoffTokens.seatId),
        isNull(handoffTokens.revokedAt),
        gt(handoffTokens.expiresAt, sql`now()`),
      ),
    );
  return row ? { transactionId: row.transactionId, redeemed: row.redeemedAt !== null } : null;
}
