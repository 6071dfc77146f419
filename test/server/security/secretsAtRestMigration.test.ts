/**
 * Migration 0018 (server/db/migrations/0018_secrets_at_rest.sql, docs/decisions/0052) on a database that holds
 * rows: the migrations up to 0017 run, the OpenID Provider's records and orders are written as the code before 0018
 * kept them (ids in clear, `jti` in the payload, a paid order's client secret in clear), then 0018 runs. Afterwards
 * each record is found by the id it was given (the store hashes first), no id is kept in clear, open interactions
 * are gone, grants and login hints are as they were, and only paid orders' client secrets are sealed.
 */
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { eq, sql } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/client';
import * as schema from '../../../server/db/schema';
import { oidcRecords, orders } from '../../../server/db/schema';
import { MIGRATIONS_DIR } from '../../../server/paths';
import { clientSecretMatches, sealClientSecret } from '../../../server/security/clientSecretAtRest';
import { hashHandoffToken } from '../../../server/security/handoffToken';
import { oidcStore } from '../../../server/signIn/oidcStore';
import { createPostgresDatabase, DATABASES } from '../helper';

/** The last migration before the one under test. */
const BEFORE = '0017_sandbox_seat_prorations';

interface Journal {
  entries: { idx: number; tag: string }[];
}

/** A migrations folder holding the migrations up to `last` (their SQL and the journal cut there). */
async function migrationsUpTo(last: string): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'checkout-migrations-'));
  await mkdir(join(folder, 'meta'));
  const journal = JSON.parse(await readFile(join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8')) as Journal;
  const cut = journal.entries.findIndex((entry) => entry.tag === last);
  expect(cut, `${last} is in the journal`).toBeGreaterThan(0);
  const entries = journal.entries.slice(0, cut + 1);
  for (const { tag } of entries) await copyFile(join(MIGRATIONS_DIR, `${tag}.sql`), join(folder, `${tag}.sql`));
  await writeFile(join(folder, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries }));
  return folder;
}

/** A fresh database of `kind` and a function that applies the migrations of a folder to it. */
async function openBare(kind: (typeof DATABASES)[number]) {
  if (kind === 'pglite') {
    const client = new PGlite();
    const db = drizzlePglite({ client, schema });
    return {
      db: db as unknown as Database,
      migrate: (migrationsFolder: string) => migratePglite(db, { migrationsFolder }),
      close: () => client.close(),
    };
  }
  const created = await createPostgresDatabase();
  const pool = new pg.Pool({ connectionString: created.url, max: 2 });
  const db = drizzleNodePg({ client: pool, schema });
  return {
    db: db as unknown as Database,
    migrate: (migrationsFolder: string) => migrateNodePg(db, { migrationsFolder }),
    async close() {
      await pool.end();
      await created.drop();
    },
  };
}

const IN_AN_HOUR = () => new Date(Date.now() + 3_600_000);

/** An order row as the code before 0018 kept it. */
const orderRow = (transactionId: string, clientSecret: string, paidAt: Date | null) => ({
  transactionId,
  provider: 'sandbox',
  customerId: `cus_${transactionId}`,
  subscriptionId: `sub_${transactionId}`,
  subscriptionItemId: `si_${transactionId}`,
  clientSecret,
  quantity: 1,
  amountCents: 9900,
  status: paidAt ? ('paid' as const) : ('open' as const),
  paidAt,
  affiliateId: 'dr-sample',
  affiliateSource: 'https://checkout.test/',
});

