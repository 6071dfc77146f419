/**
 * oidc-provider's storage adapter on our database (table oidc_records): one row per stored model instance
 * (Session, Interaction, Grant, AuthorizationCode, AccessToken, RefreshToken, …), so every server process sees the
 * same sessions and codes, on PGlite and PostgreSQL alike. The adapter contract is oidc-provider's
 * (`lib/adapters/memory_adapter.js` is its reference): `find` answers nothing past the expiry, `consume` marks a
 * code used (a second exchange of it then revokes its grant), `revokeByGrantId` deletes a grant's codes and tokens.
 * Expired rows are deleted by the retention sweep (`deleteExpiredOidcRecords`).
 */
import { and, eq, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Database, Transaction } from '../db/client';
import { oidcRecords } from '../db/schema';

/** The stored payload, with `consumed` (epoch seconds) when the row was consumed. */
type Row = { payload: Record<string, unknown>; consumedAt: Date | null };

const live = sql`(${oidcRecords.expiresAt} is null or ${oidcRecords.expiresAt} > now())`;

function toPayload(row: Row | undefined): AdapterPayload | undefined {
  if (!row) return undefined;
  const payload = row.payload as AdapterPayload;
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
  return {
    async upsert(id, payload, expiresIn) {
      const expiresAt = typeof expiresIn === 'number' ? sql`now() + make_interval(secs => ${expiresIn})` : null;
      const values = {
        payload: payload as Record<string, unknown>,
        grantId: typeof payload.grantId === 'string' ? payload.grantId : null,
        uid: model === 'Session' && typeof payload.uid === 'string' ? payload.uid : null,
        userCode: typeof payload.userCode === 'string' ? payload.userCode : null,
        expiresAt,
      };
      await db
        .insert(oidcRecords)
        .values({ model, id, ...values })
        .onConflictDoUpdate({ target: [oidcRecords.model, oidcRecords.id], set: { ...values, consumedAt: null } });
    },
    async find(id) {
      const [row] = await select(eq(oidcRecords.id, id));
      return toPayload(row);
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
        .where(and(eq(oidcRecords.model, model), eq(oidcRecords.id, id), isNull(oidcRecords.consumedAt)));
    },
    async destroy(id) {
      await db.delete(oidcRecords).where(and(eq(oidcRecords.model, model), eq(oidcRecords.id, id)));
    },
    async revokeByGrantId(grantId) {
      await db.delete(oidcRecords).where(eq(oidcRecords.grantId, grantId));
    },
  };
}

/** Deletes the rows whose expiry has passed; returns how many (the retention sweep, server/orders/retention.ts). */
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
