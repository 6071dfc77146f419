/**
 * "Forgot your password?" on /sign-in for everyone (docs/decisions/0039). A request is one outbox row
 * whatever the email (requestPasswordLink: the same answer and the same work for a buyer, a member and an unknown
 * email); the outbox worker decides at send time whom it is for (passwordLinkOf): a team member with a live
 * claimed seat gets a "set a new password" link, minted then (mintNewPasswordLink: 32 random bytes, only the SHA-256
 * kept on the seat, NEW_PASSWORD_LINK_MINUTES, a newer link voids the older); anyone else goes on as the /account
 * link request (the buyer's mail, or nothing for an email with no subscription). The member opens the link on
 * /sign-in/new-password, which looks at it (peekNewPasswordLink) and sets the password (setNewPassword): one guarded
 * UPDATE spends the link and stores the argon2id hash (OWASP's parameters), and every sign-in of that person to the
 * training platform ends with it, in one transaction.
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

/** The outbox topic of a "Forgot your password?" request; its payload holds the email as typed. */
export const PASSWORD_LINK_REQUEST = 'password_link';
/** The mail topic a member's request becomes (server/outbox/mailTemplates.ts). */
export const MEMBER_NEW_PASSWORD = 'member_new_password';

/** Why a link cannot set a password: unknown (or replaced by a newer one), expired, already used, or the seat is gone. */
export type NewPasswordLinkProblem = 'unknown' | 'expired' | 'used' | 'revoked';

/**
 * Queues the answer to "Forgot your password?" for `email`: one outbox row, no order yet, resolved when sent.
 * The same work for every email (no enumeration by timing).
 */
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
 * Whom a request for `email` is for, at send time: a member with a live claimed seat (the seat, for its own mail),
 * or 'account_link' (buyers, and the emails with no login, which the /account link request drops unmailed).
 */
export async function passwordLinkOf(
  db: Database,
  email: string,
): Promise<{ seatId: string; email: string; name: string; transactionId: string } | 'account_link'> {
  const person = await findPersonByEmail(db, email);
  if (person?.role !== 'member' || person.revoked || person.status === 'cancelled') return 'account_link';
  return { seatId: person.personId, email: person.email, name: person.name, transactionId: person.orderId };
}

/**
 * A new "set a new password" token for claimed, unsuspended seat `seatId`, replacing any earlier one, valid
 * NEW_PASSWORD_LINK_MINUTES from now; null when the seat holds no login any more.
 */
export async function mintNewPasswordLink(db: Database, seatId: string): Promise<string | null> {
  const { token, tokenHash } = newHandoffToken();
  const [seat] = await db
    .update(seats)
    .set({ resetTokenHash: tokenHash, resetExpiresAt: sql`now() + make_interval(mins => ${NEW_PASSWORD_LINK_MINUTES})` })
    .where(and(eq(seats.id, seatId), eq(seats.status, 'claimed'), isNull(seats.suspendedAt)))
    .returning({ id: seats.id });
  return seat ? token : null;
}

/** The seat a link's token names and whether the link is live, or undefined. */
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

/** The email whose password the link behind `token` sets (for the page and the password manager), or why not. Changes nothing. */
export async function peekNewPasswordLink(db: Database, token: string): Promise<{ email: string } | { problem: NewPasswordLinkProblem }> {
  const row = await seatOfLink(db, token);
  const problem = problemOf(row);
  if (problem || !row) return { problem: problem ?? 'unknown' };
  return { email: row.seat.email };
}

/**
 * Sets `password` as the new password of the member behind `token`, once: checks the rules
 * (src/domain/newPassword.ts) against the seat's email, hashes with OWASP's argon2id parameters, then in one
 * transaction spends the link and stores the hash with a guarded UPDATE (of two submissions one wins) and ends
 * every OpenID session and grant of the person (endPersonSignIns) and their unused login hints. The hand-off token
 * the claim gave stays as decision 0026 says (docs/decisions/0039). Returns the person's id, the link's problem, or
 * the rule the password breaks (`weak`, in words); nothing changes unless it is the id.
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
