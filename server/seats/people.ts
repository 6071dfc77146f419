/**
 * A member's claimed seat, read for their hand-off (server/orders/redeemHandoff.ts). Sign-in reads people, buyers
 * and members alike, through server/signIn/people.ts only.
 */
import { eq } from 'drizzle-orm';
import type { Database, Transaction } from '../db/client';
import { seats } from '../db/schema';

/** The claimed seat `seatId` (for a member's hand-off), or null. */
export async function claimedSeat(db: Database | Transaction, seatId: string) {
  const [seat] = await db.select().from(seats).where(eq(seats.id, seatId));
  return seat ?? null;
}
