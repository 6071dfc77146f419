/**
 * This product as the training platform's OpenID Provider, with openid-client as the stand-in platform
 * against a listening server: discovery, the authorization code flow with PKCE through our /sign-in, the id token
 * verified against our JWKS with the access claims, a wrong password, an unknown email, a refunded (cancelled)
 * order refused, a replayed code refused, and the storage in our database.
 */
import { eq, sql, type SQL } from 'drizzle-orm';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oidcRecords } from '../../../server/db/schema';
import { refundOrder } from '../../../server/checkout/refundOrder';
import { mintInvitationLink } from '../../../server/seats/claim';
import { deleteExpiredRecords } from '../../../server/checkout/retention';
import { endPersonSignIns, oidcStore } from '../../../server/signIn/oidcStore';
import { findPersonByEmail } from '../../../server/signIn/people';
import { hashHandoffToken } from '../../../server/security/handoffToken';
import { SIGN_IN_ERRORS } from '../../../server/signIn/routes/signIn';
import { webhookSignature } from '../../../server/security/webhookSignature';
import type { JoinClaimed, TeamView } from '../../../src/contract/team';
import { freePort } from '../../support/freePort';
import { completePurchase, DATABASES, HANDOFF_KEY, startTestServer, type TestServer } from '../helper';

const CLIENT_ID = 'training-platform';
const CLIENT_SECRET = 'platform-secret-0123456789abcdef0123456789';
const REDIRECT_URI = 'http://127.0.0.1:9/callback';
const AGREEMENT_SECRET = 'agreement-secret-0123456789abcdef0123456789';

/** A browser's cookies for one site (paths ignored: every cookie goes with every request). */
class CookieJar {
  private cookies = new Map<string, string>();
  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, ...value] = pair!.split('=');
      this.cookies.set(name!.trim(), value.join('='));
    }
  }
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

