/**
 * The people who can sign in to the training platform, read in this one place: the sign-in route,
 * the OpenID Provider's account lookup, the hand-off and the "forgot your password" path read them through these
 * functions only. A person is an order's buyer (table accounts, one per paid order, seat 1, role 'buyer') or a team
 * member who claimed a seat (table seats, role 'member'); a revoked, suspended or unclaimed seat holds no login.
 * A buyer who gave seat 1 to someone who claimed it (docs/decisions/0038) holds no seat: that buyer comes back
 * `revoked` (no training sign-in) while seat 1 is the member's; managing the subscription never reads this file.
 */
import { desc, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { accounts, orders, seats } from '../db/schema';
import { seatOneGivenAway } from '../seats';
/** The access a person's subscription gives: 'active' (paid up), 'past_due' (a renewal unpaid), 'cancelled'. */
export type AccessStatus = 'active' | 'past_due' | 'cancelled';

/** A person who may have a login: who they are, their password's argon2id hash (null before credentials are issued), their access. */
export interface Person {
  /** Stable id: the OpenID `sub`. */
  personId: string;
  email: string;
  name: string;
  passwordHash: string | null;
  /** The order's transactionId. */
  orderId: string;
  /** 1-based seat of the order; the buyer holds seat 1. */
  seatNumber: number;
  role: 'buyer' | 'member';
  status: AccessStatus;
  /** The person holds no seat: a member's seat taken back, or a buyer's seat 1 given to someone who claimed it. */
  revoked: boolean;
  /** Whether the agreement site reported this person's training agreement signed (docs/decisions/0063). */
  agreement: AgreementStatus;
}

/** A person's training agreement: 'signed' once the agreement site reported it, else 'pending' (spec §1). */
export type AgreementStatus = 'signed' | 'pending';

const agreementOf = (signedAt: Date | null): AgreementStatus => (signedAt ? 'signed' : 'pending');

const ORDER_STATUS_ACCESS: Record<string, AccessStatus | undefined> = { paid: 'active', past_due: 'past_due', cancelled: 'cancelled' };

const buyerColumns = {
  personId: accounts.id,
  email: accounts.email,
  name: accounts.name,
  passwordHash: accounts.passwordHash,
  orderId: orders.transactionId,
  orderStatus: orders.status,
  /** Seat 1 is held by someone the buyer gave it to (a claimed, unsuspended seat numbered 1). */
  seatOneGiven: seatOneGivenAway(accounts.transactionId),
  agreementSignedAt: accounts.agreementSignedAt,
};

const memberColumns = {
  personId: seats.id,
  email: seats.email,
  name: seats.name,
  passwordHash: seats.passwordHash,
  orderId: orders.transactionId,
  orderStatus: orders.status,
  seatNumber: seats.seatNumber,
  seatStatus: seats.status,
  suspendedAt: seats.suspendedAt,
  agreementSignedAt: seats.agreementSignedAt,
};

interface PersonRow {
  personId: string;
  email: string;
  name: string;
  passwordHash: string | null;
  orderId: string;
  orderStatus: string;
  agreementSignedAt: Date | null;
}

interface BuyerRow extends PersonRow {
  seatOneGiven: boolean;
}

interface MemberRow extends PersonRow {
  seatNumber: number;
  seatStatus: string;
  suspendedAt: Date | null;
}

/** The buyer: seat 1, unless it was given to someone who claimed it (then `revoked`: no seat, no training sign-in). */
function buyerPerson(row: BuyerRow): Person | null {
  const status = ORDER_STATUS_ACCESS[row.orderStatus];
  if (!status) return null;
  const { orderStatus: _, seatOneGiven, agreementSignedAt, ...person } = row;
  return { ...person, seatNumber: 1, role: 'buyer', status, revoked: Boolean(seatOneGiven), agreement: agreementOf(agreementSignedAt) };
}

/** A seat's holder: only a claimed seat that is not suspended keeps its password hash. */
function memberPerson(row: MemberRow): Person | null {
  const status = ORDER_STATUS_ACCESS[row.orderStatus];
  if (!status) return null;
  const holds = row.seatStatus === 'claimed' && row.suspendedAt === null;
  return {
    personId: row.personId,
    email: row.email,
    name: row.name,
    passwordHash: holds ? row.passwordHash : null,
    orderId: row.orderId,
    seatNumber: row.seatNumber,
    role: 'member',
    status,
    revoked: !holds,
    agreement: agreementOf(row.agreementSignedAt),
  };
}

/**
 * The person whose login email is `email` (compared case-insensitively, trimmed), or null. When an email holds
 * several logins, the newest paid order's buyer who holds seat 1 and whose subscription has not ended wins (the
 * login the newest success page showed), then the newest claimed seat, then a buyer without a seat (ended, or seat
 * 1 given away), then the newest seat of any state (revoked).
 */
export async function findPersonByEmail(db: Database, email: string): Promise<Person | null> {
  const lower = email.trim().toLowerCase();
  const buyers = await db
    .select(buyerColumns)
    .from(accounts)
    .innerJoin(orders, eq(orders.transactionId, accounts.transactionId))
    .where(sql`lower(${accounts.email}) = ${lower} and ${orders.paidAt} is not null`)
    .orderBy(desc(orders.paidAt))
    .limit(5);
  const buyer = buyers.map(buyerPerson).find((person) => person !== null && !person.revoked && person.status !== 'cancelled');
  if (buyer) return buyer;
  const members = (
    await db
      .select(memberColumns)
      .from(seats)
      .innerJoin(orders, eq(orders.transactionId, seats.transactionId))
      .where(sql`lower(${seats.email}) = ${lower}`)
      .orderBy(desc(seats.invitedAt))
      .limit(20)
  ).flatMap((row) => memberPerson(row) ?? []);
  const member = members.find((person) => !person.revoked && person.status !== 'cancelled');
  if (member) return member;
  const ended = buyers[0] ? buyerPerson(buyers[0]) : null;
  return ended ?? members[0] ?? null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The person with id `personId` (an OpenID `sub`: a buyer's account id or a member's seat id), or null (unknown, or not a uuid). */
export async function findPersonById(db: Database, personId: string): Promise<Person | null> {
  if (!UUID.test(personId)) return null;
  const [buyer] = await db
    .select(buyerColumns)
    .from(accounts)
    .innerJoin(orders, eq(orders.transactionId, accounts.transactionId))
    .where(eq(accounts.id, personId))
    .limit(1);
  if (buyer) return buyerPerson(buyer);
  const [member] = await db
    .select(memberColumns)
    .from(seats)
    .innerJoin(orders, eq(orders.transactionId, seats.transactionId))
    .where(eq(seats.id, personId))
    .limit(1);
  return member ? memberPerson(member) : null;
}

/** The buyer of order `orderId` (its account, seat 1), or null before the order is paid. */
export async function findBuyerOfOrder(db: Database, orderId: string): Promise<Person | null> {
  const [row] = await db
    .select(buyerColumns)
    .from(accounts)
    .innerJoin(orders, eq(orders.transactionId, accounts.transactionId))
    .where(eq(accounts.transactionId, orderId))
    .limit(1);
  return row ? buyerPerson(row) : null;
}

/** True when `person` may sign in: not revoked, the subscription not ended (past due may: the platform decides by the status claim). */
export function maySignIn(person: Person): boolean {
  return !person.revoked && person.status !== 'cancelled' && person.passwordHash !== null;
}
