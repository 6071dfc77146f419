/**
 * Builds the server for a test file, driven through `inject()` (no network), on a fresh database:
 * in-memory PGlite, or a new PostgreSQL database `checkout_test_<random>` on 127.0.0.1:5432 (trust auth,
 * user postgres, admin database `test`), dropped afterwards. Suites run on both with `describe.each(DATABASES)`.
 */
import { randomBytes } from 'node:crypto';
import { count } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { FastifyBaseLogger, FastifyInstance, LightMyRequestResponse, RouteOptions } from 'fastify';
import pg from 'pg';
import type { FinalizeResponse, SubscriptionSession } from '../../src/contract/checkout';
import { PRODUCT_ID } from '../../src/domain/product';
import { buildApp, featureListeners } from '../../server/app';
import { loadConfig, type Config } from '../../server/config';
import { openPglite, openPostgres, type Database, type OpenDatabase } from '../../server/db/client';
import type { OrderContext } from '../../server/checkout/order';
import { createPaymentProvider } from '../../server/payments/createPaymentProvider';
import type { PaymentProvider } from '../../server/payments/provider';
import { seedReferrers } from '../../server/referrals/referrers';
import { createCredentialsCipher, type CredentialsCipher } from '../../server/security/credentialsCipher';

type DatabaseKind = 'pglite' | 'postgres';
export const DATABASES: DatabaseKind[] = ['pglite', 'postgres'];

const ADMIN_URL = process.env.TEST_POSTGRES_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A credentials cipher with a fresh random key, as the embedded database's generated one. */
export function testCipher(): CredentialsCipher {
  return createCredentialsCipher(randomBytes(32));
}

/** A bearer key for POST /api/handoff/redeem in tests. */
export const HANDOFF_KEY = 'test-handoff-key-0123456789abcdef0123456789';

export interface TestServer {
  app: FastifyInstance;
  db: Database;
  config: Config;
  cipher: CredentialsCipher;
  /** What server/checkout/* steps take, on this server's parts. */
  context(log?: FastifyBaseLogger): OrderContext;
  /** POSTs `body` as JSON (or raw text when it is a string) to `url`. */
  post(url: string, body: unknown, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  /** Number of rows in `table`. */
  rows(table: PgTable): Promise<number>;
  /** Another app (other environment or provider) on this server's database; closing it leaves the database open. */
  derive(options: TestServerOptions): Promise<TestServer>;
  close(): Promise<void>;
}

export interface TestServerOptions {
  /** Extra environment for loadConfig. */
  env?: Record<string, string>;
  distDir?: string;
  /** Replaces or wraps the sandbox provider (e.g. to make a call fail). */
  wrapProvider?: (sandbox: PaymentProvider) => PaymentProvider;
  /** The credentials cipher (default: a fresh key); derived apps pass their parent's to read its credentials. */
  cipher?: CredentialsCipher;
  /** Receives the log lines (give LOG_LEVEL in `env` too). */
  logStream?: { write(line: string): void };
  /** Told of every route the app registers. */
  onRoute?: (route: RouteOptions) => void;
}

/** Starts the app on a fresh database of `kind` (the sample referrer seeded, as server/main.ts does), sandbox provider, quiet logs. */
export async function startTestServer(kind: DatabaseKind, options: TestServerOptions = {}): Promise<TestServer> {
  const database = kind === 'pglite' ? await openPglite('memory://') : await openFreshPostgres();
  await seedReferrers(database.db);
  return serve(database, options, () => database.close());
}

async function serve(database: OpenDatabase, options: TestServerOptions, closeDatabase: () => Promise<void>): Promise<TestServer> {
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_MINUTE: '100000',
    CHECKOUTS_PER_HOUR: '100000',
    CONFIRMATIONS_PER_MINUTE: '100000',
    DECLINES_BEFORE_CHALLENGE: '100000',
    HANDOFF_API_KEY: HANDOFF_KEY,
    ...options.env,
  });
  const sandbox = await createPaymentProvider(config, database.db);
  const cipher = options.cipher ?? testCipher();
  const listeners = featureListeners(config);
  const app = await buildApp({
    config,
    db: database.db,
    cipher,
    listeners,
    logStream: options.logStream,
    onRoute: options.onRoute,
    provider: options.wrapProvider ? options.wrapProvider(sandbox) : sandbox,
    distDir: options.distDir,
  });
  return {
    app,
    db: database.db,
    config,
    cipher,
    /** The order steps' context on this server's database, provider and cipher, with quiet logs. */
    context: (log = app.log) => ({
      config,
      db: database.db,
      provider: options.wrapProvider ? options.wrapProvider(sandbox) : sandbox,
      cipher,
      listeners,
      log,
    }),
    post: (url, body, headers = {}) =>
      app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/json', ...headers },
        payload: typeof body === 'string' ? body : JSON.stringify(body),
      }),
    async rows(table) {
      const [row] = await database.db.select({ n: count() }).from(table);
      return row?.n ?? 0;
    },
    derive: (derived) => serve(database, { cipher, ...derived }, async () => undefined),
    async close() {
      await app.close();
      await closeDatabase();
    },
  };
}

