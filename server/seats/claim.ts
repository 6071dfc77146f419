/**
 * Claiming a seat on /join: the invitation's single-use link (7 days, SHA-256 kept, a new mail replaces it); one
 * guarded UPDATE claims it while live, so of two browsers exactly one wins and every later use answers 'claimed'. The
 * seat gets a generated password, shown once, and its own hand-off token. Claiming seat 1 ends the buyer's training
 * sign-ins (docs/decisions/0038).
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

/** 'unknown' includes a link replaced by a newer mail. */
export type LinkProblem = 'unknown' | 'expired' | 'claimed' | 'revoked';

/** Null when the seat is no longer waiting to be claimed. */
export async function mintInvitationLink(db: Database, seatId: string): Promise<string | null> {
  const { token, tokenHash } = newHandoffToken();
  const [seat] = await db
    .update(seats)
    .set({ claimTokenHash: tokenHash, claimExpiresAt: sql`now() + make_interval(days => ${INVITATION_LINK_DAYS})` })
    .where(and(eq(seats.id, seatId), eq(seats.status, 'invited'), isNull(seats.suspendedAt)))
    .returning({ id: seats.id });
  return seat ? token : null;
}

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

/** For /join to show before accepting; changes nothing. */
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

interface ClaimedSeat {
  transactionId: string;
  seatId: string;
  seatNumber: number;
  email: string;
  name: string;
  password: string;
  handoffToken: string;
}

/** Raises `seat.claimed`; a second claim answers 'claimed'. */
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
    // docs/decisions/0038: the buyer's login holds no seat now; their manage-page sessions go on.
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
