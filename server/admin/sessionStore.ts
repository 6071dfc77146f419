/**
 * @fastify/session's store on the database (table owner_sessions), so every server process sees every console
 * session and signing out ends it everywhere. Only sessions of a signed-in owner are stored
 * (saveUninitialized: false; sign-in sets `ownerId`). Rows are keyed by the SHA-256 of the session id.
 */
import { createHash } from 'node:crypto';
import type { SessionStore } from '@fastify/session';
import { and, eq, gt } from 'drizzle-orm';
import type { Database } from '../db/client';
import { ownerSessions } from '../db/schema';

const idHash = (sessionId: string) => createHash('sha256').update(sessionId).digest('hex');

/** The store; `ttlMs` is how long a session lives after its last save (rolling). */
export function databaseSessionStore(db: Database, ttlMs: number): SessionStore {
  return {
    set(sessionId, session, callback) {
      const ownerId = (session as { ownerId?: unknown }).ownerId;
      if (typeof ownerId !== 'string') {
        callback();
        return;
      }
      const row = { ownerId, data: JSON.parse(JSON.stringify(session)) as Record<string, unknown>, expiresAt: new Date(Date.now() + ttlMs) };
      db.insert(ownerSessions)
        .values({ idHash: idHash(sessionId), ...row })
        .onConflictDoUpdate({ target: ownerSessions.idHash, set: row })
        .then(() => callback(), callback);
    },
    get(sessionId, callback) {
      db.select()
        .from(ownerSessions)
        .where(and(eq(ownerSessions.idHash, idHash(sessionId)), gt(ownerSessions.expiresAt, new Date())))
        .then(([row]) => callback(null, (row?.data ?? null) as never), callback);
    },
    destroy(sessionId, callback) {
      db.delete(ownerSessions)
        .where(eq(ownerSessions.idHash, idHash(sessionId)))
        .then(() => callback(), callback);
    },
  };
}