describe.each(DATABASES)('migration 0018 on a database holding rows, on %s', (kind) => {
  let database: Awaited<ReturnType<typeof openBare>>;
  let before: string;
  beforeAll(async () => {
    before = await migrationsUpTo(BEFORE);
    database = await openBare(kind);
  });
  afterAll(async () => {
    await database.close();
    await rm(before, { recursive: true, force: true });
  });

  it('hashes the ids of live sessions, codes and tokens, deletes interactions and seals paid client secrets only', async () => {
    const { db } = database;
    await database.migrate(before);

    // What the provider's store wrote before 0018: the id in clear, and `jti` (the id again) in the payload.
    const grant = { model: 'Grant', id: 'grant-id-0001', payload: { jti: 'grant-id-0001', accountId: 'person-1' } };
    const loginHint = { model: 'LoginHint', id: hashHandoffToken('a-hand-off-token'), payload: { email: 'ada@example.com' } };
    const kept = [
      { model: 'Session', id: 'session-cookie-value', payload: { jti: 'session-cookie-value', uid: 'uid-1', accountId: 'person-1' } },
      { model: 'AccessToken', id: 'live-access-token', payload: { jti: 'live-access-token', grantId: grant.id, accountId: 'person-1' } },
      { model: 'AuthorizationCode', id: 'unused-code', payload: { jti: 'unused-code', grantId: grant.id, accountId: 'person-1' } },
    ];
    const interaction = {
      model: 'Interaction',
      id: 'interaction-id',
      payload: { jti: 'interaction-id', returnTo: '/oidc/auth/interaction-id', session: { cookie: 'session-cookie-value' } },
    };
    await db.insert(oidcRecords).values(
      [...kept, grant, loginHint, interaction].map((row) => ({
        ...row,
        grantId: 'grantId' in row.payload ? grant.id : null,
        uid: row.model === 'Session' ? 'uid-1' : null,
        expiresAt: IN_AN_HOUR(),
      })),
    );
    // Written with the columns `orders` had before 0018: the table as the code declares it today has more.
    for (const row of [
      orderRow('paid-order', 'pi_paid_secret_abc', new Date()),
      orderRow('open-order', 'pi_open_secret_def', null),
      orderRow('sealed-order', sealClientSecret('pi_sealed_secret_ghi'), new Date()),
    ]) {
      await db.execute(sql`
        insert into orders (transaction_id, provider, customer_id, subscription_id, subscription_item_id, client_secret,
          quantity, amount_cents, status, paid_at, affiliate_id, affiliate_source)
        values (${row.transactionId}, ${row.provider}, ${row.customerId}, ${row.subscriptionId}, ${row.subscriptionItemId},
          ${row.clientSecret}, ${row.quantity}, ${row.amountCents}, ${row.status}, ${row.paidAt?.toISOString() ?? null},
          ${row.affiliateId}, ${row.affiliateSource})`);
    }

    await database.migrate(MIGRATIONS_DIR);

    const rows = await db.select().from(oidcRecords);
    const byModel = new Map(rows.map((row) => [row.model, row]));
    // No live credential is kept as it is, in the key or in the payload.
    const stored = JSON.stringify(rows);
    for (const { id } of [...kept, interaction]) expect(stored).not.toContain(id);
    expect(byModel.has('Interaction')).toBe(false);
    for (const { model, id, payload } of kept) {
      const { jti: _jti, ...rest } = payload;
      expect(byModel.get(model)).toMatchObject({ id: hashHandoffToken(id), payload: rest });
      // The store finds it by the id its holder presents, and hands it back as oidc-provider wrote it.
      expect(await oidcStore(db, model).find(id), model).toEqual(payload);
    }
    expect(await oidcStore(db, 'Session').findByUid('uid-1')).toMatchObject({ accountId: 'person-1' });
    // A grant's id opens nothing alone; a login hint was hashed from the start: both as they were.
    expect(byModel.get('Grant')).toMatchObject(grant);
    expect(byModel.get('LoginHint')).toMatchObject(loginHint);
    expect(await oidcStore(db, 'Grant').find(grant.id)).toEqual(grant.payload);

    const secrets = new Map(
      (await db.select({ id: orders.transactionId, clientSecret: orders.clientSecret }).from(orders)).map((row) => [
        row.id,
        row.clientSecret,
      ]),
    );
    expect(secrets.get('paid-order')).toBe(sealClientSecret('pi_paid_secret_abc'));
    expect(clientSecretMatches('pi_paid_secret_abc', secrets.get('paid-order')!)).toBe(true);
    // An open checkout still needs its secret in clear; one sealed already is not sealed twice.
    expect(secrets.get('open-order')).toBe('pi_open_secret_def');
    expect(secrets.get('sealed-order')).toBe(sealClientSecret('pi_sealed_secret_ghi'));
    const [paid] = await db.select({ status: orders.status }).from(orders).where(eq(orders.transactionId, 'paid-order'));
    expect(paid?.status).toBe('paid');
  });
});
