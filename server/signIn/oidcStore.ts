/**
 * oidc-provider's storage adapter on our database (table oidc_records): one row per stored model instance
 * (Session, Interaction, Grant, AuthorizationCode, AccessToken, RefreshToken, …), so every server process sees the
 * same sessions and codes, on PGlite and PostgreSQL alike. The adapter contract is oidc-provider's
 * (`lib/adapters/memory_adapter.js` is its reference): `find` answers nothing past the expiry, `consume` marks a
 * code used (a second exchange of it then revokes its grant), `revokeByGrantId` deletes a grant's codes and tokens.
 * Expired rows are deleted by the retention sweep (`deleteExpiredOidcRecords`).
 *
 * A row is keyed by the SHA-256 of its id, never the id, and its payload keeps no copy of it (`jti`): a session
 * cookie's value, an interaction's, an authorization code and an access token are bearer credentials, and a read of
 * the database or a backup must not yield one that works (docs/decisions/0052). Every look-up hashes the id first.
 * A grant's id is kept as it is: it opens nothing by itself, and its codes and tokens name it (`grant_id`). A
 * payload that PostgreSQL's jsonb cannot hold (a NUL or a lone surrogate in a parameter the client sent) is refused
 * as the client's `invalid_request`, not a server error.
 */
import { and, eq, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import { errors, type Adapter, type AdapterPayload } from 'oidc-provider';
import type { Database, Transaction } from '../db/client';
import { oidcRecords } from '../db/schema';
import { hashHandoffToken } from '../security/handoffToken';
import { PLAIN_TEXT_PATTERN } from '../../src/contract/fields';

/** Models whose id is itself the credential (everything but the grant); stored by its SHA-256. */
const keptAsIs = (model: string) => model === 'Grant';

/** Text PostgreSQL's jsonb keeps: no NUL, no UTF-16 surrogate without its pair (the contract's rule for client text). */
const STORABLE = new RegExp(PLAIN_TEXT_PATTERN, 'u');

/** Whether any string (key or value) in `value` is text jsonb refuses. */
function holdsUnstorableText(value: unknown): boolean {
  if (typeof value === 'string') return !STORABLE.test(value);
  if (Array.isArray(value)) return value.some(holdsUnstorableText);
  if (value && typeof value === 'object') {
    return Object.entries(value).some(([key, each]) => !STORABLE.test(key) || holdsUnstorableText(each));
  }
  return false;
}

/** The stored payload, with `consumed` (epoch seconds) when the row was consumed. */
type Row = { payload: Record<string, unknown>; consumedAt: Date | null };

const live = sql`(${oidcRecords.expiresAt} is null or ${oidcRecords.expiresAt} > now())`;

/** Where an interaction's own id stood in its `returnTo` (the provider's resume address ends with it). */
const ID_IN_ADDRESS = ':uid';

/**
 * `payload` without the credentials it carries: its own id (`jti`, and inside an interaction's `returnTo`) and an
 * interaction's copy of its session's cookie value (`session.cookie`, which oidc-provider keeps but never reads).
 */
function withoutCredentials(id: string, payload: AdapterPayload): Record<string, unknown> {
  const { jti: _jti, ...rest } = payload;
  const stored: Record<string, unknown> = { ...rest };
  if (typeof payload.returnTo === 'string') stored.returnTo = payload.returnTo.split(id).join(ID_IN_ADDRESS);
  if (payload.session && typeof payload.session === 'object') {
    const { cookie: _cookie, ...session } = payload.session as Record<string, unknown>;
    stored.session = session;
  }
  return stored;
}

/** The stored row as oidc-provider wrote it: with `id` when the row was found by it (its hash was kept instead). */
function toPayload(row: Row | undefined, id?: string): AdapterPayload | undefined {
  if (!row) return undefined;
  const payload = { ...(row.payload as AdapterPayload) };
  if (id !== undefined && payload.jti === undefined) {
    payload.jti = id;
    if (typeof payload.returnTo === 'string') payload.returnTo = payload.returnTo.split(ID_IN_ADDRESS).join(id);
  }
  return row.consumedAt ? { ...payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) } : payload;
}

