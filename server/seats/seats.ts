/**
 * The buyer's team (the rules: docs/decisions/0032-seat-rules.md). An order has as many seats as its
 * subscription's quantity: seat 1 is the buyer's (`accounts`), every other seat is empty or given to one person
 * (a row of `seats`): invited → claimed, either → revoked (the seat is free again), and suspended while the
 * provider's quantity is below the people on the order. Seats are ours; the quantity is the provider's.
 * The buyer may give seat 1 itself to someone else (a row of `seats` with seat number 1, docs/decisions/0038): once
 * claimed, that person's login holds seat 1 and the buyer's holds none, but the buyer still manages everything.
 * Seat 1 is never free, never counted among the free seats, and never suspended.
 *
 * Every change runs in one transaction under the order's row lock (SELECT … FOR UPDATE), so two invitations for
 * the last free seat cannot both win, and writes its mail and the agreement site's webhook to the outbox in the
 * same transaction (server/outbox/seatEvents.ts). A refusal changes nothing.
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

/** One row of `seats`. */
export type Seat = typeof seats.$inferSelect;

/** Why a team change was refused; the route maps each to a status and a message. */
export type SeatRefusal =
  /** The subscription has ended or is not paid up. */
  | 'ended'
  /** Every seat is given (or the order has one seat). */
  | 'no_free_seat'
  | 'email_invalid'
  /** A name of spaces only. */
  | 'name_required'
  /** The buyer's own login email. */
  | 'buyer_email'
  /** Someone on the order already has this email. */
  | 'email_taken'
  /** No such seat on this order (or it was revoked). */
  | 'not_found'
  /** A resend for a seat that is not waiting to be claimed. */
  | 'not_invited'
  /** Seat 1 is already given to someone (invited or claimed): take it back or reassign it. */
  | 'seat_one_given';

export type SeatResult = { ok: true; seat: Seat } | { ok: false; refusal: SeatRefusal };

/**
 * Ends every sign-in of person `personId` (a seat's id, or the buyer's account id) to the training platform in `tx`:
 * the sign-in hands it in (server/signIn/index.ts, endPersonSignIns), so the team, before it in the feature
 * order, does not import it.
 */
export type EndSignIns = (tx: Transaction, personId: string) => Promise<unknown>;

/** What a change to the team is made with: the webhook's settings and how a person's sign-ins end. */
interface TeamServices {
  config: Pick<Config, 'SUCCESS_SITE_WEBHOOK_URL'>;
  endSignIns: EndSignIns;
}

/** Who is acting on the team: the order's buyer (their login email is recorded as `invitedBy`). */
interface TeamChange extends TeamServices {
  order: Order;
}

/** True for a seat that holds its number and counts as in use: invited or claimed, not suspended. */
const inUse = (seat: Pick<Seat, 'status' | 'suspendedAt'>) => seat.status !== 'revoked' && seat.suspendedAt === null;

/** The order's seats given to someone (any state), oldest invitation first. */
export async function seatsOf(db: Database | Transaction, transactionId: string): Promise<Seat[]> {
  return db.select().from(seats).where(eq(seats.transactionId, transactionId)).orderBy(asc(seats.invitedAt), asc(seats.id));
}

/** A seat as the buyer and the console see it. */
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

/** The order's team as the success page and the manage page show it: live seats, and how many are free. */
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

/** Live seats in use from number 2 on (seat 1, whoever holds it, is not one of the seats to give). */
const inUseBeyondOne = (live: Seat[]) => live.filter((seat) => inUse(seat) && seat.seatNumber > 1);

/** Seats 2…quantity not held by a live, unsuspended seat. */
function freeSeats(quantity: number, live: Seat[]): number {
  return Math.max(0, quantity - 1 - inUseBeyondOne(live).length);
}

/** The lowest seat number from 2 that no seat in use holds (quantity is not checked here). */
function lowestFreeNumber(live: Seat[]): number {
  const taken = new Set(live.filter(inUse).map((seat) => seat.seatNumber));
  let number = 2;
  while (taken.has(number)) number += 1;
  return number;
}

/** Locks and re-reads the order in `tx` (the team's changes run one at a time per order). */
async function lockOrder(tx: Transaction, transactionId: string): Promise<Order | undefined> {
  const [order] = await tx.select().from(orders).where(eq(orders.transactionId, transactionId)).for('update');
  return order;
}

/** The buyer's login email (case as entered). */
async function buyerEmail(tx: Transaction, order: Order): Promise<string> {
  const [account] = await tx.select({ email: accounts.email }).from(accounts).where(eq(accounts.transactionId, order.transactionId));
  return account?.email ?? order.email ?? '';
}

/** Why `email` cannot be invited to `order` (given its live seats), or null. */
function emailRefusal(email: string, buyer: string, live: Seat[]): SeatRefusal | null {
  if (!EMAIL_PATTERN.test(email)) return 'email_invalid';
  const lower = email.toLowerCase();
  if (lower === buyer.toLowerCase()) return 'buyer_email';
  if (live.some((seat) => seat.email.toLowerCase() === lower)) return 'email_taken';
  return null;
}

