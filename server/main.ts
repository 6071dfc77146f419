/** Starts the server; on SIGINT/SIGTERM in-flight requests finish, then the database closes. */
import { existsSync } from 'node:fs';
import type { FastifyBaseLogger } from 'fastify';
import { buildApp, featureListeners, featureMail } from './app';
import { ConfigError, loadConfig, type Config } from './config';
import { openDatabase } from './db/client';
import { startReconciliation } from './checkout';
import { smtpMailer, startOutboxWorker } from './outbox';
import { createPaymentProvider } from './payments';
import { DIST_DIR } from './paths';
import { seedReferrers } from './referrals';
import { createCredentialsCipher } from './security/credentialsCipher';
import { challengeKeyFrom } from './security/confirmationChallenge';
import { cookieSecretFrom, loadCredentialsKey } from './security/credentialsKey';
import { loadOidcJwks } from './signIn';

function readConfig(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}

async function main(): Promise<void> {
  const config = readConfig();
  let log: Pick<FastifyBaseLogger, 'error'> | undefined;
  const database = await openDatabase(config, (error) =>
    log ? log.error({ err: error }, 'PostgreSQL connection error; the pool reconnects') : console.error(error),
  );
  try {
    await seedReferrers(database.db);
    const provider = await createPaymentProvider(config, database.db);
    const credentialsKey = await loadCredentialsKey(config);
    const cipher = createCredentialsCipher(credentialsKey);
    const hasDist = existsSync(`${DIST_DIR}/index.html`);
    let outboxWorker: ReturnType<typeof startOutboxWorker> | undefined;
    const listeners = featureListeners(config);
    const app = await buildApp({
      config,
      db: database.db,
      provider,
      cipher,
      listeners,
      challengeKey: challengeKeyFrom(credentialsKey),
      cookieSecret: cookieSecretFrom(credentialsKey),
      oidcJwks: config.OIDC_CLIENT_ID ? await loadOidcJwks(config) : undefined,
      nudgeOutbox: () => outboxWorker?.nudge(),
      distDir: hasDist ? DIST_DIR : undefined,
    });
    log = app.log;
    if (!hasDist) app.log.warn(`No built SPA in ${DIST_DIR}: run \`npm run build\`; serving /api only`);

    const stopReconciliation = startReconciliation(
      { config, db: database.db, provider, cipher, listeners, log: app.log.child({ task: 'reconcile' }) },
      config.RECONCILE_INTERVAL_SECONDS * 1000,
    );
    // Held in the outbox without SMTP_URL.
    outboxWorker = startOutboxWorker(
      {
        db: database.db,
        config,
        log: app.log.child({ task: 'outbox' }),
        mailer: config.SMTP_URL ? smtpMailer(config.SMTP_URL, config.MAIL_FROM) : null,
        mail: featureMail(),
      },
      config.OUTBOX_INTERVAL_SECONDS * 1000,
    );
    if (!config.SMTP_URL) app.log.warn('No SMTP_URL: mails are held in the outbox (read them in /admin → Mail)');
    let stopping = false;
    const stop = async (signal: string) => {
      if (stopping) return;
      stopping = true;
      app.log.info({ signal }, 'Shutting down');
      await stopReconciliation();
      await outboxWorker?.stop();
      await app.close();
      await database.close();
      process.exit(0);
    };
    process.once('SIGINT', () => void stop('SIGINT'));
    process.once('SIGTERM', () => void stop('SIGTERM'));

    const address = await app.listen({ host: config.HOST, port: config.PORT });
    app.log.info(
      {
        url: config.PUBLIC_URL ?? address,
        paymentProvider: provider.name,
        database: database.kind === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${config.DATA_DIR}`,
      },
      `Checkout listening on ${address}`,
    );
  } catch (error) {
    await database.close();
    throw error;
  }
}

main().catch((error: unknown) => {
  console.error('The checkout server could not start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
