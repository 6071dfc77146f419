/**
 * No secret in a log or at rest in plain text: a purchase → a requested sign-in link → a manage-page
 * session → new credentials, and a held mail the owner re-sends once SMTP is set, all logged at debug level with a
 * real SMTP server. Every secret met on the way (the client secret, the hand-off token, each password, every
 * link's token, the agreement hand-off, the session cookies) is collected and searched for, verbatim, in the whole
 * log and in every outbox row (payload and rendered text). On PGlite and PostgreSQL.
 */
import { featureMail } from '../../../server/app';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveOwner } from '../../../server/admin/owners';
import { outbox } from '../../../server/db/schema';
import type { MailList } from '../../../src/contract/admin';
import { deliverDue, smtpMailer, type OutboxContext } from '../../../server/outbox/outboxWorker';
import type { FinalizeResponse } from '../../../src/contract/checkout';
import { startMailCatcher, type MailCatcher } from '../../support/mailCatcher';
import { DATABASES, finalizeBody, HANDOFF_KEY, openCheckout, payWithCard, startTestServer, type TestServer } from '../helper';

const OWNER = { email: 'owner@example.com', password: 'correct horse battery staple' };
const EMAIL = 'ada@example.com';

describe.each(DATABASES)('secrets of a purchase, a sign-in link and the manage page, on %s', (kind) => {
  const lines: string[] = [];
  let server: TestServer;
  let mail: MailCatcher;
  let sending: OutboxContext;
  let holding: OutboxContext;

  beforeAll(async () => {
    mail = await startMailCatcher();
    server = await startTestServer(kind, {
      env: { LOG_LEVEL: 'debug', SMTP_URL: mail.url, PUBLIC_URL: 'https://checkout.test' },
      logStream: { write: (line) => void lines.push(line) },
    });
    const log = server.app.log.child({ task: 'outbox' });
    sending = { db: server.db, config: server.config, log, mailer: smtpMailer(mail.url, server.config.MAIL_FROM), mail: featureMail() };
    holding = { ...sending, mailer: null };
    await saveOwner(server.db, OWNER.email, OWNER.password);
  });
  afterAll(async () => {
    await server.close();
    await mail.close();
  });

  const tokensIn = (text: string) => [...text.matchAll(/token=([\w-]{20,})/g)].map((match) => match[1]!);
  const cookieOf = (response: { cookies: { name: string; value: string }[] }, name: string) =>
    `${name}=${response.cookies.find((each) => each.name === name)!.value}`;

  it('leaves none in the log or the outbox, and the mails still carry working links', async () => {
    const secrets: string[] = [OWNER.password, HANDOFF_KEY];

    // The purchase: the client secret, the password shown once, the hand-off token.
    const session = await openCheckout(server, 2);
    secrets.push(session.clientSecret);
    expect((await payWithCard(server, session.clientSecret)).statusCode).toBe(200);
    const finalized = (await server.post('/api/finalize-anon-subscription', finalizeBody(session))).json<FinalizeResponse>();
    // The first finalize, within the hand-off window and with the buyer's email, hands out both (decision 0026).
    if (!finalized.loginDetails || !finalized.token) throw new Error('the first finalize handed out no credentials');
    secrets.push(finalized.loginDetails.password, finalized.token);
    await server.post('/api/handoff/redeem', { token: finalized.token }, { authorization: `Bearer ${HANDOFF_KEY}` });

    // The confirmation mail, held without SMTP: its row shows no token, and none was minted.
    expect((await deliverDue(holding)).held).toBe(1);
    const [held] = await server.db.select().from(outbox).orderBy(outbox.id);
    expect(held!.rendered!.text).toContain('/account?token=[hidden]');
    expect(tokensIn(held!.rendered!.text)).toEqual([]);

    // The owner re-sends it: rendered afresh with new links, and mailed.
    const signedIn = await server.post('/api/admin/sign-in', OWNER);
    const ownerCookie = cookieOf(signedIn, 'owner_session');
    secrets.push(ownerCookie.split('=')[1]!);
    const resent = await server.app.inject({ method: 'POST', url: `/api/admin/mail/${held!.id}/resend`, headers: { cookie: ownerCookie } });
    expect(resent.statusCode).toBe(200);
    expect(resent.json()).toMatchObject({ id: held!.id, status: 'pending', rendered: null });
    expect((await deliverDue(sending)).sent).toBe(1);
    const confirmation = await mail.waitFor(EMAIL, /subscription is active/);
    const confirmationTokens = tokensIn(confirmation.text);
    // Two seats: the agreement link, the manage link, and the link to the Team section (one seat waits).
    expect(confirmationTokens).toHaveLength(3);
    secrets.push(...confirmationTokens);
    // The sent mail opens in the console as it went out, each link's token hidden.
    const listed = await server.app.inject({ method: 'GET', url: '/api/admin/mail', headers: { cookie: ownerCookie } });
    const sent = listed.json<MailList>().mails.find((each) => each.id === held!.id);
    expect(sent).toMatchObject({ status: 'sent', rendered: { to: EMAIL, subject: confirmation.subject } });
    expect(sent!.rendered!.text).toBe(confirmation.text.replace(/token=[\w-]{20,}/g, 'token=[hidden]'));
    const resentAgain = await server.app.inject({
      method: 'POST',
      url: `/api/admin/mail/${held!.id}/resend`,
      headers: { cookie: ownerCookie },
    });
    expect(resentAgain.statusCode).toBe(409);

    // A sign-in link asked for at /account, and the manage-page session it opens.
    expect((await server.post('/api/account/link', { email: EMAIL })).statusCode).toBe(202);
    expect((await deliverDue(sending)).sent).toBe(1);
    const linkMail = await mail.waitFor(EMAIL, /Your link to manage/);
    const [linkToken] = tokensIn(linkMail.text);
    expect(linkToken).toBeDefined();
    secrets.push(linkToken!);
    const opened = await server.post('/api/account/session', { token: linkToken });
    expect(opened.statusCode).toBe(200);
    const accountCookie = cookieOf(opened, 'account_session');
    secrets.push(accountCookie.split('=')[1]!);
    expect((await server.app.inject({ method: 'GET', url: '/api/account', headers: { cookie: accountCookie } })).statusCode).toBe(200);

    // The agreement link hands the buyer on with a fresh hand-off token.
    const agreement = await server.post('/api/account/session', { token: confirmationTokens[0] });
    expect(agreement.statusCode).toBe(200);
    const agreementUrl = agreement.json<{ agreementUrl: string | null }>().agreementUrl;
    expect(agreementUrl).toMatch(/\?token=/);
    secrets.push(new URL(agreementUrl!).searchParams.get('token')!, cookieOf(agreement, 'account_session').split('=')[1]!);

    // New credentials from the manage page.
    const credentials = await server.post('/api/account/credentials', {}, { cookie: accountCookie });
    expect(credentials.statusCode).toBe(200);
    secrets.push(credentials.json<{ password: string }>().password);

    const log = lines.join('');
    expect(log).toContain('Checkout finalized');
    expect(log).toMatch(/"outboxId":\d+,"topic":"account_link","to":"ada@example.com","msg":"Mail sent"/);
    expect(log).not.toContain('Manage your subscription');
    const rows = JSON.stringify(await server.db.select().from(outbox));
    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThanOrEqual(16);
      expect(log, 'the log').not.toContain(secret);
      expect(rows, 'the outbox').not.toContain(secret);
    }
  });
});
