/**
 * `npm run reconcile`: one reconciliation sweep now (server/checkout/reconcileOrders.ts), on the database and
 * payment provider the environment names (the same variables as the server). Prints what it did as JSON and
 * exits 1 when an order could not be settled. The running server already sweeps every RECONCILE_INTERVAL_SECONDS;
 * this is for an operator after an outage. With the embedded database, stop the server first (PGlite is one
 * process's).
 */
import pino from 'pino';
import { featureListeners } from '../server/app';
import { ConfigError, loadConfig } from '../server/config';
import { openDatabase } from '../server/db/client';
import { reconcileOrders } from '../server/checkout/reconcileOrders';
import { createPaymentProvider } from '../server/payments/createPaymentProvider';
import { createCredentialsCipher } from '../server/security/credentialsCipher';
import { loadCredentialsKey } from '../server/security/credentialsKey';

async function main(): Promise<number> {
  const config = loadConfig();
  const database = await openDatabase(config);
  try {
    const provider = await createPaymentProvider(config, database.db);
    const cipher = createCredentialsCipher(await loadCredentialsKey(config));
    const log = pino({ level: config.LOG_LEVEL, base: { task: 'reconcile' } });
    const report = await reconcileOrders(
      { config, db: database.db, provider, cipher, listeners: featureListeners(config), log },
      { batchSize: 10_000 },
    );
    console.log(JSON.stringify(report));
    return report.failed > 0 ? 1 : 0;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(1);
  },
);
