/**
 * oidc-provider's storage adapter on table oidc_records, shared by every process (contract: its `memory_adapter.js`).
 * A row is keyed by the SHA-256 of its id and keeps no copy of it: sessions, codes and tokens are bearer credentials
 * a database read must not yield (docs/decisions/0052); a grant's id opens nothing and is kept as is. A payload jsonb
 * cannot hold is the client's `invalid_request`, not a 500.
 */
import { and, eq, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import { errors, type Adapter, type AdapterPayload } from 'oidc-provider';
import type { Database, Transaction } from '../db/client';
import { oidcRecords } from '../db/schema';
import { hashHandoffToken } from '../security/handoffToken';
import { PLAIN_TEXT_PATTERN } from '../../src/contract/fields';

const keptAsIs = (model: string) => model === 'Grant';

/** The contract's rule for client text: no NUL, no lone surrogate. */
const STORABLE = new RegExp(PLAIN_TEXT_PATTERN, 'u');

function holdsUnstorableText(value: unknown): boolean {
  if (typeof value === 'string') return !STORABLE.test(value);
  if (Array.isArray(value)) return value.some(holdsUnstorableText);
  if (value && typeof value === 'object') {
    return Object.entries(value).some(([key, each]) => !STORABLE.test(key) || holdsUnstorableText(each));
  }
  return false;
}

type Row = { payload: Record<string, unknown>; consumedAt: Date | null };

const live = sql`(${oidcRecords.expiresAt} is null or ${oidcRecords.expiresAt} > now())`;

/** The provider's resume address ends with the interaction's id. */
const ID_IN_ADDRESS = ':uid';

/** Without its own id and an interaction's copy of its session's cookie (which oidc-provider never reads). */
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

function toPayload(row: Row | undefined, id?: string): AdapterPayload | undefined {
  if (!row) return undefined;
  const payload = { ...(row.payload as AdapterPayload) };
  if (id !== undefined && payload.jti === undefined) {
    payload.jti = id;
    if (typeof payload.returnTo === 'string') payload.returnTo = payload.returnTo.split(ID_IN_ADDRESS).join(id);
  }
  return row.consumedAt ? { ...payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) } : payload;
}

export function oidcStore(db: Database, model: string): Adapter {
  const select = (condition: SQL) =>
    db
      .select({ payload: oidcRecords.payload, consumedAt: oidcRecords.consumedAt })
      .from(oidcRecords)
      .where(and(eq(oidcRecords.model, model), condition, live))
      .limit(1);
  const hashed = !keptAsIs(model);
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

/** The retention sweep's part (./index.ts). Returns how many. */
export async function deleteExpiredOidcRecords(db: Database | Transaction): Promise<number> {
  const deleted = await db
    .delete(oidcRecords)
    .where(lt(oidcRecords.expiresAt, sql`now()`))
    .returning({ id: oidcRecords.id });
  return deleted.length;
}

/**
 * Ends a person's sign-in sessions and grants with their codes and tokens: a password change or a revoked seat.
 * Returns the rows deleted.
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
