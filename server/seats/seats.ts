/**
 * The buyer's team (docs/decisions/0032, 0038): seat 1 is the buyer's unless given away, every other seat is empty or
 * one person's (invited → claimed, either → revoked), suspended while the provider's quantity is below the people.
 * Seats are ours; the quantity is the provider's. Each change runs under the order's row lock, so two invitations
 * cannot both take the last seat, and writes its mail and webhook in the same transaction. A refusal changes nothing.
 */
import { randomUUID } from 'node:crypto';
import { and, asc, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { TeamSeat, TeamView } from '../../src/contract/team';
import { seatOneGiven, seatOneHolder } from '../../src/domain/team';
import { EMAIL_PATTERN } from '../../src/domain/validation';
import type { Config } from '../config';
import type { Database, Transaction } from '../db/client';
import { accounts, handoffTokens, orders, seats } from '../db/schema';
import { isPaidOrder, type Order, type OrderAnnouncements } from '../checkout';
import { raiseSeatEvent } from '../outbox';

export type Seat = typeof seats.$inferSelect;

/** The route maps each to a status and a message. */
export type SeatRefusal =
  | 'ended'
  /** Or the order has one seat. */
  | 'no_free_seat'
  | 'email_invalid'
  | 'name_required'
  | 'buyer_email'
  | 'email_taken'
  /** Or it was revoked. */
  | 'not_found'
  | 'not_invited'
  /** Invited or claimed: take it back or reassign it. */
  | 'seat_one_given';

export type SeatResult = { ok: true; seat: Seat } | { ok: false; refusal: SeatRefusal };

/** Handed in by the sign-in (server/signIn/index.ts), which comes later in the feature order. */
export type EndSignIns = (tx: Transaction, personId: string) => Promise<unknown>;

interface TeamServices {
  config: Pick<Config, 'SUCCESS_SITE_WEBHOOK_URL'>;
  endSignIns: EndSignIns;
}

interface TeamChange extends TeamServices {
  order: Order;
}

/** Invited or claimed, not suspended. */
const inUse = (seat: Pick<Seat, 'status' | 'suspendedAt'>) => seat.status !== 'revoked' && seat.suspendedAt === null;

export async function seatsOf(db: Database | Transaction, transactionId: string): Promise<Seat[]> {
  return db.select().from(seats).where(eq(seats.transactionId, transactionId)).orderBy(asc(seats.invitedAt), asc(seats.id));
}

export function seatView(seat: Seat): TeamSeat {
  return {
    id: seat.id,
    seatNumber: seat.seatNumber,
    status: seat.status === 'revoked' ? 'revoked' : seat.suspendedAt ? 'suspended' : seat.status,
    email: seat.email,
    name: seat.name,
    invitedAt: seat.invitedAt.toISOString(),
    claimedAt: seat.claimedAt?.toISOString() ?? null,
    revokedAt: seat.revokedAt?.toISOString() ?? null,
    agreementSignedAt: seat.agreementSignedAt?.toISOString() ?? null,
  };
}

export async function teamView(db: Database, order: Order): Promise<TeamView> {
  const [account] = await db.select().from(accounts).where(eq(accounts.transactionId, order.transactionId));
  const all = await seatsOf(db, order.transactionId);
  const live = all.filter((seat) => seat.status !== 'revoked');
  return {
    seats: order.quantity,
    buyer: {
      email: account?.email ?? order.email ?? '',
      name: account?.name ?? order.name ?? '',
      holdsSeat: seatOneHolder(live.map(seatView)) === 'buyer',
    },
    members: live.map(seatView),
    free: freeSeats(order.quantity, live),
    active: isPaidOrder(order),
  };
}

/** Seat 1, whoever holds it, is not one of the seats to give. */
const inUseBeyondOne = (live: Seat[]) => live.filter((seat) => inUse(seat) && seat.seatNumber > 1);

function freeSeats(quantity: number, live: Seat[]): number {
  return Math.max(0, quantity - 1 - inUseBeyondOne(live).length);
}

function lowestFreeNumber(live: Seat[]): number {
  const taken = new Set(live.filter(inUse).map((seat) => seat.seatNumber));
  let number = 2;
  while (taken.has(number)) number += 1;
  return number;
}

/** The team's changes run one at a time per order. */
async function lockOrder(tx: Transaction, transactionId: string): Promise<Order | undefined> {
  const [order] = await tx.select().from(orders).where(eq(orders.transactionId, transactionId)).for('update');
  return order;
}

async function buyerEmail(tx: Transaction, order: Order): Promise<string> {
  const [account] = await tx.select({ email: accounts.email }).from(accounts).where(eq(accounts.transactionId, order.transactionId));
  return account?.email ?? order.email ?? '';
}

function emailRefusal(email: string, buyer: string, live: Seat[]): SeatRefusal | null {
  if (!EMAIL_PATTERN.test(email)) return 'email_invalid';
  const lower = email.toLowerCase();
  if (lower === buyer.toLowerCase()) return 'buyer_email';
  if (live.some((seat) => seat.email.toLowerCase() === lower)) return 'email_taken';
  return null;
}

/** Refusals: ended, no_free_seat, email_invalid, name_required, buyer_email, email_taken. */
export async function inviteToSeat(db: Database, change: TeamChange, person: { email: string; name: string }): Promise<SeatResult> {
  return invite(db, change, person, (order, live) =>
    freeSeats(order.quantity, live) === 0 ? { refusal: 'no_free_seat' } : { seatNumber: lowestFreeNumber(live) },
  );
}

/**
 * docs/decisions/0038: the buyer's login keeps seat 1 until the invitee claims it; the buyer manages throughout.
 * Refusals: ended, seat_one_given, email_invalid, name_required, buyer_email, email_taken.
 */
export async function giveSeatOne(db: Database, change: TeamChange, person: { email: string; name: string }): Promise<SeatResult> {
  return invite(db, change, person, (_order, live) => (seatOneGiven(live) ? { refusal: 'seat_one_given' } : { seatNumber: 1 }));
}

async function invite(
  db: Database,
  change: TeamChange,
  person: { email: string; name: string },
  seatFor: (order: Order, live: Seat[]) => { seatNumber: number } | { refusal: SeatRefusal },
): Promise<SeatResult> {
  const email = person.email.trim();
  const name = person.name.trim();
  return db.transaction(async (tx) => {
    const order = await lockOrder(tx, change.order.transactionId);
    if (!order || !isPaidOrder(order)) return { ok: false, refusal: 'ended' } as const;
    const live = (await seatsOf(tx, order.transactionId)).filter((seat) => seat.status !== 'revoked');
    const refusal = name ? emailRefusal(email, await buyerEmail(tx, order), live) : 'name_required';
    if (refusal) return { ok: false, refusal } as const;
    const seat = seatFor(order, live);
    if ('refusal' in seat) return { ok: false, refusal: seat.refusal } as const;
    return { ok: true, seat: await insertInvitation(tx, change.config, order, { email, name, seatNumber: seat.seatNumber }) } as const;
  });
}

async function insertInvitation(
  tx: Transaction,
  config: TeamChange['config'],
  order: Order,
  person: { email: string; name: string; seatNumber: number },
): Promise<Seat> {
  const [seat] = await tx
    .insert(seats)
    .values({ transactionId: order.transactionId, ...person, invitedBy: await buyerEmail(tx, order) })
    .returning();
  if (!seat) throw new Error('Seat insert returned no row');
  await raiseSeatEvent(tx, config, { kind: 'invited', seat });
  return seat;
}

/** Undefined also for a malformed id. */
async function liveSeat(tx: Transaction, transactionId: string, seatId: string): Promise<Seat | undefined> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(seatId)) return undefined;
  const [seat] = await tx
    .select()
    .from(seats)
    .where(and(eq(seats.id, seatId), eq(seats.transactionId, transactionId), ne(seats.status, 'revoked')));
  return seat;
}

