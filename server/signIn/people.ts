/**
 * The people who can sign in to the training platform, read in this one place: an order's buyer (accounts, seat 1) or
 * a member who claimed a seat. A buyer who gave seat 1 away comes back `revoked` (docs/decisions/0038); managing the
 * subscription never reads this file.
 */
import { desc, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { accounts, orders, seats } from '../db/schema';
import { seatOneGivenAway } from '../seats';
export type AccessStatus = 'active' | 'past_due' | 'cancelled';

/** `passwordHash` is null before credentials are issued. */
export interface Person {
  /** The OpenID `sub`. */
  personId: string;
  email: string;
  name: string;
  passwordHash: string | null;
  /** The order's transactionId. */
  orderId: string;
  seatNumber: number;
  role: 'buyer' | 'member';
  status: AccessStatus;
  revoked: boolean;
  agreement: AgreementStatus;
}

/** Spec §1: signed before the platform is used (docs/decisions/0063). */
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

function buyerPerson(row: BuyerRow): Person | null {
  const status = ORDER_STATUS_ACCESS[row.orderStatus];
  if (!status) return null;
  const { orderStatus: _, seatOneGiven, agreementSignedAt, ...person } = row;
  return { ...person, seatNumber: 1, role: 'buyer', status, revoked: Boolean(seatOneGiven), agreement: agreementOf(agreementSignedAt) };
}

/** Only a claimed, unsuspended seat keeps its password hash. */
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
 * `email` trimmed, case-insensitive. Of several logins: the newest paid order's buyer holding seat 1 and live (the
 * login the newest success page showed), then the newest claimed seat, then a buyer without a seat, then any seat.
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

/** Null when unknown or not a uuid. */
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

/** Null before the order is paid. */
export async function findBuyerOfOrder(db: Database, orderId: string): Promise<Person | null> {
  const [row] = await db
    .select(buyerColumns)
    .from(accounts)
    .innerJoin(orders, eq(orders.transactionId, accounts.transactionId))
    .where(eq(accounts.transactionId, orderId))
    .limit(1);
  return row ? buyerPerson(row) : null;
}

/** Past due may: the platform decides by the status claim. */
export function maySignIn(person: Person): boolean {
  return !person.revoked && person.status !== 'cancelled' && person.passwordHash !== null;
}
