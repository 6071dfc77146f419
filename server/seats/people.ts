/**
 * A member's claimed seat for their hand-off, and whether the buyer gave seat 1 away. Sign-in reads people only
 * through server/signIn/people.ts.
 */
import { eq, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Database, Transaction } from '../db/client';
import { seats } from '../db/schema';

export async function claimedSeat(db: Database | Transaction, seatId: string) {
  const [seat] = await db.select().from(seats).where(eq(seats.id, seatId));
  return seat ?? null;
}

/**
 * SQL: seat 1 of the order is claimed, unsuspended, by someone the buyer gave it to (docs/decisions/0038): the buyer
 * then has no training sign-in and no seat to hand off.
 */
export function seatOneGivenAway(transactionId: AnyColumn): SQL<boolean> {
  return sql<boolean>`exists (select 1 from ${seats} where ${seats.transactionId} = ${transactionId} and ${seats.seatNumber} = 1 and ${seats.status} = 'claimed' and ${seats.suspendedAt} is null)`;
}
