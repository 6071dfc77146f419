/**
 * The people who may sign in (issue 22): the buyer of each paid order (`accounts`, seat 1, role 'buyer') and the
 * team members who claimed a seat (`seats`, role 'member'). The one place that looks a person up by email, for
 * sign-in pages and the hand-off: a revoked or suspended member has no password that verifies.
 */
import { desc, eq, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../db/client';
import { accounts, orders, seats } from '../db/schema';

/** A person who holds (or held) a seat. `passwordHash` is argon2id, null when no password verifies. */
interface Person {
  /** The buyer's account id (role 'buyer') or the seat's id (role 'member'). */
  id: string;
  email: string;
  name: string;
  passwordHash: string | null;
  orderId: string;
  seatNumber: number;
  role: 'buyer' | 'member';
  /** The buyer: the order's status ('paid', 'past_due', 'cancelled'); a member: 'active', 'invited', 'suspended' or 'revoked'. */
  status: string;
}

/**
 * The person whose login email is `email` (compared case-insensitively): the newest paid order's buyer, else the
 * newest claimed seat, else the newest seat of any state; null when there is none. A member who is not 'active'
 * comes back with `passwordHash` null.
 */
export async function findPersonByEmail(db: Database, email: string): Promise<Person | null> {
  const lower = email.trim().toLowerCase();
  const [buyer] = await db
    .select({ account: accounts, status: orders.status })
    .from(accounts)
    .innerJoin(orders, eq(orders.transactionId, accounts.transactionId))
    .where(sql`lower(${accounts.email}) = ${lower} and ${orders.status} <> 'open'`)
    .orderBy(desc(orders.paidAt))
    .limit(1);
  if (buyer && buyer.status !== 'cancelled')
    return {
      id: buyer.account.id,
      email: buyer.account.email,
      name: buyer.account.name,
      passwordHash: buyer.account.passwordHash,
      orderId: buyer.account.transactionId,
      seatNumber: 1,
      role: 'buyer',
      status: buyer.status,
    };
  const members = await db
    .select()
    .from(seats)
    .where(sql`lower(${seats.email}) = ${lower}`)
    .orderBy(desc(seats.invitedAt));
  const member = members.find((seat) => seat.status === 'claimed' && !seat.suspendedAt) ?? members[0];
  if (member) return memberPerson(member);
  if (buyer)
    return {
      id: buyer.account.id,
      email: buyer.account.email,
      name: buyer.account.name,
      passwordHash: buyer.account.passwordHash,
      orderId: buyer.account.transactionId,
      seatNumber: 1,
      role: 'buyer',
      status: buyer.status,
    };
  return null;
}

function memberPerson(seat: typeof seats.$inferSelect): Person {
  const status = seat.status === 'revoked' ? 'revoked' : seat.suspendedAt ? 'suspended' : seat.status === 'claimed' ? 'active' : 'invited';
  return {
    id: seat.id,
    email: seat.email,
    name: seat.name,
    passwordHash: status === 'active' ? seat.passwordHash : null,
    orderId: seat.transactionId,
    seatNumber: seat.seatNumber,
    role: 'member',
    status,
  };
}

/** The claimed seat `seatId` (for a member's hand-off), or null. */
export async function claimedSeat(db: Database | Transaction, seatId: string) {
  const [seat] = await db.select().from(seats).where(eq(seats.id, seatId));
  return seat ?? null;
}
