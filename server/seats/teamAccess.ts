/**
 * Who may manage an order's team: the buyer's manage-page session, or the order's own hand-off token on the success
 * page (docs/decisions/0026) until the agreement site redeems it (docs/decisions/0053).
 */
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { handoffTokens } from '../db/schema';
import { hashHandoffToken } from '../security/handoffToken';

/** Null for a member's token or a dead one. */
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