/**
 * Invites `person` (email and name, trimmed) to the lowest free seat of the order: a row 'invited', the
 * invitation mail (its single-use link is minted when the mail is sent) and `seat.invited`.
 * Refusals: ended, no_free_seat, email_invalid, name_required, buyer_email, email_taken.
 */
export async function inviteToSeat(db: Database, change: TeamChange, person: { email: string; name: string }): Promise<SeatResult> {
  return invite(db, change, person, (order, live) =>
    freeSeats(order.quantity, live) === 0 ? { refusal: 'no_free_seat' } : { seatNumber: lowestFreeNumber(live) },
  );
}

/**
 * Gives seat 1, the buyer's own, to `person` (email and name, trimmed; docs/decisions/0038): a row 'invited' with
 * seat number 1, the same invitation mail and `seat.invited` as any seat. The buyer's login keeps seat 1 until the
 * invitee claims it (server/signIn/people.ts); the buyer manages the subscription and the team throughout.
 * Refusals: ended, seat_one_given, email_invalid, name_required, buyer_email, email_taken.
 */
export async function giveSeatOne(db: Database, change: TeamChange, person: { email: string; name: string }): Promise<SeatResult> {
  return invite(db, change, person, (_order, live) => (seatOneGiven(live) ? { refusal: 'seat_one_given' } : { seatNumber: 1 }));
}

/**
 * The one invitation step of `inviteToSeat` and `giveSeatOne`, under the order's row lock: the order still paid,
 * the person's name and email accepted, then `seatFor` picks the seat's number from the live seats (or refuses).
 */
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

/** The order's live seat `seatId`, or undefined (also for a malformed id: seat ids are UUIDs). */
async function liveSeat(tx: Transaction, transactionId: string, seatId: string): Promise<Seat | undefined> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(seatId)) return undefined;
  const [seat] = await tx
    .select()
    .from(seats)
    .where(and(eq(seats.id, seatId), eq(seats.transactionId, transactionId), ne(seats.status, 'revoked')));
  return seat;
}

/**
 * Sends the invitation again (a new link; the previous one stops working when the new mail is sent).
 * Refusals: ended, not_found, not_invited (already claimed).
 */
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

/**
 * Ends seat `seatId`'s access at once and frees it: status 'revoked', password hash and invitation link wiped,
 * its unredeemed hand-off tokens revoked, `seat.revoked` raised. Refusal: not_found. Allowed on an ended order.
 */
export async function revokeSeat(db: Database, change: TeamChange, seatId: string): Promise<SeatResult> {
  return db.transaction(async (tx) => {
    const order = await lockOrder(tx, change.order.transactionId);
    if (!order) return { ok: false, refusal: 'not_found' } as const;
    const seat = await liveSeat(tx, order.transactionId, seatId);
    if (!seat) return { ok: false, refusal: 'not_found' } as const;
    return { ok: true, seat: await revokeIn(tx, change, seat, 'buyer') } as const;
  });
}

/**
 * Revokes `seat` in `tx` (its order locked by the caller): its password, links and hand-off tokens void, its
 * sign-ins to the training platform ended; `reason` goes into the webhook.
 * @throws database errors.
 */
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
  // Signed out of the training platform too: its next check of this person finds no session or grant.
  await endSignIns(tx, seat.id);
  await raiseSeatEvent(tx, config, { kind: 'revoked', seat: revoked, reason });
  return revoked;
}

/**
 * Gives seat `seatId` to someone else: the current person is revoked (as revokeSeat) and `person` invited to the
 * same seat number, in one transaction. Refusals: ended, not_found, email_invalid, name_required, buyer_email,
 * email_taken.
 */
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

/** Live seats in use on the order (invited or claimed, not suspended): what the manage page may not go below. */
export async function seatsInUse(db: Database, transactionId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(seats)
    .where(and(eq(seats.transactionId, transactionId), ne(seats.status, 'revoked'), isNull(seats.suspendedAt), gt(seats.seatNumber, 1)));
  return 1 + (row?.n ?? 0);
}

/**
 * The team follows the subscription (the lifecycle's 'teamChanged', server/checkout/orderListeners.ts, heard in its
 * transaction, the order locked): the subscription ended → every live seat revoked (`seat.revoked` each); the quantity fell below the
 * people on the order → the latest-invited seats in use suspended (the buyer is mailed); the quantity rose → the
 * earliest-suspended seats restored, each to the lowest free number, as far as seats allow.
 * @throws database errors: the lifecycle's transaction is rolled back with everything it raised.
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
  // Seat 1 (the buyer's, or given by the buyer) outlives any quantity: only seats 2 and on are suspended.
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

/** The manage page's refusal when the buyer asks for fewer seats than `inUse` (the buyer's own included). */
export function seatsInUseMessage(inUse: number): string {
  return `${inUse} people use seats on this subscription (you and ${inUse - 1} invited or joined). Revoke a seat in Your team before going below ${inUse} seats.`;
}
