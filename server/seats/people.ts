/**
 * A member's claimed seat, read for their hand-off (server/handoff/redeemHandoff.ts), and whether the buyer gave
 * seat 1 away. Sign-in reads people, buyers and members alike, through server/signIn/people.ts only.
 */
import { eq, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Database, Transaction } from '../db/client';
import { seats } from '../db/schema';

/** The claimed seat `seatId` (for a member's hand-off), or null. */
export async function claimedSeat(db: Database | Transaction, seatId: string) {
  const [seat] = await db.select().from(seats).where(eq(seats.id, seatId));
  return seat ?? null;
}

/**
 * SQL, true when seat 1 of the order in `transactionId` (a column) is held by someone the buyer gave it to: claimed
 * and not suspended (docs/decisions/0038). Then the buyer holds no seat: no training sign-in (server/signIn/people.ts)
 * and no hand-off of a seat with the buyer's token (server/handoff/redeemHandoff.ts).
 */
export function seatOneGivenAway(transactionId: AnyColumn): SQL<boolean> {
  return sql<boolean>`exists (select 1 from ${seats} where ${seats.transactionId} = ${transactionId} and ${seats.seatNumber} = 1 and ${seats.status} = 'claimed' and ${seats.suspendedAt} is null)`;
}
