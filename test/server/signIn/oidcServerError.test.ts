/**
 * The OpenID Provider's own failures reach our log (docs/decisions/0052): oidc-provider answers an unexpected error
 * as `server_error` and only emits it, so server/signIn/oidcProvider.ts logs it at error level with its cause. Here
 * the provider's store fails (its table is renamed away under it) while a sign-in starts.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, startTestServer, type TestServer } from '../helper';

const CLIENT = {
  client_id: 'training-platform',
  redirect_uri: 'http://127.0.0.1:9/callback',
  response_type: 'code',
  scope: 'openid email profile access',
  code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
  code_challenge_method: 'S256',
};

/** pino's level number for `error`. */
const ERROR_LEVEL = 50;

describe.each(DATABASES)("the sign-in provider's server_error on %s", (kind) => {
  const lines: string[] = [];
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind, {
      env: {
        LOG_LEVEL: 'warn',
        OIDC_CLIENT_ID: CLIENT.client_id,
        OIDC_CLIENT_SECRET: 'platform-secret-0123456789abcdef0123456789',
        OIDC_REDIRECT_URIS: CLIENT.redirect_uri,
      },
      logStream: { write: (line) => void lines.push(line) },
    });
  });
  afterAll(() => server.close());

  const startSignIn = () => server.app.inject({ method: 'GET', url: `/oidc/auth?${new URLSearchParams(CLIENT)}` });

  it('is logged at error level with the failure that caused it, and the sign-in works again once the store does', async () => {
    // The store works: the sign-in page is reached and nothing is logged at error level.
    const before = await startSignIn();
    expect(before.statusCode, before.body).toBe(303);
    expect(lines.map((line) => JSON.parse(line) as { level: number }).filter(({ level }) => level >= ERROR_LEVEL)).toEqual([]);

    await server.db.execute(sql`alter table oidc_records rename to oidc_records_away`);
    const failed = await startSignIn();
    await server.db.execute(sql`alter table oidc_records_away rename to oidc_records`);

    expect(failed.statusCode).toBe(500);
    // The visitor reads the provider's page for its errors; the cause stays in the log.
    expect(failed.body).toContain('This sign-in could not go on');
    expect(failed.body).not.toContain('oidc_records');
    const logged = lines
      .map((line) => JSON.parse(line) as { level: number; msg: string; route?: string; err?: { message?: string; stack?: string } })
      .filter(({ level }) => level >= ERROR_LEVEL);
    expect(logged).toHaveLength(1);
    const [entry] = logged;
    expect(entry).toMatchObject({ level: ERROR_LEVEL, msg: 'The sign-in provider failed', route: 'authorization' });
    // The cause: the database's refusal, naming the table the store could not reach.
    expect(`${entry!.err?.message}\n${entry!.err?.stack}`).toMatch(/oidc_records/);
    expect(entry!.err?.stack).toMatch(/oidcStore/);

    const after = await startSignIn();
    expect(after.statusCode, after.body).toBe(303);
  });
});
