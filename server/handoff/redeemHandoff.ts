/**
 * The agreement site trades a hand-off token for the person (the buyer, or a team member who claimed a seat) and
 * their order, once (architecture.md, POST
 * /api/handoff/redeem). One guarded UPDATE marks the token redeemed only if it is unredeemed, unrevoked and
 * unexpired on the database clock, so two concurrent redemptions cannot both succeed.
 */
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { HandoffRedemption } from '../../src/contract/handoff';
import { PRODUCT_NAME } from '../../src/domain/product';
import type { Database, Transaction } from '../db/client';
import { accounts, handoffTokens, orders } from '../db/schema';
import { recordFunnelEvent } from '../funnel';
import { hashHandoffToken } from '../security/handoffToken';
import { claimedSeat, seatOneGivenAway } from '../seats';

/**
 * Redeems `token`: the answer for the agreement site and the id of the person it belongs to (the buyer's account
 * id, or the member's seat id: server/signIn/people.ts); null when it is unknown, expired, revoked or already redeemed,
 * or when it is the buyer's and seat 1 is held by someone the buyer gave it to. In the same transaction the
 * encrypted copies of the order's password and token are wiped (docs/decisions/0008): from now on only their
 * hashes exist, and finalize answers 'already complete'.
 */
export async function redeemHandoff(db: Database, token: string): Promise<{ redemption: HandoffRedemption; personId: string } | null> {
  return db.transaction(async (tx) => redeemIn(tx, token));
}

async function redeemIn(db: Transaction, token: string): Promise<{ redemption: HandoffRedemption; personId: string } | null> {
  const [redeemed] = await db
    .update(handoffTokens)
    .set({ redeemedAt: sql`now()`, tokenCiphertext: null })
    .where(
      and(
        eq(handoffTokens.tokenHash, hashHandoffToken(token)),
        isNull(handoffTokens.redeemedAt),
        isNull(handoffTokens.revokedAt),
        gt(handoffTokens.expiresAt, sql`now()`),
        // A buyer's token hands off seat 1 only while the buyer holds it (docs/decisions/0038): once someone the
        // buyer gave seat 1 to has claimed it, the buyer's token is refused and stays unused.
        sql`(${handoffTokens.seatId} is not null or not ${seatOneGivenAway(handoffTokens.transactionId)})`,
      ),
    )
    .returning({ transactionId: handoffTokens.transactionId, seatId: handoffTokens.seatId });
  if (!redeemed) return null;
  if (!redeemed.seatId)
    await db.update(accounts).set({ passwordCiphertext: null }).where(eq(accounts.transactionId, redeemed.transactionId));
  const member = redeemed.seatId ? await claimedSeat(db, redeemed.seatId) : null;
  const [row] = await db
    .select({ order: orders, account: accounts })
    .from(orders)
    .innerJoin(accounts, eq(accounts.transactionId, orders.transactionId))
    .where(eq(orders.transactionId, redeemed.transactionId));
  if (!row?.order.paidAt) throw new Error(`Redeemed token of ${redeemed.transactionId} has no paid order and account`);
  await recordFunnelEvent(db, { type: 'handoff_redeemed', transactionId: row.order.transactionId, referrerId: row.order.referrerId });
  const redemption: HandoffRedemption = {
    transactionId: row.order.transactionId,
    email: member?.email ?? row.account.email,
    name: member?.name ?? row.account.name,
    role: member ? 'member' : 'buyer',
    seatNumber: member?.seatNumber ?? 1,
    seats: row.order.quantity,
    monthlyTotalCents: row.order.amountCents,
    productPurchased: PRODUCT_NAME,
    paidAt: row.order.paidAt.toISOString(),
  };
  return { redemption, personId: member?.id ?? row.account.id };
}
