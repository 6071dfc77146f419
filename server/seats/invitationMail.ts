/**
 * What the outbox's mail reads of the team (handed in by ./index.ts seatsMail): an invitation's /join link, minted at
 * send time, and an order's free seats.
 */
import { and, eq, gt, isNull, ne } from 'drizzle-orm';
import type { Database } from '../db/client';
import { seats } from '../db/schema';
import type { Order } from '../checkout';
import { mintInvitationLink } from './claim';

/** `[hidden]` for the token when `mint` is false: a held mail gets no live link. 'gone' when the seat waits no more. */
export async function invitationOf(
  db: Database,
  payload: Record<string, string | number | null>,
  site: string,
  mint: boolean,
): Promise<{ to: string; join: string } | 'gone'> {
  const seatId = String(payload.seatId);
  const [seat] = await db
    .select({ email: seats.email })
    .from(seats)
    .where(and(eq(seats.id, seatId), eq(seats.status, 'invited'), isNull(seats.suspendedAt)));
  if (!seat) return 'gone';
  const token = mint ? await mintInvitationLink(db, seatId) : '[hidden]';
  if (token === null) return 'gone';
  return { to: seat.email, join: `${site}/join?token=${token}` };
}

export async function freeSeatsOf(db: Database, order: Pick<Order, 'transactionId' | 'quantity'>): Promise<number> {
  const live = await db
    .select({ id: seats.id })
    .from(seats)
    .where(
      and(eq(seats.transactionId, order.transactionId), ne(seats.status, 'revoked'), isNull(seats.suspendedAt), gt(seats.seatNumber, 1)),
    );
  return Math.max(0, order.quantity - 1 - live.length);
}