/** The previous link stops working when the new mail is sent. Refusals: ended, not_found, not_invited. */
export async function resendInvitation(db: Database, change: TeamChange, seatId: string): Promise<SeatResult> {
  return db.transaction(async (tx) => {
    const order = await lockOrder(tx, change.order.transactionId);
    if (!order || !isPaidOrder(order)) return { ok: false, refusal: 'ended' } as const;
    const seat = await liveSeat(tx, order.transactionId, seatId);
    if (!seat) return { ok: false, refusal: 'not_found' } as const;
    if (seat.status !== 'invited' || seat.suspendedAt) return { ok: false, refusal: 'not_invited' } as const;
    await raiseSeatEvent(tx, change.config, { kind: 'invitation_resent', seat, resendId: randomUUID() });
    return { ok: true, seat } as const;
  });
}

/** At once: password, links and hand-off tokens void. Refusal: not_found. Allowed on an ended order. */
export async function revokeSeat(db: Database, change: TeamChange, seatId: string): Promise<SeatResult> {
  return db.transaction(async (tx) => {
    const order = await lockOrder(tx, change.order.transactionId);
    if (!order) return { ok: false, refusal: 'not_found' } as const;
    const seat = await liveSeat(tx, order.transactionId, seatId);
    if (!seat) return { ok: false, refusal: 'not_found' } as const;
    return { ok: true, seat: await revokeIn(tx, change, seat, 'buyer') } as const;
  });
}

