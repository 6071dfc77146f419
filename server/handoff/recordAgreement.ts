/**
 * The agreement site reports a person's signed agreement (docs/decisions/0063): the first report's time is kept; a
 * repeat answers the same time, as the site may resend until it has our answer.
 */
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { AgreementSignedResponse } from '../../src/contract/agreement';
import type { Database, Transaction } from '../db/client';
import { accounts, orders, seats } from '../db/schema';
import { seatOneGivenAway } from '../seats';

/**
 * `email` case-insensitive; a claimed seat's member first, else the buyer while they hold seat 1
 * (docs/decisions/0038). Null when no one with that email holds a seat on that paid order.
 */
export async function recordAgreementSigned(
  db: Database,
  { transactionId, email }: { transactionId: string; email: string },
): Promise<AgreementSignedResponse | null> {
  const lower = email.trim().toLowerCase();
  return db.transaction(async (tx) => (await signMember(tx, transactionId, lower)) ?? (await signBuyer(tx, transactionId, lower)));
}

async function signMember(tx: Transaction, transactionId: string, email: string): Promise<AgreementSignedResponse | null> {
  const [seat] = await tx
    .select({ id: seats.id, email: seats.email, seatNumber: seats.seatNumber, signedAt: seats.agreementSignedAt })
    .from(seats)
    .where(and(eq(seats.transactionId, transactionId), sql`lower(${seats.email}) = ${email}`, eq(seats.status, 'claimed')))
    .limit(1)
    .for('update');
  if (!seat) return null;
  const signedAt =
    seat.signedAt ??
    (
      await tx
        .update(seats)
        .set({ agreementSignedAt: sql`now()` })
        .where(and(eq(seats.id, seat.id), isNull(seats.agreementSignedAt)))
        .returning({
          at: seats.agreementSignedAt,
        })
    )[0]?.at;
  if (!signedAt) throw new Error(`The agreement of seat ${seat.id} was not recorded`);
  return answer(transactionId, seat.email, 'member', seat.seatNumber, signedAt, seat.signedAt !== null);
}

async function signBuyer(tx: Transaction, transactionId: string, email: string): Promise<AgreementSignedResponse | null> {
  const [buyer] = await tx
    .select({ id: accounts.id, email: accounts.email, signedAt: accounts.agreementSignedAt })
    .from(accounts)
    .innerJoin(orders, eq(orders.transactionId, accounts.transactionId))
    .where(
      and(
        eq(accounts.transactionId, transactionId),
        sql`lower(${accounts.email}) = ${email}`,
        sql`${orders.paidAt} is not null`,
        sql`not ${seatOneGivenAway(accounts.transactionId)}`,
      ),
    )
    .limit(1)
    .for('update', { of: accounts });
  if (!buyer) return null;
  const signedAt =
    buyer.signedAt ??
    (
      await tx
        .update(accounts)
        .set({ agreementSignedAt: sql`now()` })
        .where(eq(accounts.id, buyer.id))
        .returning({ at: accounts.agreementSignedAt })
    )[0]?.at;
  if (!signedAt) throw new Error(`The agreement of account ${buyer.id} was not recorded`);
  return answer(transactionId, buyer.email, 'buyer', 1, signedAt, buyer.signedAt !== null);
}

function answer(
  transactionId: string,
  email: string,
  role: 'buyer' | 'member',
  seatNumber: number,
  signedAt: Date,
  alreadySigned: boolean,
): AgreementSignedResponse {
  return { transactionId, email, role, seatNumber, agreement: 'signed', signedAt: signedAt.toISOString(), alreadySigned };
}
