/**
 * One-time login hints (docs/decisions/0034): given with a hand-off redemption, passed as the platform's `login_hint`
 * within LOGIN_HINT_SECONDS, it signs the person in once without the password. Stored by SHA-256; used by a guarded
 * UPDATE, so two uses cannot both succeed.
 */
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { oidcRecords } from '../db/schema';
import { hashHandoffToken, newHandoffToken } from '../security/handoffToken';

/** Long enough to sign the agreement and go on to the platform. */
const LOGIN_HINT_SECONDS = 30 * 60;

const MODEL = 'LoginHint';

/** Anything else is an ordinary login_hint (an email). */
export function looksLikeLoginHint(value: unknown): value is string {
  return typeof value === 'string' && /^[A-Za-z0-9_-]{43}$/.test(value);
}

/** Shown once, to the agreement site. */
export async function issueLoginHint(db: Database, personId: string): Promise<string> {
  const { token, tokenHash } = newHandoffToken();
  await db.insert(oidcRecords).values({
    model: MODEL,
    id: tokenHash,
    payload: { personId },
    expiresAt: sql`now() + make_interval(secs => ${LOGIN_HINT_SECONDS})`,
  });
  return token;
}

/** Null when unknown, expired or used. */
export async function useLoginHint(db: Database, hint: string): Promise<string | null> {
  const [used] = await db
    .update(oidcRecords)
    .set({ consumedAt: sql`now()` })
    .where(
      and(
        eq(oidcRecords.model, MODEL),
        eq(oidcRecords.id, hashHandoffToken(hint)),
        isNull(oidcRecords.consumedAt),
        gt(oidcRecords.expiresAt, sql`now()`),
      ),
    )
    .returning({ payload: oidcRecords.payload });
  const personId = used?.payload.personId;
  return typeof personId === 'string' ? personId : null;
}
