/**
 * "Forgot your password?" for everyone (docs/decisions/0039). A request is one outbox row whatever the email (no
 * enumeration); at send time a member with a live seat gets a link (SHA-256 kept, NEW_PASSWORD_LINK_MINUTES, a newer
 * voids the older), anyone else goes on as the /account link request. Setting the password spends the link and ends
 * the person's sign-ins, in one transaction.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { NEW_PASSWORD_LINK_MINUTES, newPasswordProblem } from '../../src/domain/newPassword';
import type { Database } from '../db/client';
import { oidcRecords, outbox, seats } from '../db/schema';
import { hashHandoffToken, newHandoffToken } from '../security/handoffToken';
import { hashChosenPassword } from '../security/password';
import { endPersonSignIns } from './oidcStore';
import { findPersonByEmail } from './people';

/** Its payload holds the email as typed. */
export const PASSWORD_LINK_REQUEST = 'password_link';
export const MEMBER_NEW_PASSWORD = 'member_new_password';

/** 'unknown' includes a link replaced by a newer one. */
export type NewPasswordLinkProblem = 'unknown' | 'expired' | 'used' | 'revoked';

/** The same work for every email (no enumeration by timing). */
export async function requestPasswordLink(db: Database, email: string): Promise<void> {
  await db.insert(outbox).values({
    kind: 'mail',
    topic: PASSWORD_LINK_REQUEST,
    dedupeKey: `mail:${PASSWORD_LINK_REQUEST}:${randomUUID()}`,
    transactionId: null,
    payload: { email: email.trim() },
  });
}

/**
 * A member with a live claimed seat, or 'account_link' (buyers, and emails with no login, which that request drops).
 */
export async function passwordLinkOf(
  db: Database,
  email: string,
): Promise<{ seatId: string; email: string; name: string; transactionId: string } | 'account_link'> {
  const person = await findPersonByEmail(db, email);
  if (person?.role !== 'member' || person.revoked || person.status === 'cancelled') return 'account_link';
  return { seatId: person.personId, email: person.email, name: person.name, transactionId: person.orderId };
}

/** Null when the seat holds no login any more. */
export async function mintNewPasswordLink(db: Database, seatId: string): Promise<string | null> {
  const { token, tokenHash } = newHandoffToken();
  const [seat] = await db
    .update(seats)
    .set({ resetTokenHash: tokenHash, resetExpiresAt: sql`now() + make_interval(mins => ${NEW_PASSWORD_LINK_MINUTES})` })
    .where(and(eq(seats.id, seatId), eq(seats.status, 'claimed'), isNull(seats.suspendedAt)))
    .returning({ id: seats.id });
  return seat ? token : null;
}

async function seatOfLink(db: Database, token: string) {
  const [row] = await db
    .select({ seat: seats, live: sql<boolean>`coalesce(${seats.resetExpiresAt} > now(), false)` })
    .from(seats)
    .where(eq(seats.resetTokenHash, hashHandoffToken(token)));
  return row;
}

function problemOf(row: Awaited<ReturnType<typeof seatOfLink>>): NewPasswordLinkProblem | null {
  if (!row) return 'unknown';
  if (row.seat.status !== 'claimed' || row.seat.suspendedAt) return 'revoked';
  if (row.seat.resetExpiresAt === null) return 'used';
  if (!row.live) return 'expired';
  return null;
}

/** For the page and the password manager; changes nothing. */
export async function peekNewPasswordLink(db: Database, token: string): Promise<{ email: string } | { problem: NewPasswordLinkProblem }> {
  const row = await seatOfLink(db, token);
  const problem = problemOf(row);
  if (problem || !row) return { problem: problem ?? 'unknown' };
  return { email: row.seat.email };
}

/**
 * Checks the rules (src/domain/newPassword.ts), hashes with OWASP's parameters, then in one transaction spends the
 * link by a guarded UPDATE (one of two submissions wins) and ends the person's sign-ins and login hints. Returns the
 * person's id, else the problem; nothing changes then.
 */
export async function setNewPassword(
  db: Database,
  token: string,
  password: string,
): Promise<{ personId: string; transactionId: string } | { problem: NewPasswordLinkProblem } | { weak: string }> {
  const row = await seatOfLink(db, token);
  const problem = problemOf(row);
  if (problem || !row) return { problem: problem ?? 'unknown' };
  const weak = newPasswordProblem(password, row.seat.email);
  if (weak) return { weak };
  const passwordHash = await hashChosenPassword(password);
  const changed = await db.transaction(async (tx) => {
    const [seat] = await tx
      .update(seats)
      .set({ passwordHash, resetExpiresAt: null, updatedAt: sql`now()` })
      .where(
        and(
          eq(seats.resetTokenHash, hashHandoffToken(token)),
          eq(seats.status, 'claimed'),
          isNull(seats.suspendedAt),
          gt(seats.resetExpiresAt, sql`now()`),
        ),
      )
      .returning({ id: seats.id, transactionId: seats.transactionId });
    if (!seat) return null;
    await endPersonSignIns(tx, seat.id);
    await tx
      .delete(oidcRecords)
      .where(
        and(eq(oidcRecords.model, 'LoginHint'), sql`${oidcRecords.payload}->>'personId' = ${seat.id}`, isNull(oidcRecords.consumedAt)),
      );
    return seat;
  });
  if (!changed) return { problem: problemOf(await seatOfLink(db, token)) ?? 'used' };
  return { personId: changed.id, transactionId: changed.transactionId };
}
