/**
 * Opens the database and brings its schema up to date (architecture.md, "Database"): PGlite, embedded
 * PostgreSQL kept in DATA_DIR, by default; PostgreSQL through a pg Pool when DATABASE_URL is set.
 * One schema (./schema.ts), one set of migrations (./migrations), applied by the driver's own migrator. The first
 * start's data (the sample referrer) is the caller's: server/main.ts runs `seedReferrers` once the database is open.
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

/** The Drizzle database, whichever driver is behind it. Route and order code use only this type. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

/** A transaction inside `Database.transaction`; it offers the same query builders. */
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

export interface OpenDatabase {
  db: Database;
  /** 'pglite' or 'postgres', for the start-up log. */
  kind: 'pglite' | 'postgres';
  /** Closes the connection pool or the embedded database. */
  close(): Promise<void>;
}

const migrationsFolder = MIGRATIONS_DIR;

/** Any number: only one process migrates a PostgreSQL database at a time (pg_advisory_lock). */
const MIGRATION_LOCK_ID = 724_311_905;

/** Called when an idle PostgreSQL connection fails (server restart, network cut); the pool replaces it. */
type ConnectionErrorListener = (error: Error) => void;

const reportToConsole: ConnectionErrorListener = (error) =>
  console.error('PostgreSQL connection error (the pool will reconnect):', error.message);

/**
 * Opens the database `config` names and applies pending migrations.
 * @throws when the database cannot be reached or a migration fails.
 */
export async function openDatabase(
  config: Pick<Config, 'DATABASE_URL' | 'DATA_DIR'>,
  onConnectionError: ConnectionErrorListener = reportToConsole,
): Promise<OpenDatabase> {
  return config.DATABASE_URL ? openPostgres(config.DATABASE_URL, onConnectionError) : openPglite(config.DATA_DIR);
}

/**
 * What this process creates is its owner's alone: files 0600, folders 0700. PGlite's Emscripten file system
 * creates files with the process umask (0644 under the usual 022).
 */
const OWNER_ONLY_UMASK = 0o077;

/**
 * Makes every file under `dir` 0600 and every folder 0700. PGlite sets modes of its own beside the umask: the
 * files of a new database are unpacked 0666, and each start rewrites pg_internal.init 0644. A path removed
 * meanwhile is skipped.
 */
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
 * Opens PGlite in `dataDir` (created if missing) under this process's lock on the folder (./dataDirLock.ts);
 * 'memory://' keeps everything in memory. On disk the folder is its owner's alone: `dataDir` is made 0700, the
 * process umask 077 before PGlite opens, and once it is open every file is made 0600 and every folder 0700 (the
 * modes PGlite set itself, and those of a folder an earlier version wrote).
 * @throws DataDirLockedError when another running process has the folder open; migration errors.
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
 * Opens a pg Pool on `connectionString`; migrations run under an advisory lock so copies can start together.
 * An idle connection's failure goes to `onConnectionError` instead of crashing the process (node-postgres docs).
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

/** Runs `select 1`; resolves when the database answers (GET /healthz). */
export async function pingDatabase(db: Database): Promise<void> {
  await db.execute(sql`select 1`);
}
