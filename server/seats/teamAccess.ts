/**
 * Who may manage an order's team (issue 22): the buyer signed in on the manage page (the session of
 * server/sessions/), or, on the success page right after the purchase, the holder of the order's own hand-off
 * token (the secret finalize handed to that checkout once, docs/decisions/0026), while it lives and is not
 * revoked, redeemed or not (the buyer may come back from the agreement site within its lifetime).
 */
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { handoffTokens } from '../db/schema';
import { hashHandoffToken } from '../security/handoffToken';

/** The order whose buyer's live hand-off token is `token`, or null (a member's token manages nothing). */
export async function orderOfBuyerToken(db: Database, token: string): Promise<string | null> {
  const [row] = await db
    .select({ transactionId: handoffTokens.transactionId })
    .from(handoffTokens)
    .where(
      and(
        eq(handoffTokens.tokenHash, hashHandoffToken(token)),
        isNull(handoffTokens.seatId),
        isNull(handoffTokens.revokedAt),
        gt(handoffTokens.expiresAt, sql`now()`),
      ),
    );
  return row?.transactionId ?? null;
}
