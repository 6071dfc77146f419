/**
 * `npm run bench:storage`: what abandoned visits cost on disk, and that the retention sweep gives it back.
 * On a fresh PostgreSQL database (127.0.0.1:5432, trust auth) with the sandbox provider, in-process:
 *
 * 1. the baseline size of the checkout's tables (heap, indexes and TOAST);
 * 2. VISITS (default 100,000) checkouts opened through call 1's own step (`openCheckout`) and abandoned;
 * 3. the sweep run as it runs once RETENTION_DAYS have passed (`deleteExpiredRecords`, retention 0);
 * 4. the size after the sweep and one VACUUM, which autovacuum runs by itself after such a delete;
 * 5. a second wave of as many visits, swept the same way: the space of the first is reused, so storage stays
 *    bounded by one retention window's visits instead of growing with every visitor.
 *
 * Prints rows and bytes at each point and the bytes per abandoned visit.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { featureListeners } from '../server/app';
import { loadConfig } from '../server/config';
import { openPostgres } from '../server/db/client';
import { openCheckout } from '../server/checkout/openCheckout';
import { deleteExpiredRecords } from '../server/checkout/retention';
import { createPaymentProvider } from '../server/payments/createPaymentProvider';
import { createCredentialsCipher } from '../server/security/credentialsCipher';

const ADMIN_URL = process.env.TEST_POSTGRES_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const VISITS = Number(process.env.VISITS ?? 100_000);
const CONCURRENCY = 16;
const TABLES = ['orders', 'sandbox_customers', 'sandbox_subscriptions', 'accounts', 'handoff_tokens', 'webhook_events'];

async function main() {
  const name = `checkout_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  // DROP DATABASE … WITH (FORCE) at the end ends any connection still open: not an error here.
  const database = await openPostgres(url.toString(), () => undefined);
  try {
    const config = loadConfig({ LOG_LEVEL: 'silent' });
    const context = {
      config,
      db: database.db,
      provider: await createPaymentProvider(config, database.db),
      listeners: featureListeners(config),
      cipher: createCredentialsCipher(randomBytes(32)),
      log: pino({ level: 'silent' }),
    };

    const measure = async () => {
      const result = (await database.db.execute(
        sql.raw(`SELECT ${TABLES.map((table) => `pg_total_relation_size('${table}')`).join(' + ')} AS bytes,
                        ${TABLES.map((table) => `(SELECT count(*) FROM ${table})`).join(' + ')} AS rows`),
      )) as { rows: { bytes: string; rows: string }[] };
      const sizes = result.rows[0];
      return { bytes: Number(sizes!.bytes), rows: Number(sizes!.rows) };
    };

    const baseline = await measure();

    /** Opens VISITS checkouts, measures, ages them past the retention, sweeps, measures, vacuums, measures. */
    const wave = async () => {
      const began = performance.now();
      let next = 0;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < VISITS) {
            next += 1;
            const opened = await openCheckout(context, {
              quantity: 1,
              affiliateId: 'dr-sample',
              affiliateSource: 'https://checkout.example.com/',
              referrer: null,
            });
            if (!opened.ok) throw new Error(`openCheckout refused: ${opened.refusal}`);
          }
        }),
      );
      const openSeconds = (performance.now() - began) / 1000;
      const afterVisits = await measure();
      // A retention of 0 days stands for "the retention has passed" without rewriting every row to age it. The
      // sweep asks the provider about each order before retention deletes it; here every one is unpaid, so the
      // bench marks them asked (as the sweep would) instead of timing 100,000 provider reads.
      await database.db.execute(sql`update orders set reconciled_at = now() where status = 'open'`);
      const report = await deleteExpiredRecords(database.db, 0, 0, context.listeners);
      const byProvider = (await context.provider.deleteAbandonedRecords?.(0)) ?? {};
      const afterSweep = await measure();
      // Autovacuum visits a table again and again: the first pass frees the heap and marks emptied index pages
      // deleted, the next makes those pages reusable (PostgreSQL's B-tree page recycling). Two passes stand for it.
      await database.db.execute(sql`VACUUM`);
      await database.db.execute(sql`VACUUM`);
      const afterVacuum = await measure();
      return { openSeconds, afterVisits, report, byProvider, afterSweep, afterVacuum };
    };
    const first = await wave();
    const second = await wave();
    const { openSeconds, afterVisits, report, byProvider, afterSweep, afterVacuum } = first;

    const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
    const perVisit = (afterVisits.bytes - baseline.bytes) / VISITS;
    console.log(`Storage of ${VISITS.toLocaleString('en-US')} abandoned visits on PostgreSQL (opened in ${openSeconds.toFixed(0)} s)`);
    console.table({
      baseline: { rows: baseline.rows, size: mib(baseline.bytes) },
      'after the visits': { rows: afterVisits.rows, size: mib(afterVisits.bytes) },
      'after the sweep': { rows: afterSweep.rows, size: mib(afterSweep.bytes) },
      'after the sweep and VACUUM': { rows: afterVacuum.rows, size: mib(afterVacuum.bytes) },
      'second wave: after the visits': { rows: second.afterVisits.rows, size: mib(second.afterVisits.bytes) },
      'second wave: after the sweep and VACUUM': { rows: second.afterVacuum.rows, size: mib(second.afterVacuum.bytes) },
    });
    console.log(`Per abandoned visit: ${Math.round(perVisit)} bytes (${mib(perVisit * 1_000_000)} per million visits).`);
    console.log(
      `Sweep deleted ${report.abandonedOrders} orders, ${byProvider.sandboxSubscriptions ?? 0} sandbox subscriptions, ${byProvider.sandboxCustomers ?? 0} sandbox customers.`,
    );
    console.log(
      `Rows back to the baseline: ${afterSweep.rows === baseline.rows ? 'yes' : 'NO'}; ` +
        `size after VACUUM ${mib(afterVacuum.bytes)} vs baseline ${mib(baseline.bytes)} (indexes keep their emptied pages for reuse).`,
    );
    const growth = second.afterVisits.bytes - afterVisits.bytes;
    const share = (growth / (afterVisits.bytes - baseline.bytes)) * 100;
    console.log(
      `Second wave of as many visits: peak ${mib(second.afterVisits.bytes)}, ${growth >= 0 ? '+' : ''}${mib(growth)} ` +
        `(${share.toFixed(0)} % of what the first wave added); ${mib(second.afterVacuum.bytes)} after its sweep and VACUUM.`,
    );
  } finally {
    await database.close();
    await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
    await admin.end();
  }
}

await main();
