/**
 * The buyer's team, against real parts: a real SMTP server catches the invitations, a real HTTP server
 * the signed seat webhooks. Invite (from the success page's hand-off token and the manage page's session), the
 * refusals that change nothing, claim once (two browsers at once), revoke, reassign, the hand-off answering three
 * different people, the provider lowering and raising the quantity, the manage page's refusal below the seats in
 * use, and a refund or a cancellation revoking every seat. On PGlite and PostgreSQL.
 */
import { verify } from '@node-rs/argon2';
import { eq, sql } from 'drizzle-orm';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { featureMail } from '../../../server/app';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JoinClaimed, TeamView } from '../../../src/contract/team';
import { JOIN_ANSWER_ELEMENT_ID, JOIN_PLACEHOLDERS, NO_JOIN_TOKEN } from '../../../src/domain/joinPage';
import { cancelAtPeriodEnd, issueNewPassword } from '../../../server/account/manageSubscription';
import { dashboard, orderDetail } from '../../../server/admin/reports';
import { oidcRecords, outbox, seats } from '../../../server/db/schema';
import { applyPaymentEvents } from '../../../server/checkout/applyPaymentEvent';
import { findOrder } from '../../../server/checkout/order';
import { refundOrder } from '../../../server/checkout/refundOrder';
import { deliverDue, smtpMailer, type OutboxContext } from '../../../server/outbox/outboxWorker';
import { findPersonByEmail, findPersonById, maySignIn } from '../../../server/signIn/people';
import { verifySignIn } from '../../../server/signIn/verifySignIn';
import { startMailCatcher, type MailCatcher } from '../../support/mailCatcher';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhookReceiver';
import { confirmBody, DATABASES, HANDOFF_KEY, openCheckout, startTestServer, type TestServer } from '../helper';

const WEBHOOK_SECRET = 'whsec-test-0123456789abcdef0123456789abcdef';

/** A built site's page templates as scripts/prerender.ts leaves them, cut to what the join page's tests read. */
async function joinPageTemplates(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'checkout-join-dist-'));
  const empty = '<!doctype html><html><head></head><body><div id="root"></div></body></html>';
  const P = JOIN_PLACEHOLDERS;
  await writeFile(join(dir, 'index.html'), empty);
  await writeFile(join(dir, 'shell.html'), empty);
  await writeFile(
    join(dir, 'join.html'),
    `<!doctype html><html><head></head><body><h1>Join ${P.practiceName}</h1><p>${P.invitedBy} has given you, ${P.name} (${P.email}), a seat in ${P.productName}.</p></body></html>`,
  );
  await writeFile(join(dir, 'join-problem.html'), `<!doctype html><html><head></head><body><p role="alert">${P.problem}</p></body></html>`);
  return dir;
}