/** The adapter for oidc-provider's model `model` (its `adapter` option calls this once per model). */
export function oidcStore(db: Database, model: string): Adapter {
  const select = (condition: SQL) =>
    db
      .select({ payload: oidcRecords.payload, consumedAt: oidcRecords.consumedAt })
      .from(oidcRecords)
      .where(and(eq(oidcRecords.model, model), condition, live))
      .limit(1);
  const hashed = !keptAsIs(model);
  /** The row's key for `id`. */
  const key = (id: string) => (hashed ? hashHandoffToken(id) : id);
  return {
    async upsert(id, payload, expiresIn) {
      if (holdsUnstorableText(payload)) {
        throw new errors.InvalidRequest('A parameter holds a NUL character or text that is not valid Unicode.');
      }
      const expiresAt = typeof expiresIn === 'number' ? sql`now() + make_interval(secs => ${expiresIn})` : null;
      const values = {
        payload: hashed ? withoutCredentials(id, payload) : (payload as Record<string, unknown>),
        grantId: typeof payload.grantId === 'string' ? payload.grantId : null,
        uid: model === 'Session' && typeof payload.uid === 'string' ? payload.uid : null,
        userCode: typeof payload.userCode === 'string' ? payload.userCode : null,
        expiresAt,
      };
      await db
        .insert(oidcRecords)
        .values({ model, id: key(id), ...values })
        .onConflictDoUpdate({ target: [oidcRecords.model, oidcRecords.id], set: { ...values, consumedAt: null } });
    },
    async find(id) {
      const [row] = await select(eq(oidcRecords.id, key(id)));
      return toPayload(row, id);
    },
    async findByUid(uid) {
      const [row] = await select(eq(oidcRecords.uid, uid));
      return toPayload(row);
    },
    async findByUserCode(userCode) {
      const [row] = await select(eq(oidcRecords.userCode, userCode));
      return toPayload(row);
    },
    async consume(id) {
      await db
        .update(oidcRecords)
        .set({ consumedAt: sql`now()` })
        .where(and(eq(oidcRecords.model, model), eq(oidcRecords.id, key(id)), isNull(oidcRecords.consumedAt)));
    },
    async destroy(id) {
      await db.delete(oidcRecords).where(and(eq(oidcRecords.model, model), eq(oidcRecords.id, key(id))));
    },
    async revokeByGrantId(grantId) {
      await db.delete(oidcRecords).where(eq(oidcRecords.grantId, grantId));
    },
  };
}

/** Deletes the rows whose expiry has passed; returns how many (the retention sweep, ./index.ts signInListener). */
export async function deleteExpiredOidcRecords(db: Database | Transaction): Promise<number> {
  const deleted = await db
    .delete(oidcRecords)
    .where(lt(oidcRecords.expiresAt, sql`now()`))
    .returning({ id: oidcRecords.id });
  return deleted.length;
}

/**
 * Ends every sign-in session and grant of person `accountId` (their codes and tokens with the grants): a password
 * change or a revoked seat signs the person out of the training platform's next sign-in. Returns the rows deleted.
 */
export async function endPersonSignIns(db: Database | Transaction, accountId: string): Promise<number> {
  const deleted = await db
    .delete(oidcRecords)
    .where(
      or(
        and(or(eq(oidcRecords.model, 'Session'), eq(oidcRecords.model, 'Grant')), sql`${oidcRecords.payload}->>'accountId' = ${accountId}`),
        sql`${oidcRecords.grantId} in (select ${oidcRecords.id} from ${oidcRecords} where ${oidcRecords.model} = 'Grant' and ${oidcRecords.payload}->>'accountId' = ${accountId})`,
      ),
    )
    .returning({ id: oidcRecords.id });
  return deleted.length;
}
