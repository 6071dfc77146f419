/**
 * "Forgot your password?" for everyone (docs/decisions/0039), on both databases, with a real SMTP server
 * catching the mails: a member gets a "set a new password" link, the buyer the /account link, an unknown or revoked
 * email nothing, with the same answer each time; the link is single-use, expires, and a newer one voids it; a weak
 * password is refused changing nothing; the new password signs in through the people lookup and the old one does
 * not; the person's OpenID sessions, grants and login hints end with the change.
 */
import { verify } from '@node-rs/argon2';
import { eq, sql } from 'drizzle-orm';
import { featureMail } from '../../../server/app';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oidcRecords, outbox, seats } from '../../../server/db/schema';
import { deliverDue, smtpMailer, type OutboxContext } from '../../../server/outbox/outboxWorker';
import { LINK_PROBLEMS, LINKS_PER_EMAIL_PER_15_MINUTES, NEW_PASSWORD_TEXT } from '../../../server/signIn/routes/newPassword';
import { mintInvitationLink } from '../../../server/seats/claim';
import { issueLoginHint } from '../../../server/signIn/loginHints';
import { verifySignIn } from '../../../server/signIn/verifySignIn';
import type { JoinClaimed, TeamView } from '../../../src/contract/team';
import { startMailCatcher, type MailCatcher } from '../../support/mailCatcher';
import { completePurchase, DATABASES, startTestServer, type TestServer } from '../helper';

const SITE = 'https://checkout.test';
const STRONG = 'correct horse battery staple';

