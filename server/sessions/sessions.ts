/**
 * One session mechanism for owners, buyers and referrers, server-side and revocable (docs/decisions/0022). The cookie
 * holds a random 256-bit id, the table only its SHA-256. A session ends after its idle lifetime or its absolute one
 * (OWASP Session Management Cheat Sheet); deleting its row ends it everywhere.
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, lt, ne, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import type { Database, Transaction } from '../db/client';
import { sessions } from '../db/schema';

type SessionKind = 'owner' | 'buyer' | 'referrer';

interface SessionRules {
  kind: SessionKind;
  cookieName: string;
  path: string;
  idleMs: number;
  /** From sign-in, used or not. */
  maxMs: number;
}

export interface SignedIn {
  subject: string;
  idHash: string;
}

export interface SessionKeeper {
  /** The live session or null; using it moves its idle end on. Read once per request. */
  current(request: FastifyRequest): Promise<SignedIn | null>;
  /** Ends the request's previous session (no fixation), stores a fresh id, sets the cookie. */
  open(request: FastifyRequest, reply: FastifyReply, subject: string): Promise<SignedIn>;
  close(request: FastifyRequest, reply: FastifyReply): Promise<void>;
}

const HOUR_MS = 60 * 60 * 1000;

export const ownerSessionRules = (config: Config): SessionRules => ({
  kind: 'owner',
  cookieName: 'owner_session',
  path: '/api/admin',
  idleMs: config.OWNER_SESSION_HOURS * HOUR_MS,
  maxMs: config.OWNER_SESSION_MAX_HOURS * HOUR_MS,
});

export const SIGN_IN_AGAIN = 'Your session has ended. Please ask for a new link.';

export const buyerSessionRules = (config: Config): SessionRules => ({
  kind: 'buyer',
  cookieName: 'account_session',
  path: '/api/account',
  idleMs: HOUR_MS,
  maxMs: config.ACCOUNT_SESSION_MAX_HOURS * HOUR_MS,
});

export const referrerSessionRules = (config: Config): SessionRules => ({
  kind: 'referrer',
  cookieName: 'partner_session',
  path: '/api/partner',
  idleMs: HOUR_MS,
  maxMs: config.ACCOUNT_SESSION_MAX_HOURS * HOUR_MS,
});

const sessionIdHash = (sessionId: string) => createHash('sha256').update(sessionId).digest('hex');

/** `Secure` when PUBLIC_URL is https, or the request came over https through a proxy TRUST_PROXY believes. */
function secureCookie(config: Config, request: FastifyRequest): boolean {
  if (config.PUBLIC_URL?.startsWith('https:')) return true;
  return config.TRUST_PROXY !== false && request.protocol === 'https';
}

export function sessionKeeper(db: Database, config: Config, rules: SessionRules): SessionKeeper {
  const read = new WeakMap<FastifyRequest, Promise<SignedIn | null>>();
  const cookieOptions = (request: FastifyRequest) => ({
    path: rules.path,
    httpOnly: true,
    sameSite: 'strict' as const,
    secure: secureCookie(config, request),
  });

  async function lookUp(request: FastifyRequest): Promise<SignedIn | null> {
    const sessionId = request.cookies[rules.cookieName];
    if (!sessionId) return null;
    const idHash = sessionIdHash(sessionId);
    const now = new Date();
    // One statement: still live (idle and absolute) → its idle end moves on, capped at the absolute end.
    const [row] = await db
      .update(sessions)
      .set({
        lastSeenAt: now,
        expiresAt: sql`least(${new Date(now.getTime() + rules.idleMs).toISOString()}::timestamptz, ${sessions.createdAt} + make_interval(secs => ${rules.maxMs / 1000}))`,
      })
      .where(
        and(
          eq(sessions.idHash, idHash),
          eq(sessions.kind, rules.kind),
          gt(sessions.expiresAt, now),
          gt(sessions.createdAt, new Date(now.getTime() - rules.maxMs)),
        ),
      )
      .returning({ subject: sessions.subject });
    return row ? { subject: row.subject, idHash } : null;
  }

  async function endOwn(request: FastifyRequest): Promise<void> {
    const sessionId = request.cookies[rules.cookieName];
    read.delete(request);
    if (sessionId) await db.delete(sessions).where(and(eq(sessions.idHash, sessionIdHash(sessionId)), eq(sessions.kind, rules.kind)));
  }

  return {
    current(request) {
      let session = read.get(request);
      if (!session) {
        session = lookUp(request);
        read.set(request, session);
      }
      return session;
    },
    async open(request, reply, subject) {
      await endOwn(request);
      const sessionId = randomBytes(32).toString('base64url');
      const now = new Date();
      const idHash = sessionIdHash(sessionId);
      await db.insert(sessions).values({
        idHash,
        kind: rules.kind,
        subject,
        createdAt: now,
        lastSeenAt: now,
        expiresAt: new Date(now.getTime() + Math.min(rules.idleMs, rules.maxMs)),
      });
      // The cookie outlives neither the absolute lifetime nor the browser; the server enforces the idle end.
      reply.setCookie(rules.cookieName, sessionId, { ...cookieOptions(request), maxAge: Math.floor(rules.maxMs / 1000) });
      const signedIn = { subject, idHash };
      read.set(request, Promise.resolve(signedIn));
      return signedIn;
    },
    async close(request, reply) {
      await endOwn(request);
      read.set(request, Promise.resolve(null));
      reply.clearCookie(rules.cookieName, cookieOptions(request));
    },
  };
}

/** Ends the order's buyer sessions but `except` (the one that changed the credentials). Returns how many. */
export async function endBuyerSessions(
  db: Database | Transaction,
  transactionId: string,
  { except }: { except?: string } = {},
): Promise<number> {
  const ended = await db
    .delete(sessions)
    .where(and(eq(sessions.kind, 'buyer'), eq(sessions.subject, transactionId), except ? ne(sessions.idHash, except) : undefined))
    .returning({ idHash: sessions.idHash });
  return ended.length;
}

/** Ends every console session of owner `ownerId` (a new password). Returns how many. */
export async function endOwnerSessions(db: Database | Transaction, ownerId: string): Promise<number> {
  const ended = await db
    .delete(sessions)
    .where(and(eq(sessions.kind, 'owner'), eq(sessions.subject, ownerId)))
    .returning({ idHash: sessions.idHash });
  return ended.length;
}

/** The retention sweep's part: deletes ended sessions. Returns how many. */
export async function deleteEndedSessions(db: Database | Transaction): Promise<number> {
  const ended = await db.delete(sessions).where(lt(sessions.expiresAt, new Date())).returning({ idHash: sessions.idHash });
  return ended.length;
}