/** Creates an empty PostgreSQL database `checkout_test_<random>`; returns its URL and a function that drops it. */
export async function createPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `checkout_test_${randomBytes(6).toString('hex')}`;
  await adminQuery(`create database ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => dropDatabase(name) };
}

async function openFreshPostgres(): Promise<OpenDatabase> {
  const created = await createPostgresDatabase();
  const connectionErrors: Error[] = [];
  const database = await openPostgres(created.url, (error) => connectionErrors.push(error));
  return {
    ...database,
    async close() {
      await database.close();
      await created.drop();
      if (connectionErrors[0]) throw connectionErrors[0];
    },
  };
}

/** Drops `name` once its connections have gone; forces it only if they linger for a second. */
async function dropDatabase(name: string): Promise<void> {
  for (let attempt = 0; attempt < 10; attempt += 1) {
    try {
      await adminQuery(`drop database if exists ${name}`);
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== '55006') throw error; // object_in_use
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  await adminQuery(`drop database if exists ${name} with (force)`);
}

async function adminQuery(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** A valid body for call 1. */
export function createBody(quantity = 1) {
  return { productId: PRODUCT_ID, quantity, affiliate_id: 'dr-sample', affiliate_source: 'https://checkout.test/' };
}

/** A valid body for call 2: move `session`'s checkout to `quantity` seats. */
export function updateBody(
  session: Pick<SubscriptionSession, 'subscriptionId' | 'subscriptionItemId' | 'transactionId'>,
  quantity: number,
) {
  return {
    subscriptionId: session.subscriptionId,
    subscriptionItemId: session.subscriptionItemId,
    transactionId: session.transactionId,
    quantity,
    productId: PRODUCT_ID,
  };
}

/** A body for the location step (decision 0071): `session`'s checkout located at `postalCode` in `country`. */
export function locateBody(
  session: Pick<SubscriptionSession, 'subscriptionId' | 'subscriptionItemId' | 'transactionId'>,
  postalCode: string,
  country = 'US',
) {
  return {
    subscriptionId: session.subscriptionId,
    subscriptionItemId: session.subscriptionItemId,
    transactionId: session.transactionId,
    productId: PRODUCT_ID,
    country,
    postalCode,
  };
}

/** Calls create and returns the session; fails the test on a non-200. */
export async function openCheckout(server: TestServer, quantity = 1): Promise<SubscriptionSession> {
  const response = await server.post('/api/create-anon-subscription-intent', createBody(quantity));
  if (response.statusCode !== 200) throw new Error(`create answered ${response.statusCode}: ${response.body}`);
  return response.json<SubscriptionSession>();
}

export const TEST_CARDS = {
  succeeds: '4242 4242 4242 4242',
  declined: '4000 0000 0000 0002',
  insufficientFunds: '4000 0000 0000 9995',
  authentication: '4000 0025 0000 3155',
} as const;

/** The buyer every helper pays and finalizes as, unless a test names another. */
const ADA = { email: 'ada@example.com', name: 'Ada Palmer' };

/** A sandbox confirmation body for `clientSecret` paid with `number` by `buyer`, expiring next year. */
export function confirmBody(clientSecret: string, number: string = TEST_CARDS.succeeds, buyer = ADA) {
  return {
    clientSecret,
    card: { number, expMonth: 12, expYear: new Date().getFullYear() + 1, cvc: '123', postalCode: '10001' },
    billingDetails: { name: buyer.name, email: buyer.email },
  };
}

/** Confirms `clientSecret` with a test card through the sandbox route. */
export function payWithCard(server: TestServer, clientSecret: string, number: string = TEST_CARDS.succeeds, buyer = ADA) {
  return server.post('/api/sandbox/payment-intents/confirm', confirmBody(clientSecret, number, buyer));
}

/** A finalize body for `session`. */
export function finalizeBody(session: SubscriptionSession, buyer = ADA) {
  return {
    subscriptionId: session.subscriptionId,
    customerId: session.customerId,
    transactionId: session.transactionId,
    ...buyer,
  };
}

export function finalize(server: TestServer, session: SubscriptionSession, buyer = ADA) {
  return server.post('/api/finalize-anon-subscription', finalizeBody(session, buyer));
}

/** A finalize answer that handed out credentials (the first hand-off window, docs/decisions/0026). */
type HandedOut = FinalizeResponse & { token: string; loginDetails: NonNullable<FinalizeResponse['loginDetails']> };

/**
 * `body` as a finalize answer with credentials.
 * @throws Error when it answered none (the first hand-off window had passed).
 */
export function handedOut(body: FinalizeResponse): HandedOut {
  const { token, loginDetails } = body;
  if (token === null || loginDetails === null) throw new Error(`finalize answered no credentials: ${JSON.stringify(body)}`);
  return { ...body, token, loginDetails };
}

/** Opens a checkout of `quantity` seats, pays it with 4242 as `buyer` and finalizes it; returns the session and response. */
export async function completePurchase(server: TestServer, quantity = 1, buyer = ADA) {
  const session = await openCheckout(server, quantity);
  const paid = await payWithCard(server, session.clientSecret, TEST_CARDS.succeeds, buyer);
  if (paid.statusCode !== 200) throw new Error(`payment answered ${paid.statusCode}: ${paid.body}`);
  const response = await finalize(server, session, buyer);
  if (response.statusCode !== 200) throw new Error(`finalize answered ${response.statusCode}: ${response.body}`);
  return { session, finalized: handedOut(response.json<FinalizeResponse>()) };
}
