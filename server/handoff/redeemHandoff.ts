/**
 * The agreement site trades a hand-off token for the person and their order, once (architecture.md): one guarded
 * UPDATE on the database clock, so two concurrent redemptions cannot both succeed.
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
 * Null when unknown, expired, revoked, redeemed, or the buyer's while seat 1 is given away. The order's encrypted
 * password and token are wiped in the same transaction (docs/decisions/0008): finalize then answers 'already
 * complete'.
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
        // docs/decisions/0038: once the member given seat 1 has claimed it, the buyer's token is refused.
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
    monthlyTaxCents: row.order.taxCents,
    taxState: row.order.taxState,
    productPurchased: PRODUCT_NAME,
    paidAt: row.order.paidAt.toISOString(),
  };
  return { redemption, personId: member?.id ?? row.account.id };
}
