/**
 * One-time login hints (docs/decisions/0034): the agreement site's redemption of a hand-off token also answers a
 * hint; passed on as the OpenID `login_hint` of the platform's next sign-in, within LOGIN_HINT_SECONDS, it signs the
 * buyer in without asking for the password again, once. Kept in the OpenID Provider's table (oidc_records, model
 * 'LoginHint') by the SHA-256 of the hint, so a database read yields no usable hint; a guarded UPDATE uses it, so two
 * concurrent uses cannot both succeed.
 */
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { oidcRecords } from '../db/schema';
import { hashHandoffToken, newHandoffToken } from '../security/handoffToken';

/** How long a hint works: long enough to sign the agreement and go on to the platform. */
const LOGIN_HINT_SECONDS = 30 * 60;

const MODEL = 'LoginHint';

/** A hint has our tokens' shape (43 base64url characters); anything else is an ordinary login_hint (an email). */
export function looksLikeLoginHint(value: unknown): value is string {
  return typeof value === 'string' && /^[A-Za-z0-9_-]{43}$/.test(value);
}

/** Issues a hint for person `personId`; returns it (shown once, to the agreement site). */
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

/** Uses `hint`: the person it was issued for, or null when it is unknown, expired or already used. */
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