describe.each(DATABASES)('the buyer’s team, on %s', (kind) => {
  let server: TestServer;
  let mail: MailCatcher;
  let receiver: WebhookReceiver;
  let outboxContext: OutboxContext;

  let distDir: string;
  beforeAll(async () => {
    distDir = await joinPageTemplates();
    mail = await startMailCatcher();
    receiver = await startWebhookReceiver(WEBHOOK_SECRET);
    server = await startTestServer(kind, {
      env: {
        SMTP_URL: mail.url,
        PUBLIC_URL: 'https://checkout.test',
        TRAINING_PLATFORM_URL: 'https://academy.test/sign-in',
        SUCCESS_SITE_WEBHOOK_URL: receiver.url,
        SUCCESS_SITE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        SANDBOX_CLOCK: '1',
      },
      distDir,
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
    await receiver.close();
    await rm(distDir, { recursive: true, force: true });
  });

  let buyers = 0;
  /** Buys `quantity` seats as a new buyer; returns the order, the buyer's email and the success page's token. */
  async function buy(quantity: number) {
    buyers += 1;
    const email = `buyer${buyers}-${kind}@example.com`;
    const session = await openCheckout(server, quantity);
    const paid = await server.post('/api/sandbox/payment-intents/confirm', {
      ...confirmBody(session.clientSecret),
      billingDetails: { name: 'Ada Palmer', email },
    });
    expect(paid.statusCode).toBe(200);
    const finalized = await server.post('/api/finalize-anon-subscription', {
      subscriptionId: session.subscriptionId,
      customerId: session.customerId,
      transactionId: session.transactionId,
      email,
      name: 'Ada Palmer',
    });
    expect(finalized.statusCode).toBe(200);
    const { token, loginDetails } = finalized.json<{ token: string; loginDetails: { password: string } }>();
    return {
      password: loginDetails.password,
      transactionId: session.transactionId,
      subscriptionId: session.subscriptionId,
      email,
      auth: { authorization: `Bearer ${token}` },
      token,
    };
  }

  const invite = (auth: Record<string, string>, email: string, name = 'Colleague') =>
    server.post('/api/account/team/invite', { email, name }, auth);
  const team = async (auth: Record<string, string>) =>
    (await server.app.inject({ method: 'GET', url: '/api/account/team', headers: auth })).json<TeamView>();

  /** Sends the outbox and returns the /join token of the newest invitation to `email`. */
  async function invitationToken(email: string): Promise<string> {
    await deliverDue(outboxContext);
    const received = await mail.waitFor(email, /invited you/);
    expect(received.text).toMatch(/7 days/);
    expect(received.text).toMatch(/do not know the sender, ignore this mail/);
    expect(received.text).toContain('Go to the training platform: https://academy.test/sign-in');
    const token = /\/join\?token=([\w-]+)/.exec(received.text)?.[1];
    expect(token).toBeDefined();
    return token!;
  }

  const claim = (token: string) => server.post('/api/join/claim', { token });
  const joinPage = (token: string) => server.app.inject({ method: 'GET', url: `/join?token=${encodeURIComponent(token)}` });
  /** The answer the server wrote into a /join page as JSON. */
  const joinAnswerIn = (html: string): unknown =>
    JSON.parse(new RegExp(`<script id="${JOIN_ANSWER_ELEMENT_ID}" type="application/json">(.*?)</script>`).exec(html)?.[1] ?? 'null');
  const redeem = (token: string) => server.post('/api/handoff/redeem', { token }, { authorization: `Bearer ${HANDOFF_KEY}` });
  const handoffTokenOf = (claimed: JoinClaimed) => decodeURIComponent(/token=([^&]+)/.exec(claimed.agreementUrl)![1]!);
  const webhooksOf = (type: string, seatId: string) =>
    receiver.webhooks.filter((each) => each.type === type && each.data.seatId === seatId);

  it('invites from the success page, each claims once from the mail, and the hand-off redeems three people', async () => {
    const order = await buy(3);
    expect((await team(order.auth)).free).toBe(2);
    const confirmation = await (async () => {
      await deliverDue(outboxContext);
      return mail.waitFor(order.email, /subscription is active/);
    })();
    expect(confirmation.text).toMatch(/2 seats waiting to be assigned/);
    expect(confirmation.text).toMatch(/#team/);

    expect((await invite(order.auth, `bo-${kind}@example.com`, 'Bo & Chen')).statusCode).toBe(200);
    const view = (await invite(order.auth, `cy-${kind}@example.com`, 'Cy Diaz')).json<TeamView>();
    expect(view.free).toBe(0);
    expect(view.members.map((seat) => [seat.seatNumber, seat.status])).toEqual([
      [2, 'invited'],
      [3, 'invited'],
    ]);

    const boToken = await invitationToken(`bo-${kind}@example.com`);
    const look = await server.post('/api/join/invitation', { token: boToken });
    expect(look.json()).toMatchObject({ email: `bo-${kind}@example.com`, invitedBy: 'Ada Palmer' });
    // The page itself arrives with the invitation in it, HTML-escaped, and the same answer as JSON.
    const page = await joinPage(boToken);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.body).toContain(`<h1>Join Ada Palmer’s practice</h1>`);
    expect(page.body).toContain(`Ada Palmer has given you, Bo &amp; Chen (bo-${kind}@example.com)`);
    expect(joinAnswerIn(page.body)).toEqual({ invitation: look.json() });

    // Two browsers accept at once: exactly one wins, the other hears "already claimed".
    const [first, second] = await Promise.all([claim(boToken), claim(boToken)]);
    expect([first.statusCode, second.statusCode].sort()).toEqual([200, 409]);
    const bo = (first.statusCode === 200 ? first : second).json<JoinClaimed>();
    expect((first.statusCode === 409 ? first : second).json().error).toMatch(/already claimed/);
    expect((await claim(boToken)).statusCode).toBe(409);
    // The page says so in its first paint too; and a page without a token or with an unknown one.
    expect(joinAnswerIn((await joinPage(boToken)).body)).toEqual({ problem: (first.statusCode === 409 ? first : second).json().error });
    expect((await joinPage(boToken)).body).toMatch(/<p role="alert">This seat was already claimed/);
    expect(joinAnswerIn((await joinPage('unknown-token')).body)).toEqual({ problem: expect.stringMatching(/not valid/) });
    expect(joinAnswerIn((await joinPage('')).body)).toEqual({ problem: NO_JOIN_TOKEN });

    const cy = (await claim(await invitationToken(`cy-${kind}@example.com`))).json<JoinClaimed>();
    expect(cy.seatNumber).toBe(3);

    const buyerRedeemed = await redeem(order.token);
    // Redeemed by the agreement site, the token manages the team no more: the buyer is sent to /account.
    const readAfter = await server.app.inject({ method: 'GET', url: '/api/account/team', headers: order.auth });
    expect(readAfter.statusCode).toBe(401);
    expect(readAfter.json<{ error: string }>().error).toMatch(/\/account/);
    const teamBefore = await server.rows(seats);
    expect((await invite(order.auth, `late-${kind}@example.com`)).statusCode).toBe(401);
    expect(await server.rows(seats)).toBe(teamBefore);
    // New credentials for the buyer void the buyer's tokens, not the members' (theirs are their own).
    expect(await issueNewPassword(server.db, order.transactionId)).toBeDefined();
    const people = [buyerRedeemed, await redeem(handoffTokenOf(bo)), await redeem(handoffTokenOf(cy))].map((response) =>
      response.json<{ email: string; role: string; seatNumber: number; transactionId: string }>(),
    );
    expect(people.map(({ email, role, seatNumber }) => ({ email, role, seatNumber }))).toEqual([
      { email: order.email, role: 'buyer', seatNumber: 1 },
      { email: `bo-${kind}@example.com`, role: 'member', seatNumber: 2 },
      { email: `cy-${kind}@example.com`, role: 'member', seatNumber: 3 },
    ]);
    expect(new Set(people.map((person) => person.transactionId))).toEqual(new Set([order.transactionId]));

    const person = await findPersonByEmail(server.db, `BO-${kind}@example.com`);
    expect(person).toMatchObject({ role: 'member', seatNumber: 2, orderId: order.transactionId, status: 'active' });
    expect(await verify(person!.passwordHash!, bo.password)).toBe(true);

    // The console: the order's seats (who, status, when) and the dashboard's counts.
    const detail = await orderDetail(server.context(), order.transactionId);
    expect(detail?.seats.map((seat) => [seat.seatNumber, seat.name, seat.status, typeof seat.claimedAt])).toEqual([
      [2, 'Bo & Chen', 'claimed', 'string'],
      [3, 'Cy Diaz', 'claimed', 'string'],
    ]);
    const figures = await dashboard(server.db, { start: new Date(Date.now() - 86_400_000), end: new Date(Date.now() + 86_400_000) });
    expect(figures.claimedSeats).toBeGreaterThanOrEqual(2);
    expect(figures.assignedSeats).toBeGreaterThanOrEqual(figures.claimedSeats);

    await deliverDue(outboxContext);
    const boSeat = detail!.seats.find((seat) => seat.seatNumber === 2)!;
    expect(webhooksOf('seat.invited', boSeat.id)).toHaveLength(1);
    expect(webhooksOf('seat.claimed', boSeat.id)[0]?.verified).toBe(true);
  });

  it('refuses bad invitations with a 4xx { error } and changes nothing', async () => {
    const order = await buy(2);
    const before = await server.rows(outbox);
    const own = await invite(order.auth, order.email.toUpperCase());
    expect(own.statusCode).toBe(400);
    expect(own.json()).toMatchObject({ field: 'email', error: expect.stringMatching(/your own email/) });
    expect((await invite(order.auth, 'not-an-email')).json()).toMatchObject({ field: 'email' });
    expect((await invite(order.auth, 'blank@example.com', '   ')).json()).toEqual({ error: 'Name is required' });
    expect((await invite({ authorization: 'Bearer nope' }, 'x@example.com')).statusCode).toBe(401);
    expect(await server.rows(outbox)).toBe(before);

    expect((await invite(order.auth, `dee-${kind}@example.com`)).statusCode).toBe(200);
    const twice = await invite(order.auth, `DEE-${kind}@example.com`);
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toMatchObject({ field: 'email' });
    expect((await invite(order.auth, `eve-${kind}@example.com`)).json().error).toMatch(/Every seat is taken/);
    expect((await team(order.auth)).members).toHaveLength(1);

    // At most 20 invitations an hour per order, refused ones included.
    const busy = await buy(2);
    for (let attempt = 0; attempt < 20; attempt += 1) expect((await invite(busy.auth, busy.email)).statusCode).toBe(400);
    const limited = await invite(busy.auth, `late-${kind}@example.com`);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error).toMatch(/Too many invitations/);
    expect((await team(busy.auth)).members).toEqual([]);

    // Two invitations racing for the last seat of another order: one wins.
    const other = await buy(2);
    const raced = await Promise.all([invite(other.auth, `f1-${kind}@example.com`), invite(other.auth, `f2-${kind}@example.com`)]);
    expect(raced.map((response) => response.statusCode).sort()).toEqual([200, 409]);
  });

  it('revokes at once (password, token, webhook), reassigns, and an expired or replaced link says so', async () => {
    const order = await buy(3);
    await invite(order.auth, `gil-${kind}@example.com`, 'Gil');
    const gil = (await claim(await invitationToken(`gil-${kind}@example.com`))).json<JoinClaimed>();
    const gilSeat = (await team(order.auth)).members[0]!;

    const revoked = await server.post(`/api/account/team/${gilSeat.id}/revoke`, {}, order.auth);
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json<TeamView>()).toMatchObject({ free: 2, members: [] });
    const revokedPerson = await findPersonByEmail(server.db, `gil-${kind}@example.com`);
    expect(revokedPerson).toMatchObject({ role: 'member', revoked: true, passwordHash: null });
    expect(maySignIn(revokedPerson!)).toBe(false);
    expect((await redeem(handoffTokenOf(gil))).statusCode).toBe(410);
    await deliverDue(outboxContext);
    const hook = webhooksOf('seat.revoked', gilSeat.id);
    expect(hook).toHaveLength(1);
    expect(hook[0]).toMatchObject({ verified: true, data: { seatEmail: `gil-${kind}@example.com`, reason: 'buyer' } });
    expect((await server.post(`/api/account/team/${gilSeat.id}/revoke`, {}, order.auth)).statusCode).toBe(404);

    // The freed seat can be given again, also to the same person.
    await invite(order.auth, `gil-${kind}@example.com`, 'Gil');
    const seat = (await team(order.auth)).members[0]!;
    const oldToken = await invitationToken(`gil-${kind}@example.com`);
    const reassigned = await server.post(
      `/api/account/team/${seat.id}/reassign`,
      { email: `hal-${kind}@example.com`, name: 'Hal' },
      order.auth,
    );
    expect(reassigned.statusCode).toBe(200);
    expect(reassigned.json<TeamView>().members.map((each) => [each.email, each.seatNumber])).toEqual([
      [`hal-${kind}@example.com`, seat.seatNumber],
    ]);
    expect((await claim(oldToken)).statusCode).toBe(410);

    // Resend: a new link; the old one stops working.
    const halFirst = await invitationToken(`hal-${kind}@example.com`);
    const halSeat = (await team(order.auth)).members[0]!;
    expect((await server.post(`/api/account/team/${halSeat.id}/resend`, {}, order.auth)).statusCode).toBe(200);
    await deliverDue(outboxContext);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const halMails = mail.mails.filter((each) => each.to.includes(`hal-${kind}@example.com`));
    expect(halMails.length).toBe(2);
    const halSecond = /\/join\?token=([\w-]+)/.exec(halMails[1]!.text)![1]!;
    expect((await claim(halFirst)).statusCode).toBe(410);
    await server.db
      .update(seats)
      .set({ claimExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(seats.id, halSeat.id));
    const expired = await claim(halSecond);
    expect(expired.statusCode).toBe(410);
    expect(expired.json().error).toMatch(/expired/);
  });

  it('suspends the latest invited when the provider lowers the seats, restores them when raised; the manage page refuses', async () => {
    const order = await buy(4);
    for (const name of ['ian', 'jo', 'kim']) await invite(order.auth, `${name}-${kind}@example.com`, name);
    const context = server.context();
    const lower = await context.provider.changeSeats(order.subscriptionId, 2, `${order.transactionId}:test-lower`);
    expect(lower.ok).toBe(true);
    if (lower.ok) await applyPaymentEvents(context, lower.events);
    const lowered = await team(order.auth);
    expect(lowered.members.map((seat) => [seat.email.split('-')[0], seat.status])).toEqual([
      ['ian', 'invited'],
      ['jo', 'suspended'],
      ['kim', 'suspended'],
    ]);
    await deliverDue(outboxContext);
    expect((await mail.waitFor(order.email, /on hold/)).text).toMatch(/jo <jo-/);

    const raise = await context.provider.changeSeats(order.subscriptionId, 3, `${order.transactionId}:test-raise`);
    if (raise.ok) await applyPaymentEvents(context, raise.events);
    expect((await team(order.auth)).members.map((seat) => seat.status)).toEqual(['invited', 'invited', 'suspended']);

    // The manage page's own change may not go below the seats in use (buyer + 2).
    const [session] = await Promise.all([manageSession(order)]);
    const refused = await server.post('/api/account/seats', { quantity: 2 }, { cookie: session });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatch(/3 people use seats/);
    expect((await findOrder(server.db, order.transactionId))?.quantity).toBe(3);
  });

  /** A manage-page session for `order`'s buyer, through a mailed link. */
  async function manageSession(order: { email: string }): Promise<string> {
    await server.post('/api/account/link', { email: order.email });
    await deliverDue(outboxContext);
    const received = await mail.waitFor(order.email, /link to manage/);
    const token = /\/account\?token=([\w-]+)/.exec(received.text)![1];
    const opened = await server.post('/api/account/session', { token });
    return `account_session=${opened.cookies.find((each) => each.name === 'account_session')!.value}`;
  }

  it('the buyer gives seat 1 to someone else, still manages everything, and takes it back (decision 0038)', async () => {
    const order = await buy(2);
    const cookie = { cookie: await manageSession(order) };
    const giveSeatOne = (email: string, name: string) => server.post('/api/account/team/seat-one', { email, name }, cookie);
    const signIn = async (email: string, password: string) => (await verifySignIn(server.db, email, password)).outcome;
    const buyerPerson = await findPersonByEmail(server.db, order.email);
    expect(buyerPerson).toMatchObject({ role: 'buyer', seatNumber: 1, revoked: false });
    expect(await signIn(order.email, order.password)).toBe('signed_in');

    // The same validations as any seat; refusals change nothing.
    const before = await server.rows(outbox);
    expect((await giveSeatOne(order.email.toUpperCase(), 'Me')).json()).toMatchObject({
      field: 'email',
      error: expect.stringMatching(/your own email/),
    });
    expect((await giveSeatOne('not-an-email', 'Om')).statusCode).toBe(400);
    expect(await server.rows(outbox)).toBe(before);

    const om = `om-${kind}@example.com`;
    const given = await giveSeatOne(om, 'Olu Manager');
    expect(given.statusCode).toBe(200);
    expect(given.json<TeamView>()).toMatchObject({ free: 1, buyer: { holdsSeat: true }, members: [{ seatNumber: 1, status: 'invited' }] });
    expect((await giveSeatOne(`om2-${kind}@example.com`, 'Other')).json().error).toMatch(/Seat 1 is already given/);
    // Seat 2 is still free for a colleague; one email at most once per order.
    expect((await invite(order.auth, om)).statusCode).toBe(409);
    expect((await invite(order.auth, `bo1-${kind}@example.com`, 'Bo')).json<TeamView>()).toMatchObject({ free: 0 });
    // Until the invitee accepts, the buyer's login holds seat 1.
    expect(await signIn(order.email, order.password)).toBe('signed_in');

    // A sign-in of the buyer's to the training platform (an OpenID session row) ends when seat 1 is claimed.
    await server.db
      .insert(oidcRecords)
      .values({ model: 'Session', id: `seat-one-${kind}`, payload: { accountId: buyerPerson!.personId }, uid: `seat-one-${kind}` });
    const omToken = await invitationToken(om);
    const claimed = (await claim(omToken)).json<JoinClaimed>();
    expect(
      await server.db
        .select()
        .from(oidcRecords)
        .where(eq(oidcRecords.id, `seat-one-${kind}`)),
    ).toEqual([]);
    expect(claimed.seatNumber).toBe(1);
    // Seat 1's login is the invitee's: the buyer's password and the buyer's unredeemed hand-off no longer give a seat.
    expect(await signIn(om, claimed.password)).toBe('signed_in');
    expect(await signIn(order.email, order.password)).toBe('no_access');
    const buyerById = await findPersonById(server.db, buyerPerson!.personId);
    expect(buyerById).toMatchObject({ role: 'buyer', revoked: true });
    expect(maySignIn(buyerById!)).toBe(false);
    expect((await redeem(order.token)).statusCode).toBe(410);
    expect((await redeem(handoffTokenOf(claimed))).json()).toMatchObject({ email: om, role: 'member', seatNumber: 1 });

    // The buyer still manages everything: the manage page, the team (session or the success page's token), seats.
    expect((await server.app.inject({ method: 'GET', url: '/api/account', headers: cookie })).statusCode).toBe(200);
    expect(await team(cookie)).toMatchObject({ buyer: { email: order.email, holdsSeat: false }, free: 0 });
    expect((await team(order.auth)).members.map((seat) => [seat.seatNumber, seat.status])).toEqual([
      [1, 'claimed'],
      [2, 'invited'],
    ]);
    const lower = await server.post('/api/account/seats', { quantity: 1 }, cookie);
    expect(lower.statusCode).toBe(409);
    expect(lower.json().error).toMatch(/2 people use seats/);
    // The provider lowering the count suspends seat 2, never seat 1.
    const context = server.context();
    const lowered = await context.provider.changeSeats(order.subscriptionId, 1, `${order.transactionId}:seat-one-lower`);
    if (lowered.ok) await applyPaymentEvents(context, lowered.events);
    expect((await team(cookie)).members.map((seat) => [seat.seatNumber, seat.status])).toEqual([
      [1, 'claimed'],
      [2, 'suspended'],
    ]);
    expect(await signIn(om, claimed.password)).toBe('signed_in');
    const raised = await context.provider.changeSeats(order.subscriptionId, 2, `${order.transactionId}:seat-one-raise`);
    if (raised.ok) await applyPaymentEvents(context, raised.events);

    // The console's order page says who holds seat 1; the webhooks name seat 1.
    const detail = await orderDetail(context, order.transactionId);
    expect(detail?.seats.find((seat) => seat.seatNumber === 1)).toMatchObject({ email: om, status: 'claimed' });
    const omSeat = (await team(cookie)).members.find((seat) => seat.seatNumber === 1)!;
    await deliverDue(outboxContext);
    expect(webhooksOf('seat.invited', omSeat.id)[0]).toMatchObject({ verified: true, data: { seatNumber: 1, seatEmail: om } });
    expect(webhooksOf('seat.claimed', omSeat.id)[0]).toMatchObject({ verified: true, data: { seatNumber: 1 } });

    // Take seat 1 back: the invitee's access ends at once, the buyer's login holds seat 1 again.
    const back = await server.post(`/api/account/team/${omSeat.id}/revoke`, {}, cookie);
    expect(back.statusCode).toBe(200);
    expect(back.json<TeamView>()).toMatchObject({ buyer: { holdsSeat: true }, members: [{ seatNumber: 2, status: 'invited' }] });
    expect(await signIn(om, claimed.password)).not.toBe('signed_in');
    expect(await signIn(order.email, order.password)).toBe('signed_in');
    expect(maySignIn((await findPersonById(server.db, buyerPerson!.personId))!)).toBe(true);
    await deliverDue(outboxContext);
    expect(webhooksOf('seat.revoked', omSeat.id)[0]).toMatchObject({ verified: true, data: { seatNumber: 1, reason: 'buyer' } });
  });

  it('without SMTP an invitation is held for the console, to the invitee, with no live link minted', async () => {
    const order = await buy(2);
    await deliverDue(outboxContext);
    await invite(order.auth, `held-${kind}@example.com`, 'Hal Held');
    await deliverDue({ ...outboxContext, mailer: null });
    const [row] = await server.db
      .select()
      .from(outbox)
      .where(sql`${outbox.topic} = 'seat_invitation' and ${outbox.transactionId} = ${order.transactionId}`);
    expect(row).toMatchObject({ status: 'held', rendered: { to: `held-${kind}@example.com` } });
    expect(row!.rendered!.text).toContain('/join?token=[hidden]');
    expect(row!.rendered!.text).toContain('Ada Palmer');
    const [seat] = await server.db.select().from(seats).where(eq(seats.transactionId, order.transactionId));
    expect(seat!.claimTokenHash).toBeNull();
  });

  it('a refund or an ended subscription revokes every seat, each with seat.revoked', async () => {
    const refunded = await buy(3);
    const cancelled = await buy(2);
    for (const order of [refunded, cancelled]) await invite(order.auth, `m-${order.transactionId.slice(-6)}@example.com`);
    const context = server.context();
    expect((await refundOrder(context, { transactionId: refunded.transactionId, ownerId: 'test' })).ok).toBe(true);
    const order = await findOrder(server.db, cancelled.transactionId);
    expect((await cancelAtPeriodEnd(context, order!, undefined)).ok).toBe(true);
    expect((await server.post('/api/sandbox/clock/advance', { days: 40 })).statusCode).toBe(200);

    for (const each of [refunded, cancelled]) {
      const rows = await server.db.select().from(seats).where(eq(seats.transactionId, each.transactionId));
      expect(rows.map((row) => row.status)).toEqual(['revoked']);
      await deliverDue(outboxContext);
      expect(webhooksOf('seat.revoked', rows[0]!.id)[0]).toMatchObject({ verified: true, data: { reason: 'subscription_ended' } });
    }
    expect((await invite(refunded.auth, 'late@example.com')).statusCode).toBe(409);
  });
});
