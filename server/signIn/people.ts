/**
 * The people who can sign in to the training platform (issue 23), read in this one place: the sign-in route, the
 * OpenID Provider's account lookup and the "forgot your password" path read them through these functions only.
 * Today a person is an order's buyer (table accounts, one per paid order, seat 1); team members with their own
 * accounts join here.
 */
import { desc, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { accounts, orders } from '../db/schema';

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
  /** The seat was taken back from the person (members only). */
  revoked: boolean;
}

const ORDER_STATUS_ACCESS: Record<string, AccessStatus | undefined> = { paid: 'active', past_due: 'past_due', cancelled: 'cancelled' };

const personColumns = {
  personId: accounts.id,
  email: accounts.email,
  name: accounts.name,
  passwordHash: accounts.passwordHash,
  orderId: orders.transactionId,
  orderStatus: orders.status,
};

function toPerson(row: {
  personId: string;
  email: string;
  name: string;
  passwordHash: string | null;
  orderId: string;
  orderStatus: string;
}): Person | null {
  const status = ORDER_STATUS_ACCESS[row.orderStatus];
  if (!status) return null;
  const { orderStatus: _, ...person } = row;
  return { ...person, seatNumber: 1, role: 'buyer', status, revoked: false };
}

/**
 * The person whose login email is `email` (compared case-insensitively, trimmed), or null. When an email holds
 * several subscriptions, the newest paid one's account is the login (the one the newest success page showed).
 */
export async function findPersonByEmail(db: Database, email: string): Promise<Person | null> {
  const [row] = await db
    .select(personColumns)
    .from(accounts)
    .innerJoin(orders, eq(orders.transactionId, accounts.transactionId))
    .where(sql`lower(${accounts.email}) = ${email.trim().toLowerCase()} and ${orders.paidAt} is not null`)
    .orderBy(desc(orders.paidAt))
    .limit(1);
  return row ? toPerson(row) : null;
}

/** The person with id `personId` (an OpenID `sub`), or null (unknown, or not a uuid). */
export async function findPersonById(db: Database, personId: string): Promise<Person | null> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(personId)) return null;
  const [row] = await db
    .select(personColumns)
    .from(accounts)
    .innerJoin(orders, eq(orders.transactionId, accounts.transactionId))
    .where(eq(accounts.id, personId))
    .limit(1);
  return row ? toPerson(row) : null;
}

/** The buyer of order `orderId` (its account, seat 1), or null before the order is paid. */
export async function findBuyerOfOrder(db: Database, orderId: string): Promise<Person | null> {
  const [row] = await db
    .select(personColumns)
    .from(accounts)
    .innerJoin(orders, eq(orders.transactionId, accounts.transactionId))
    .where(eq(accounts.transactionId, orderId))
    .limit(1);
  return row ? toPerson(row) : null;
}

/** True when `person` may sign in: not revoked, the subscription not ended (past due may: the platform decides by the status claim). */
export function maySignIn(person: Person): boolean {
  return !person.revoked && person.status !== 'cancelled' && person.passwordHash !== null;
}