describe.each(DATABASES)('OpenID Provider on %s', (kind) => {
  let server: TestServer;
  let issuer: string;
  let platform: oidc.Configuration;

  beforeAll(async () => {
    const port = await freePort();
    issuer = `http://127.0.0.1:${port}`;
    server = await startTestServer(kind, {
      env: {
        PUBLIC_URL: issuer,
        OIDC_CLIENT_ID: CLIENT_ID,
        OIDC_CLIENT_SECRET: CLIENT_SECRET,
        OIDC_REDIRECT_URIS: REDIRECT_URI,
        SUCCESS_SITE_WEBHOOK_SECRET: AGREEMENT_SECRET,
        // Every sign-in here comes from one address: the per-address limit is not what these tests are about.
        SIGN_INS_PER_15_MINUTES: '1000',
      },
    });
    await server.app.listen({ host: '127.0.0.1', port });
    platform = await oidc.discovery(new URL(issuer), CLIENT_ID, undefined, oidc.ClientSecretBasic(CLIENT_SECRET), {
      execute: [oidc.allowInsecureRequests],
    });
  });
  afterAll(() => server.close());

  /** Starts the platform's sign-in in a fresh browser: the jar, the PKCE verifier and state, and the sign-in page's address. */
  async function startSignIn() {
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const url = oidc.buildAuthorizationUrl(platform, {
      redirect_uri: REDIRECT_URI,
      scope: 'openid email profile access',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
    });
    const jar = new CookieJar();
    const response = await fetch(url, { redirect: 'manual' });
    jar.take(response);
    expect(response.status).toBe(303);
    const signInPage = new URL(response.headers.get('location')!, issuer);
    expect(signInPage.pathname).toBe('/sign-in');
    return { jar, verifier, state, signInPage };
  }

  async function postPassword(jar: CookieJar, email: string, password: string) {
    const response = await fetch(`${issuer}/sign-in/password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: jar.header(), origin: issuer },
      body: JSON.stringify({ email, password }),
    });
    jar.take(response);
    return { status: response.status, body: (await response.json()) as { redirectTo?: string; error?: string } };
  }

  /** Follows the provider's redirects after a sign-in until it sends the browser back to the platform. */
  async function backToPlatform(jar: CookieJar, redirectTo: string): Promise<URL> {
    let next = new URL(redirectTo, issuer);
    for (let hop = 0; hop < 5; hop += 1) {
      if (next.href.startsWith(REDIRECT_URI)) return next;
      const response = await fetch(next, { redirect: 'manual', headers: { cookie: jar.header() } });
      jar.take(response);
      expect([302, 303]).toContain(response.status);
      next = new URL(response.headers.get('location')!, next);
    }
    throw new Error(`no way back to the platform: ${next.href}`);
  }

  it('publishes its discovery document at the base address with the code flow, PKCE and the access claims', () => {
    const metadata = platform.serverMetadata();
    expect(metadata.issuer).toBe(issuer);
    expect(metadata.authorization_endpoint).toBe(`${issuer}/oidc/auth`);
    expect(metadata.token_endpoint).toBe(`${issuer}/oidc/token`);
    expect(metadata.response_types_supported).toEqual(['code']);
    expect(metadata.code_challenge_methods_supported).toContain('S256');
    expect(metadata.scopes_supported).toEqual(expect.arrayContaining(['openid', 'email', 'profile', 'access']));
    expect(metadata.claims_supported).toEqual(expect.arrayContaining(['email', 'name', 'order', 'seat', 'role', 'status', 'agreement']));
  });

  it('signs the buyer in with the success page’s password: an id token that verifies against our JWKS, with the access claims; the code works once', async () => {
    const { session, finalized } = await completePurchase(server);
    const { jar, verifier, state } = await startSignIn();
    const signedIn = await postPassword(jar, finalized.loginDetails.email.toUpperCase(), finalized.loginDetails.password);
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
    const callback = await backToPlatform(jar, signedIn.body.redirectTo!);
    const tokens = await oidc.authorizationCodeGrant(platform, callback, { pkceCodeVerifier: verifier, expectedState: state });

    const jwks = createRemoteJWKSet(new URL(platform.serverMetadata().jwks_uri!));
    const { payload, protectedHeader } = await jwtVerify(tokens.id_token!, jwks, { issuer, audience: CLIENT_ID });
    expect(protectedHeader.alg).toBe('RS256');
    expect(payload).toMatchObject({
      email: finalized.loginDetails.email,
      name: 'Ada Palmer',
      order: session.transactionId,
      seat: 1,
      role: 'buyer',
      status: 'active',
      agreement: 'pending',
    });
    expect(tokens.claims()?.sub).toBe(payload.sub);

    // The stored grant, session and code are rows of our database.
    const models = (await server.db.select({ model: oidcRecords.model }).from(oidcRecords)).map((row) => row.model);
    expect(models).toEqual(expect.arrayContaining(['Session', 'Grant', 'AuthorizationCode', 'AccessToken']));

    // A replayed code is refused.
    await expect(
      oidc.authorizationCodeGrant(platform, callback, { pkceCodeVerifier: verifier, expectedState: state }),
    ).rejects.toMatchObject({
      error: 'invalid_grant',
    });
  });

  it('refuses PKCE-less requests, a wrong password and an unknown email alike', async () => {
    const { finalized } = await completePurchase(server);
    const noPkce = oidc.buildAuthorizationUrl(platform, { redirect_uri: REDIRECT_URI, scope: 'openid' });
    const refused = await fetch(noPkce, { redirect: 'manual' });
    expect(new URL(refused.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');

    const { jar } = await startSignIn();
    expect(await postPassword(jar, finalized.loginDetails.email, 'not-the-password')).toEqual({
      status: 401,
      body: { error: SIGN_IN_ERRORS.wrong },
    });
    expect(await postPassword(jar, 'nobody@example.com', 'not-the-password')).toEqual({
      status: 401,
      body: { error: SIGN_IN_ERRORS.wrong },
    });
    // Without the browser's interaction cookie there is no sign-in to finish.
    expect((await postPassword(new CookieJar(), finalized.loginDetails.email, finalized.loginDetails.password)).status).toBe(410);
  });

  it('tells the sign-in page as it loads whether the sign-in its address names is live in this browser, 200 either way', async () => {
    const { jar, signInPage } = await startSignIn();
    const uid = signInPage.searchParams.get('interaction')!;
    const check = async (interaction: string, cookie: string) => {
      const response = await fetch(`${issuer}/sign-in/interaction?interaction=${encodeURIComponent(interaction)}`, { headers: { cookie } });
      return { status: response.status, body: (await response.json()) as unknown };
    };
    expect(await check(uid, jar.header())).toEqual({ status: 200, body: { live: true } });
    // Another browser (no interaction cookie), or another sign-in's uid, has nothing to finish here.
    expect(await check(uid, '')).toEqual({ status: 200, body: { live: false } });
    expect(await check('someone-elses-uid', jar.header())).toEqual({ status: 200, body: { live: false } });
    // No uid at all is the client's mistake, in words.
    const missing = await fetch(`${issuer}/sign-in/interaction`);
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { error: string }).error).not.toMatch(/querystring/);
  });

  it('refuses a refunded (cancelled) order’s login, and its sessions stop yielding tokens', async () => {
    // An email of its own: another subscription still active under the same email would be that email's login.
    const { session, finalized } = await completePurchase(server, 1, { email: `refunded-${kind}@example.com`, name: 'Ada Palmer' });
    const { email, password } = finalized.loginDetails;
    const first = await startSignIn();
    const signedIn = await postPassword(first.jar, email, password);
    expect(signedIn.status).toBe(200);
    const callback = await backToPlatform(first.jar, signedIn.body.redirectTo!);

    const refunded = await refundOrder(server.context(), { transactionId: session.transactionId, ownerId: 'owner' });
    expect(refunded.ok).toBe(true);

    // The code of the sign-in before the refund is refused at the token endpoint.
    await expect(
      oidc.authorizationCodeGrant(platform, callback, { pkceCodeVerifier: first.verifier, expectedState: first.state }),
    ).rejects.toMatchObject({ error: 'invalid_grant' });

    // The same browser's sign-in session sends the platform access_denied instead of a code.
    const resumed = await fetch(
      oidc.buildAuthorizationUrl(platform, {
        redirect_uri: REDIRECT_URI,
        scope: 'openid',
        code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
        code_challenge_method: 'S256',
      }),
      { redirect: 'manual', headers: { cookie: first.jar.header() } },
    );
    expect(new URL(resumed.headers.get('location')!).searchParams.get('error')).toBe('access_denied');

    const again = await startSignIn();
    expect(await postPassword(again.jar, email, password)).toEqual({ status: 403, body: { error: SIGN_IN_ERRORS.noAccess } });
  });

  it('signs a team member in with the login their claim gave them (role member, their seat); a revoked seat is refused at once', async () => {
    const { finalized } = await completePurchase(server, 3);
    const buyer = { authorization: `Bearer ${finalized.token}`, origin: issuer };
    const invited = await server.post('/api/account/team/invite', { email: `member-${kind}@example.com`, name: 'Bo Chen' }, buyer);
    expect(invited.statusCode, invited.body).toBe(200);
    const seat = invited.json<TeamView>().members[0]!;
    // The invitation mail is held without SMTP; the link it would carry is minted here, as the outbox does on sending.
    const link = await mintInvitationLink(server.db, seat.id);
    const member = (await server.post('/api/join/claim', { token: link })).json<JoinClaimed>();

    const { jar, verifier, state } = await startSignIn();
    const signedIn = await postPassword(jar, member.email, member.password);
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
    const callback = await backToPlatform(jar, signedIn.body.redirectTo!);
    const tokens = await oidc.authorizationCodeGrant(platform, callback, { pkceCodeVerifier: verifier, expectedState: state });
    const jwks = createRemoteJWKSet(new URL(platform.serverMetadata().jwks_uri!));
    const { payload } = await jwtVerify(tokens.id_token!, jwks, { issuer, audience: CLIENT_ID });
    expect(payload).toMatchObject({ email: member.email, name: 'Bo Chen', seat: 2, role: 'member', status: 'active', sub: seat.id });

    expect((await server.post(`/api/account/team/${seat.id}/revoke`, {}, buyer)).statusCode).toBe(200);
    // The session of the sign-in before the revocation yields nothing more, and the password no longer verifies.
    const resumed = await fetch(
      oidc.buildAuthorizationUrl(platform, {
        redirect_uri: REDIRECT_URI,
        scope: 'openid',
        code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
        code_challenge_method: 'S256',
      }),
      { redirect: 'manual', headers: { cookie: jar.header() } },
    );
    expect(new URL(resumed.headers.get('location')!, issuer).pathname).toBe('/sign-in');
    const again = await startSignIn();
    // Revoking wiped the password's hash: it is a wrong password now, like any other.
    expect(await postPassword(again.jar, member.email, member.password)).toEqual({ status: 401, body: { error: SIGN_IN_ERRORS.wrong } });
  });

  /** The platform's whole sign-in of `email`: the verified id token's claims and userinfo's. */
  async function signInClaims(email: string, password: string) {
    const { jar, verifier, state } = await startSignIn();
    const signedIn = await postPassword(jar, email, password);
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
    const callback = await backToPlatform(jar, signedIn.body.redirectTo!);
    const tokens = await oidc.authorizationCodeGrant(platform, callback, { pkceCodeVerifier: verifier, expectedState: state });
    const jwks = createRemoteJWKSet(new URL(platform.serverMetadata().jwks_uri!));
    const { payload } = await jwtVerify(tokens.id_token!, jwks, { issuer, audience: CLIENT_ID });
    const userinfo = await oidc.fetchUserInfo(platform, tokens.access_token, String(payload.sub));
    return { idToken: payload, userinfo };
  }

  /** The agreement site's signed report that `email` signed on order `transactionId` (docs/decisions/0063). */
  async function reportSigned(transactionId: string, email: string) {
    const body = JSON.stringify({ transactionId, email });
    const response = await server.post('/api/agreement/signed', body, {
      'checkout-signature': webhookSignature(AGREEMENT_SECRET, Math.floor(Date.now() / 1000), body),
    });
    expect(response.statusCode, response.body).toBe(200);
  }

  it('says in the id token and userinfo whether each person signed the agreement: pending, then signed once the agreement site reports it', async () => {
    const { session, finalized } = await completePurchase(server, 2, { email: `agreement-${kind}@example.com`, name: 'Ada Palmer' });
    const buyer = { authorization: `Bearer ${finalized.token}`, origin: issuer };
    const invited = await server.post('/api/account/team/invite', { email: `signer-${kind}@example.com`, name: 'Bo Chen' }, buyer);
    const seat = invited.json<TeamView>().members[0]!;
    const member = (await server.post('/api/join/claim', { token: await mintInvitationLink(server.db, seat.id) })).json<JoinClaimed>();
    const { email, password } = finalized.loginDetails;

    for (const person of [
      { email, password },
      { email: member.email, password: member.password },
    ]) {
      const before = await signInClaims(person.email, person.password);
      expect(before.idToken.agreement).toBe('pending');
      expect(before.userinfo.agreement).toBe('pending');
    }

    // The member signs first: the buyer's agreement stays pending (each person signs their own).
    await reportSigned(session.transactionId, member.email);
    expect((await signInClaims(member.email, member.password)).idToken).toMatchObject({ agreement: 'signed', role: 'member' });
    const buyerStill = await signInClaims(email, password);
    expect(buyerStill.idToken.agreement).toBe('pending');

    await reportSigned(session.transactionId, email);
    const after = await signInClaims(email, password);
    expect(after.idToken).toMatchObject({ agreement: 'signed', role: 'buyer', order: session.transactionId });
    expect(after.userinfo).toMatchObject({ agreement: 'signed', role: 'buyer', email });
  });

  it('signs the buyer in once without a password with the login hint the agreement site’s redemption answered', async () => {
    const { session, finalized } = await completePurchase(server);
    const redeemed = await server.post('/api/handoff/redeem', { token: finalized.token }, { authorization: `Bearer ${HANDOFF_KEY}` });
    expect(redeemed.statusCode).toBe(200);
    const loginHint = redeemed.json<{ loginHint?: string }>().loginHint!;
    expect(loginHint).toMatch(/^[\w-]{43}$/);

    const withHint = async () => {
      const verifier = oidc.randomPKCECodeVerifier();
      const url = oidc.buildAuthorizationUrl(platform, {
        redirect_uri: REDIRECT_URI,
        scope: 'openid access',
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        login_hint: loginHint,
      });
      const jar = new CookieJar();
      const response = await fetch(url, { redirect: 'manual' });
      jar.take(response);
      const hintRoute = new URL(response.headers.get('location')!, issuer);
      expect(hintRoute.pathname).toBe('/sign-in/hint');
      return { callback: await backToPlatform(jar, hintRoute.href), verifier };
    };
    const first = await withHint();
    const tokens = await oidc.authorizationCodeGrant(platform, first.callback, { pkceCodeVerifier: first.verifier });
    expect(tokens.claims()).toMatchObject({ order: session.transactionId, role: 'buyer', status: 'active' });

    // Used once: the second time the platform hears login_required (and asks again without the hint).
    const second = await withHint();
    expect(second.callback.searchParams.get('error')).toBe('login_required');
  });

  it('asks for the password again once the person’s sign-ins are ended (a new password)', async () => {
    const { finalized } = await completePurchase(server);
    const { jar } = await startSignIn();
    const signedIn = await postPassword(jar, finalized.loginDetails.email, finalized.loginDetails.password);
    await backToPlatform(jar, signedIn.body.redirectTo!);
    const again = async () => {
      const url = oidc.buildAuthorizationUrl(platform, {
        redirect_uri: REDIRECT_URI,
        scope: 'openid',
        code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
        code_challenge_method: 'S256',
      });
      const response = await fetch(url, { redirect: 'manual', headers: { cookie: jar.header() } });
      return new URL(response.headers.get('location')!, issuer);
    };
    // Signed in: straight back to the platform with a code.
    expect((await again()).searchParams.get('code')).toBeTruthy();
    const person = await findPersonByEmail(server.db, finalized.loginDetails.email);
    expect(await endPersonSignIns(server.db, person!.personId)).toBeGreaterThan(0);
    expect((await again()).pathname).toBe('/sign-in');
  });

  it('reads nothing past its expiry, and the retention sweep deletes it', async () => {
    const store = oidcStore(server.db, 'Interaction');
    await store.upsert('soon-over', { uid: 'soon-over' }, 3600);
    expect(await store.find('soon-over')).toEqual({ uid: 'soon-over', jti: 'soon-over' });
    const stored = eq(oidcRecords.id, hashHandoffToken('soon-over'));
    await server.db
      .update(oidcRecords)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(stored);
    expect(await store.find('soon-over')).toBeUndefined();
    expect((await deleteExpiredRecords(server.db, 30, 30, server.context().listeners)).oidcRecords).toBeGreaterThanOrEqual(1);
    expect(await server.db.select().from(oidcRecords).where(stored)).toEqual([]);
  });

  /** Every row of every table but the sandbox's (it stands in for the payment provider's own records), as text. */
  async function databaseText(): Promise<string> {
    const rowsOf = async (query: SQL): Promise<Record<string, unknown>[]> => {
      const result: unknown = await server.db.execute(query);
      return (result as { rows: Record<string, unknown>[] }).rows;
    };
    const tables = await rowsOf(
      sql`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`,
    );
    const rows: unknown[] = [];
    for (const name of tables.map((table) => String(table.name)).filter((name) => !name.startsWith('sandbox_'))) {
      rows.push(await rowsOf(sql`select * from ${sql.identifier(name)}`));
    }
    return JSON.stringify(rows);
  }

  it('keeps no live session id, interaction, code, access token or client secret in the database after a purchase and a sign-in', async () => {
    const { session, finalized } = await completePurchase(server);
    const { jar, verifier, state, signInPage } = await startSignIn();
    const interaction = signInPage.searchParams.get('interaction')!;
    expect(await databaseText()).not.toContain(interaction);
    const signedIn = await postPassword(jar, finalized.loginDetails.email, finalized.loginDetails.password);
    const callback = await backToPlatform(jar, signedIn.body.redirectTo!);
    const code = callback.searchParams.get('code')!;
    // The provider's session cookie (its value is the session's id) and the unexchanged code.
    const sessionId = /(?:^|; )_session=([^;]+)/.exec(jar.header())?.[1];
    expect(sessionId).toBeTruthy();
    const beforeExchange = await databaseText();
    for (const secret of [code, sessionId!, interaction, session.clientSecret]) expect(beforeExchange).not.toContain(secret);
    expect(beforeExchange).toContain(session.transactionId);

    const tokens = await oidc.authorizationCodeGrant(platform, callback, { pkceCodeVerifier: verifier, expectedState: state });
    // Found by its hash, the token still works.
    const claims = await oidc.fetchUserInfo(platform, tokens.access_token, tokens.claims()!.sub);
    expect(claims.email).toBe(finalized.loginDetails.email);
    const afterExchange = await databaseText();
    for (const secret of [tokens.access_token, code, sessionId!, session.clientSecret]) expect(afterExchange).not.toContain(secret);
  });

  it('refuses an authorization parameter it cannot store as invalid_request, and logs nothing as a failure', async () => {
    for (const parameter of ['state', 'nonce', 'login_hint', 'ui_locales', 'acr_values']) {
      const url = oidc.buildAuthorizationUrl(platform, {
        redirect_uri: REDIRECT_URI,
        scope: 'openid',
        code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
        code_challenge_method: 'S256',
        [parameter]: 'a\u0000b',
      });
      const response = await fetch(url, { redirect: 'manual' });
      expect(response.status, parameter).toBe(303);
      const back = new URL(response.headers.get('location')!);
      expect(`${back.origin}${back.pathname}`, parameter).toBe(REDIRECT_URI);
      expect(back.searchParams.get('error'), parameter).toBe('invalid_request');
    }
  });
});
