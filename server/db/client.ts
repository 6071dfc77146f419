/**
 * Opens the database and migrates it (architecture.md, "Database"): PGlite in DATA_DIR by default, PostgreSQL through
 * a pg Pool with DATABASE_URL; one schema, one set of migrations. The caller seeds the first start's data.
 */
import { chmod, mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import type { Config } from '../config';
import { MIGRATIONS_DIR } from '../paths';
import { lockDataDir } from './dataDirLock';
import * as schema from './schema';

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

export interface OpenDatabase {
  db: Database;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

const migrationsFolder = MIGRATIONS_DIR;

/** Any number: one process migrates a PostgreSQL database at a time. */
const MIGRATION_LOCK_ID = 724_311_905;

/** An idle connection failed (server restart, network cut); the pool replaces it. */
type ConnectionErrorListener = (error: Error) => void;

const reportToConsole: ConnectionErrorListener = (error) =>
  console.error('PostgreSQL connection error (the pool will reconnect):', error.message);

/** @throws when the database cannot be reached or a migration fails. */
export async function openDatabase(
  config: Pick<Config, 'DATABASE_URL' | 'DATA_DIR'>,
  onConnectionError: ConnectionErrorListener = reportToConsole,
): Promise<OpenDatabase> {
  return config.DATABASE_URL ? openPostgres(config.DATABASE_URL, onConnectionError) : openPglite(config.DATA_DIR);
}

/** PGlite's Emscripten file system creates files with the umask (0644 under 022): ours are the owner's alone. */
const OWNER_ONLY_UMASK = 0o077;

/** PGlite unpacks a new database 0666 and rewrites pg_internal.init 0644 on each start, beside the umask. */
async function restrictToOwner(dir: string): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(skipMissing);
  for (const entry of entries ?? []) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      await chmod(path, 0o700).catch(skipMissing);
      await restrictToOwner(path);
    } else if (entry.isFile()) {
      await chmod(path, 0o600).catch(skipMissing);
    }
  }
}

function skipMissing(error: NodeJS.ErrnoException): undefined {
  if (error.code === 'ENOENT') return undefined;
  throw error;
}

/**
 * 'memory://' keeps everything in memory; on disk, under this process's lock (./dataDirLock.ts), the folder 0700 and
 * its files 0600. @throws DataDirLockedError when another running process has it open; migration errors.
 */
export async function openPglite(dataDir: string): Promise<OpenDatabase> {
  const inMemory = dataDir.startsWith('memory://');
  let unlock: () => Promise<void> = async () => {};
  if (!inMemory) {
    process.umask(OWNER_ONLY_UMASK);
    await mkdir(dataDir, { recursive: true });
    await chmod(dataDir, 0o700);
    unlock = await lockDataDir(dataDir);
  }
  let client: PGlite | undefined;
  try {
    client = new PGlite(inMemory ? undefined : dataDir);
    const db = drizzlePglite({ client, schema });
    await migratePglite(db, { migrationsFolder });
    if (!inMemory) await restrictToOwner(dataDir);
    const opened = client;
    return {
      db,
      kind: 'pglite',
      close: async () => {
        await opened.close();
        await unlock();
      },
    };
  } catch (error) {
    await client?.close();
    await unlock();
    throw error;
  }
}

/**
 * Migrations run under an advisory lock so copies can start together; an idle connection's failure goes to
 * `onConnectionError` instead of crashing (node-postgres docs).
 */
export async function openPostgres(
  connectionString: string,
  onConnectionError: ConnectionErrorListener = reportToConsole,
): Promise<OpenDatabase> {
  const pool = new pg.Pool({ connectionString, max: 10 });
  pool.on('error', onConnectionError);
  try {
    const migrationClient = await pool.connect();
    try {
      await migrationClient.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
      const migrationDb = drizzleNodePg({ client: migrationClient, schema });
      await migrateNodePg(migrationDb, { migrationsFolder });
    } finally {
      await migrationClient.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => undefined);
      migrationClient.release();
    }
  } catch (error) {
    await pool.end();
    throw error;
  }
  return { db: drizzleNodePg({ client: pool, schema }), kind: 'postgres', close: () => pool.end() };
}

export async function pingDatabase(db: Database): Promise<void> {
  await db.execute(sql`select 1`);
}
