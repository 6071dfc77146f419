/**
 * Claiming a seat on /join: the invitation mail carries a single-use link valid 7 days, minted when the
 * mail is sent (mintInvitationLink; only its SHA-256 is kept, on the seat; a new mail replaces it). The invitee
 * looks at the invitation (peekInvitation), then claims it (claimSeat): one guarded UPDATE turns the seat from
 * 'invited' to 'claimed' only while the link is live, so of two browsers claiming at once exactly one wins; the
 * other, and every later use, answers 'claimed'. The claimed seat gets a generated password (argon2id, as the
 * buyer's: server/security/password.ts), shown once, and its own hand-off token for the agreement site. Claiming
 * seat 1, given by the buyer (docs/decisions/0038), also ends the buyer's sign-ins to the training platform.
 */
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { JoinInvitation } from '../../src/contract/team';
import { PRODUCT_NAME } from '../../src/domain/product';
import { INVITATION_LINK_DAYS, practiceName } from '../../src/domain/team';
import type { Database } from '../db/client';
import { accounts, handoffTokens, seats } from '../db/schema';
import { hashHandoffToken, newHandoffToken } from '../security/handoffToken';
import { generatePassword, hashPassword } from '../security/password';
import { raiseSeatEvent } from '../outbox';
import type { Config } from '../config';
import type { EndSignIns } from './seats';

/** Why a link cannot be used: unknown (or replaced by a newer mail), expired, already claimed, revoked/suspended. */
export type LinkProblem = 'unknown' | 'expired' | 'claimed' | 'revoked';

/**
 * A new link token for invited seat `seatId`, replacing the previous one, valid INVITATION_LINK_DAYS from now; null
 * when the seat is no longer waiting to be claimed (revoked or claimed before the mail went out).
 */
export async function mintInvitationLink(db: Database, seatId: string): Promise<string | null> {
  const { token, tokenHash } = newHandoffToken();
  const [seat] = await db
    .update(seats)
    .set({ claimTokenHash: tokenHash, claimExpiresAt: sql`now() + make_interval(days => ${INVITATION_LINK_DAYS})` })
    .where(and(eq(seats.id, seatId), eq(seats.status, 'invited'), isNull(seats.suspendedAt)))
    .returning({ id: seats.id });
  return seat ? token : null;
}

/** What a link's token finds: the seat, or why not. */
async function seatOfLink(db: Database, token: string) {
  const [row] = await db
    .select({ seat: seats, buyer: accounts, live: sql<boolean>`${seats.claimExpiresAt} > now()` })
    .from(seats)
    .leftJoin(accounts, eq(accounts.transactionId, seats.transactionId))
    .where(eq(seats.claimTokenHash, hashHandoffToken(token)));
  return row;
}

function problemOf(row: Awaited<ReturnType<typeof seatOfLink>>): LinkProblem | null {
  if (!row) return 'unknown';
  if (row.seat.status === 'claimed') return 'claimed';
  if (row.seat.status === 'revoked' || row.seat.suspendedAt) return 'revoked';
  if (!row.live) return 'expired';
  return null;
}

/** The invitation behind `token`, for /join to show before accepting, or why it cannot be used. Changes nothing. */
export async function peekInvitation(db: Database, token: string): Promise<JoinInvitation | { problem: LinkProblem }> {
  const row = await seatOfLink(db, token);
  const problem = problemOf(row);
  if (problem || !row) return { problem: problem ?? 'unknown' };
  return {
    email: row.seat.email,
    name: row.seat.name,
    invitedBy: row.buyer?.name ?? row.seat.invitedBy,
    practiceName: practiceName(row.buyer?.name ?? row.seat.invitedBy),
    productName: PRODUCT_NAME,
    expiresAt: row.seat.claimExpiresAt?.toISOString() ?? '',
  };
}

/** A claimed seat's login, shown once, and its hand-off token. */
interface ClaimedSeat {
  transactionId: string;
  seatId: string;
  seatNumber: number;
  email: string;
  name: string;
  password: string;
  handoffToken: string;
}

/**
 * Claims the seat behind `token` once (see the module comment); raises `seat.claimed`.
 * Returns the login, or the problem: a second claim of a claimed seat answers 'claimed'.
 */
export async function claimSeat(
  db: Database,
  config: Pick<Config, 'SUCCESS_SITE_WEBHOOK_URL' | 'HANDOFF_TTL_MINUTES'>,
  token: string,
  endSignIns: EndSignIns,
): Promise<ClaimedSeat | { problem: LinkProblem }> {
  const password = generatePassword();
  const passwordHash = await hashPassword(password);
  const handoff = newHandoffToken();
  const claimed = await db.transaction(async (tx) => {
    const [seat] = await tx
      .update(seats)
      .set({ status: 'claimed', claimedAt: sql`now()`, passwordHash, updatedAt: sql`now()` })
      .where(
        and(
          eq(seats.claimTokenHash, hashHandoffToken(token)),
          eq(seats.status, 'invited'),
          isNull(seats.suspendedAt),
          gt(seats.claimExpiresAt, sql`now()`),
        ),
      )
      .returning();
    if (!seat) return null;
    await tx.insert(handoffTokens).values({
      tokenHash: handoff.tokenHash,
      transactionId: seat.transactionId,
      seatId: seat.id,
      expiresAt: sql`now() + make_interval(mins => ${config.HANDOFF_TTL_MINUTES})`,
    });
    await raiseSeatEvent(tx, config, { kind: 'claimed', seat });
    // Seat 1 claimed: the buyer's login holds no seat from now on (docs/decisions/0038), so the buyer's sign-ins
    // to the training platform end; the buyer's manage-page sessions go on.
    if (seat.seatNumber === 1) {
      const [buyer] = await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.transactionId, seat.transactionId));
      if (buyer) await endSignIns(tx, buyer.id);
    }
    return seat;
  });
  if (!claimed) return { problem: problemOf(await seatOfLink(db, token)) ?? 'claimed' };
  return {
    transactionId: claimed.transactionId,
    seatId: claimed.id,
    seatNumber: claimed.seatNumber,
    email: claimed.email,
    name: claimed.name,
    password,
    handoffToken: handoff.token,
  };
}