/** @throws database errors. */
async function revokeIn(
  tx: Transaction,
  { config, endSignIns }: TeamServices,
  seat: Seat,
  reason: 'buyer' | 'reassigned' | 'subscription_ended',
): Promise<Seat> {
  const [revoked] = await tx
    .update(seats)
    .set({
      status: 'revoked',
      revokedAt: sql`now()`,
      passwordHash: null,
      claimTokenHash: null,
      claimExpiresAt: null,
      updatedAt: sql`now()`,
    })
    .where(eq(seats.id, seat.id))
    .returning();
  await tx
    .update(handoffTokens)
    .set({ revokedAt: sql`now()`, tokenCiphertext: null })
    .where(and(eq(handoffTokens.seatId, seat.id), isNull(handoffTokens.redeemedAt), isNull(handoffTokens.revokedAt)));
  if (!revoked) throw new Error(`Seat ${seat.id} vanished`);
  // The training platform's next check of this person finds no session or grant.
  await endSignIns(tx, seat.id);
  await raiseSeatEvent(tx, config, { kind: 'revoked', seat: revoked, reason });
  return revoked;
}

/** In one transaction. Refusals: ended, not_found, email_invalid, name_required, buyer_email, email_taken. */
export async function reassignSeat(
  db: Database,
  change: TeamChange,
  seatId: string,
  person: { email: string; name: string },
): Promise<SeatResult> {
  const email = person.email.trim();
  const name = person.name.trim();
  return db.transaction(async (tx) => {
    const order = await lockOrder(tx, change.order.transactionId);
    if (!order || !isPaidOrder(order)) return { ok: false, refusal: 'ended' } as const;
    const seat = await liveSeat(tx, order.transactionId, seatId);
    if (!seat || seat.suspendedAt) return { ok: false, refusal: 'not_found' } as const;
    const others = (await seatsOf(tx, order.transactionId)).filter((each) => each.status !== 'revoked' && each.id !== seat.id);
    const refusal = name ? emailRefusal(email, await buyerEmail(tx, order), others) : 'name_required';
    if (refusal) return { ok: false, refusal } as const;
    await revokeIn(tx, change, seat, 'reassigned');
    return { ok: true, seat: await insertInvitation(tx, change.config, order, { email, name, seatNumber: seat.seatNumber }) } as const;
  });
}

/** What the manage page may not go below. */
export async function seatsInUse(db: Database, transactionId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(seats)
    .where(and(eq(seats.transactionId, transactionId), ne(seats.status, 'revoked'), isNull(seats.suspendedAt), gt(seats.seatNumber, 1)));
  return 1 + (row?.n ?? 0);
}

/**
 * The team follows the subscription, in the lifecycle's transaction: ended → every live seat revoked; fewer seats
 * than people → the latest-invited suspended (the buyer is mailed); more → the earliest-suspended restored. @throws
 * database errors: the lifecycle rolls back.
 */
export async function applySeatLifecycle(
  tx: Transaction,
  team: TeamServices,
  { order, ended, seats: changedSeats, changeId }: OrderAnnouncements['teamChanged'],
): Promise<void> {
  const { config } = team;
  const all = await seatsOf(tx, order.transactionId);
  const live = all.filter((seat) => seat.status !== 'revoked');
  if (ended) {
    for (const seat of live) await revokeIn(tx, team, seat, 'subscription_ended');
    return;
  }
  if (!changedSeats) return;
  // Seat 1 outlives any quantity.
  const capacity = changedSeats.to - 1;
  const using = inUseBeyondOne(live);
  if (using.length > capacity) {
    const latestFirst = [...using].sort((a, b) => b.invitedAt.getTime() - a.invitedAt.getTime() || b.seatNumber - a.seatNumber);
    const suspended = latestFirst.slice(0, using.length - capacity);
    for (const seat of suspended)
      await tx
        .update(seats)
        .set({ suspendedAt: sql`now()`, updatedAt: sql`now()` })
        .where(eq(seats.id, seat.id));
    await raiseSeatEvent(tx, config, {
      kind: 'suspended',
      transactionId: order.transactionId,
      changeId,
      names: suspended.map((seat) => `${seat.name} <${seat.email}>`).join(', '),
      count: suspended.length,
    });
    return;
  }
  const waiting = live
    .filter((seat) => seat.suspendedAt !== null && seat.seatNumber > 1)
    .sort((a, b) => a.invitedAt.getTime() - b.invitedAt.getTime());
  const inUseNow = [...using];
  for (const seat of waiting.slice(0, Math.max(0, capacity - using.length))) {
    const seatNumber = lowestFreeNumber(inUseNow);
    await tx
      .update(seats)
      .set({ suspendedAt: null, seatNumber, updatedAt: sql`now()` })
      .where(eq(seats.id, seat.id));
    inUseNow.push({ ...seat, seatNumber, suspendedAt: null });
  }
}

export function seatsInUseMessage(inUse: number): string {
  return `${inUse} people use seats on this subscription (you and ${inUse - 1} invited or joined). Revoke a seat in Your team before going below ${inUse} seats.`;
}