describe.each(DATABASES)('a new password for a member, on %s', (kind) => {
  let server: TestServer;
  let mail: MailCatcher;
  let outboxContext: OutboxContext;

  beforeAll(async () => {
    mail = await startMailCatcher();
    server = await startTestServer(kind, {
      env: {
        SMTP_URL: mail.url,
        PUBLIC_URL: SITE,
        OIDC_CLIENT_ID: 'training-platform',
        OIDC_CLIENT_SECRET: 'platform-secret-0123456789abcdef0123456789',
        OIDC_REDIRECT_URIS: 'http://127.0.0.1:9/callback',
        ACCOUNT_LINKS_PER_15_MINUTES: '1000',
      },
    });
    outboxContext = {
      db: server.db,
      config: server.config,
      log: server.app.log,
      mailer: smtpMailer(mail.url, server.config.MAIL_FROM),
      mail: featureMail(),
    };
  });
  afterAll(async () => {
    await server.close();
    await mail.close();
  });

  let members = 0;
  /** A buyer of 2 seats and a member who claimed seat 2: the member's login and seat id, the buyer's bearer auth. */
  async function claimedMember() {
    members += 1;
    const { finalized } = await completePurchase(server, 2, { email: `buyer${members}-${kind}@example.com`, name: 'Ada Palmer' });
    const buyer = { authorization: `Bearer ${finalized.token}` };
    const invited = await server.post(
      '/api/account/team/invite',
      { email: `member${members}-${kind}@example.com`, name: 'Bo Chen' },
      buyer,
    );
    expect(invited.statusCode, invited.body).toBe(200);
    const seat = invited.json<TeamView>().members[0]!;
    const member = (await server.post('/api/join/claim', { token: await mintInvitationLink(server.db, seat.id) })).json<JoinClaimed>();
    return { member, seatId: seat.id, buyer, buyerEmail: `buyer${members}-${kind}@example.com` };
  }

  const forgot = (email: string) => server.post('/sign-in/forgot', { email }, { origin: SITE });
  const check = (token: string) => server.post('/sign-in/new-password/check', { token }, { origin: SITE });
  const setPassword = (token: string, password: string) => server.post('/sign-in/new-password', { token, password }, { origin: SITE });
  const mailsTo = (email: string) => mail.mails.filter((each) => each.to === email);

  /** Asks for a link for `email`, sends the outbox, and returns the /sign-in/new-password token of the newest mail to it. */
  async function linkFor(email: string): Promise<string> {
    const before = mailsTo(email).length;
    expect((await forgot(email)).statusCode).toBe(202);
    await deliverDue(outboxContext);
    await mail.waitFor(email, /Set a new password/);
    const received = mailsTo(email);
    expect(received.length).toBe(before + 1);
    const token = /\/sign-in\/new-password\?token=([\w-]{43})/.exec(received.at(-1)!.text)?.[1];
    expect(token).toBeDefined();
    return token!;
  }

  it('answers every email alike and mails the member a new password link, the buyer the /account link, anyone else nothing', async () => {
    const { member, buyerEmail } = await claimedMember();
    const unknown = `nobody-${kind}@example.com`;
    const answers = await Promise.all([forgot(member.email), forgot(buyerEmail), forgot(unknown)]);
    for (const answer of answers) expect([answer.statusCode, answer.json()]).toEqual([202, { message: NEW_PASSWORD_TEXT.linkSent }]);
    // One outbox row each, the same row whoever the email is: the person is found when the mail is sent.
    const queued = await server.db.select().from(outbox).where(eq(outbox.topic, 'password_link'));
    expect(queued.map((row) => [row.payload.email, row.transactionId])).toEqual(
      expect.arrayContaining([
        [member.email, null],
        [buyerEmail, null],
        [unknown, null],
      ]),
    );

    await deliverDue(outboxContext);
    const toMember = await mail.waitFor(member.email, /Set a new password/);
    expect(toMember.text).toMatch(/Hello Bo Chen,/);
    expect(toMember.text).toMatch(new RegExp(`${SITE}/sign-in/new-password\\?token=[\\w-]{43}`));
    expect(toMember.text).toMatch(/works once, for one hour/);
    expect(toMember.text).not.toMatch(/\/account\?token=/);
    const toBuyer = await mail.waitFor(buyerEmail, /link to manage/);
    expect(toBuyer.text).toMatch(new RegExp(`${SITE}/account\\?token=`));
    expect(mailsTo(unknown)).toEqual([]);
    const rows = await server.db.select().from(outbox).where(eq(outbox.topic, 'password_link'));
    expect(rows.find((row) => row.payload.email === unknown)?.status).toBe('dropped');
  });

  it('sets the new password once: the old one stops verifying, the new one signs in, sessions, grants and login hints end', async () => {
    const { member, seatId } = await claimedMember();
    // A sign-in session and a grant of the member's at the provider, and an unused login hint.
    await server.db.insert(oidcRecords).values([
      { model: 'Session', id: `session-${seatId}`, payload: { accountId: seatId } },
      { model: 'Grant', id: `grant-${seatId}`, payload: { accountId: seatId } },
      { model: 'AccessToken', id: `token-${seatId}`, grantId: `grant-${seatId}`, payload: {} },
    ]);
    await issueLoginHint(server.db, seatId);
    const recordsOf = async () =>
      (
        await server.db
          .select({ model: oidcRecords.model })
          .from(oidcRecords)
          .where(sql`${oidcRecords.id} like ${`%-${seatId}`} or ${oidcRecords.payload}->>'personId' = ${seatId}`)
      ).map((row) => row.model);
    expect((await recordsOf()).sort()).toEqual(['AccessToken', 'Grant', 'LoginHint', 'Session']);

    const token = await linkFor(member.email);
    expect((await check(token)).json()).toEqual({ email: member.email });
    const changed = await setPassword(token, STRONG);
    expect([changed.statusCode, changed.json()]).toEqual([200, { message: NEW_PASSWORD_TEXT.set }]);

    expect(await verifySignIn(server.db, member.email, member.password)).toEqual({ outcome: 'wrong' });
    expect(await verifySignIn(server.db, member.email, STRONG)).toMatchObject({
      outcome: 'signed_in',
      person: { personId: seatId, role: 'member' },
    });
    const [stored] = await server.db.select({ hash: seats.passwordHash }).from(seats).where(eq(seats.id, seatId));
    // OWASP's argon2id parameters for a chosen password (decision 0010), not the generated passwords' low cost.
    expect(stored!.hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verify(stored!.hash!, STRONG)).toBe(true);
    expect(await recordsOf()).toEqual([]);

    // The link is spent.
    expect([(await setPassword(token, `${STRONG} again`)).statusCode, (await check(token)).json()]).toEqual([
      410,
      { error: LINK_PROBLEMS.used },
    ]);
    expect(await verifySignIn(server.db, member.email, STRONG)).toMatchObject({ outcome: 'signed_in' });
  });

  it('refuses a weak password with 400 and its rule, changing nothing; the link still works after', async () => {
    const { member, seatId } = await claimedMember();
    const token = await linkFor(member.email);
    const [before] = await server.db.select().from(seats).where(eq(seats.id, seatId));
    for (const [password, rule] of [
      ['short one', /at least 15 characters \(this one has 9\)/],
      [member.email.toUpperCase(), /not your email address/],
      ['aaaaaaaaaaaaaaaaaaaa', /first an attacker would try/],
      ['x'.repeat(129), /at most 128 characters/],
    ] as const) {
      const refused = await setPassword(token, password);
      expect(refused.statusCode, password).toBe(400);
      expect(refused.json<{ error: string }>().error).toMatch(rule);
    }
    const [after] = await server.db.select().from(seats).where(eq(seats.id, seatId));
    expect(after).toEqual(before);
    expect(await verifySignIn(server.db, member.email, member.password)).toMatchObject({ outcome: 'signed_in' });
    expect((await setPassword(token, STRONG)).statusCode).toBe(200);
  });

  it('voids the older link when a newer one is mailed, and refuses an expired one', async () => {
    const { member, seatId } = await claimedMember();
    const first = await linkFor(member.email);
    const second = await linkFor(member.email);
    expect((await setPassword(first, STRONG)).json()).toEqual({ error: LINK_PROBLEMS.unknown });
    await server.db
      .update(seats)
      .set({ resetExpiresAt: sql`now() - interval '1 second'` })
      .where(eq(seats.id, seatId));
    const expired = await setPassword(second, STRONG);
    expect([expired.statusCode, expired.json()]).toEqual([410, { error: LINK_PROBLEMS.expired }]);
    expect((await check(second)).json()).toEqual({ error: LINK_PROBLEMS.expired });
    expect(await verifySignIn(server.db, member.email, member.password)).toMatchObject({ outcome: 'signed_in' });
  });

  it('mails a revoked member nothing, and a link mailed before the revocation no longer works', async () => {
    const { member, seatId, buyer } = await claimedMember();
    const token = await linkFor(member.email);
    expect((await server.post(`/api/account/team/${seatId}/revoke`, {}, buyer)).statusCode).toBe(200);
    expect((await setPassword(token, STRONG)).json()).toEqual({ error: LINK_PROBLEMS.revoked });

    const before = mailsTo(member.email).length;
    expect((await forgot(member.email)).json()).toEqual({ message: NEW_PASSWORD_TEXT.linkSent });
    const report = await deliverDue(outboxContext);
    expect(report.dropped).toBeGreaterThanOrEqual(1);
    expect(mailsTo(member.email).length).toBe(before);
  });

  it(`throttles one email after ${LINKS_PER_EMAIL_PER_15_MINUTES} requests, known or not; refuses another site's request`, async () => {
    const email = `flooded-${kind}@example.com`;
    for (let i = 0; i < LINKS_PER_EMAIL_PER_15_MINUTES; i += 1) expect((await forgot(email)).statusCode).toBe(202);
    const throttled = await forgot(email);
    expect([throttled.statusCode, throttled.json()]).toEqual([429, { error: NEW_PASSWORD_TEXT.throttled }]);
    expect((await forgot(`other-${kind}@example.com`)).statusCode).toBe(202);
    const crossSite = await server.post('/sign-in/forgot', { email }, { origin: 'https://evil.example' });
    expect(crossSite.statusCode).toBe(403);
  });
});
