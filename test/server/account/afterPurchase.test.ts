/**
 * After the purchase (mail, one-click cancel, seats, card and failed payments), against real parts: a
 * real SMTP server receives the mails (test/support/mailCatcher.ts), a real HTTP server the agreement site's
 * webhooks. The outbox: one row per event, nothing lost between commit and send, retries while SMTP is down.
 * The manage page's API: magic links, cancel and undo, new credentials, seats, card; renewals on the sandbox
 * clock with the 0341 card (past due, recovery, exhaustion). On PGlite and PostgreSQL.
 */
import { verify } from '@node-rs/argon2';
import { eq, sql } from 'drizzle-orm';
import { featureMail } from '../../../server/app';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, orders, outbox, sandboxClock } from '../../../server/db/schema';
import type { AccountView, SeatChangePreview } from '../../../src/contract/account';
import { formatDollars } from '../../../src/domain/pricing';
import { DEFAULT_TAX_REGISTRATIONS, taxCents } from '../../../src/domain/tax';
import type { TaxQuote } from '../../../src/contract/checkout';
import { PRODUCT_NAME } from '../../../src/domain/product';
import { SANDBOX_CLOCK_MAX_SECONDS } from '../../../server/payments/sandbox/billing';
import { deliverDue, smtpMailer, type OutboxContext } from '../../../server/outbox/outboxWorker';
import { startMailCatcher, type MailCatcher } from '../../support/mailCatcher';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhookReceiver';
import { confirmBody, DATABASES, finalizeBody, locateBody, openCheckout, startTestServer, type TestServer } from '../helper';

const WEBHOOK_SECRET = 'whsec-test-0123456789abcdef0123456789abcdef';
const DAY_MS = 24 * 60 * 60 * 1000;
const DAY_SECONDS = DAY_MS / 1000;

describe.each(DATABASES)('after the purchase, on %s', (kind) => {
  let server: TestServer;
  let mail: MailCatcher;
  let receiver: WebhookReceiver;
  let outboxContext: OutboxContext;

  beforeAll(async () => {
    mail = await startMailCatcher();
    receiver = await startWebhookReceiver(WEBHOOK_SECRET);
    server = await startTestServer(kind, {
      env: {
        SMTP_URL: mail.url,
        PUBLIC_URL: 'https://checkout.test',
        TRAINING_PLATFORM_URL: 'https://academy.test/sign-in',
        SUCCESS_SITE_WEBHOOK_URL: receiver.url,
        SUCCESS_SITE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        ACCOUNT_LINKS_PER_15_MINUTES: '1000',
        SANDBOX_CLOCK: '1',
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
    await receiver.close();
  });

  let buyers = 0;
  /**
   * Buys `quantity` seats with `card` as a new buyer, located first at `postalCode` when given (the location step:
   * a ZIP that owes tax replaces the subscription with a taxed one); returns the transaction and the buyer's email.
   */
  async function buy(quantity: number, card = '4242 4242 4242 4242', postalCode?: string) {
    buyers += 1;
    const email = `buyer${buyers}@example.com`;
    const opened = await openCheckout(server, quantity);
    const located = postalCode ? await server.post('/api/locate-anon-subscription', locateBody(opened, postalCode)) : null;
    if (located) expect(located.statusCode).toBe(200);
    const session = located ? { ...opened, ...located.json<TaxQuote>() } : opened;
    const paid = await server.post('/api/sandbox/payment-intents/confirm', {
      ...confirmBody(session.clientSecret, card),
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
    return { transactionId: session.transactionId, email, session, password: finalized.json().loginDetails.password as string };
  }

  /** Opens a manage-page session from the link in the newest mail to `email` matching `subject`. */
  async function manageSession(email: string, subject: RegExp): Promise<string> {
    await deliverDue(outboxContext);
    const received = await mail.waitFor(email, subject);
    const token = /\/account\?token=([\w-]+)/.exec(received.text)?.[1];
    expect(token).toBeDefined();
    const opened = await server.post('/api/account/session', { token });
    expect(opened.statusCode).toBe(200);
    const cookie = opened.cookies.find((each) => each.name === 'account_session')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/account' });
    return `account_session=${cookie.value}`;
  }
  const account = (cookie: string) => server.app.inject({ method: 'GET', url: '/api/account', headers: { cookie } });
  const act = (url: string, cookie: string, body: unknown = {}) => server.post(url, body, { cookie });
  const advance = (days: number) => server.post('/api/sandbox/clock/advance', { days });
  const statusOf = async (transactionId: string) =>
    (await server.db.select().from(orders).where(eq(orders.transactionId, transactionId)))[0]!.status;

  it('sends the order confirmation once, with the agreement and manage links and no password, and the activation webhook', async () => {
    const { transactionId, email, session, password } = await buy(3);
    // A repeated finalize raises nothing new: one mail, one webhook per event.
    expect((await server.post('/api/finalize-anon-subscription', finalizeBody(session, { email, name: 'Ada Palmer' }))).statusCode).toBe(
      200,
    );
    const rows = await server.db.select().from(outbox).where(eq(outbox.transactionId, transactionId));
    expect(rows.map((row) => [row.kind, row.topic]).sort()).toEqual([
      ['mail', 'order_confirmation'],
      ['webhook', 'subscription.activated'],
    ]);

    await deliverDue(outboxContext);
    const confirmation = await mail.waitFor(email, /subscription is active/);
    expect(confirmation.text).toContain('3 seats');
    expect(confirmation.text).toContain(`Thank you for your order: 3 seats of ${PRODUCT_NAME}, $1,000/month, billed monthly.`);
    expect(confirmation.text).not.toMatch(/tax|Total charged/i);
    expect(confirmation.text).toContain(`Your login email is ${email}`);
    expect(confirmation.text).toMatch(/Sign the training agreement: https:\/\/checkout\.test\/account\?token=[\w-]{43}/);
    expect(confirmation.text).toMatch(/Manage your subscription: https:\/\/checkout\.test\/account\?token=[\w-]{43}/);
    // Where the buyer signs in to the training later: the training platform's address.
    expect(confirmation.text).toContain('sign in to the training on the training platform');
    expect(confirmation.text).toContain('Go to the training platform: https://academy.test/sign-in');
    expect(confirmation.text).not.toContain(password);
    expect(confirmation.html).toContain('<a href="https://checkout.test/account?token=');
    expect(
      receiver.webhooks.find((hook) => hook.type === 'subscription.activated' && hook.data.transactionId === transactionId),
    ).toMatchObject({
      verified: true,
      data: { email, seats: 3, monthlyTotalCents: 100_000, status: 'paid' },
    });
    expect((await server.db.select().from(outbox).where(eq(outbox.transactionId, transactionId))).map((row) => row.status)).toEqual([
      'sent',
      'sent',
    ]);

    // The agreement link opens a session and hands the buyer to the agreement site with a fresh hand-off token.
    const agreementToken = /agreement: https:\/\/checkout\.test\/account\?token=([\w-]+)/.exec(confirmation.text)![1];
    const opened = await server.post('/api/account/session', { token: agreementToken });
    expect(opened.json().agreementUrl).toMatch(/^http:\/\/localhost:5174\/\?token=[\w-]{43}$/);
    const handoff = new URL(opened.json().agreementUrl).searchParams.get('token')!;
    const redeemed = await server.post(
      '/api/handoff/redeem',
      { token: handoff },
      { authorization: `Bearer ${server.config.HANDOFF_API_KEY}` },
    );
    expect(redeemed.json()).toMatchObject({ transactionId, email });
    // Each link works once.
    expect((await server.post('/api/account/session', { token: agreementToken })).statusCode).toBe(401);
  });

  it('a Honolulu order is confirmed with the seats, Hawaii general excise tax and the total charged on lines of their own', async () => {
    const { transactionId, email } = await buy(3, undefined, '96813');
    expect((await server.db.select().from(orders).where(eq(orders.transactionId, transactionId)))[0]).toMatchObject({
      amountCents: 100_000,
      taxCents: 4_712,
      taxState: 'HI',
    });
    await deliverDue(outboxContext);
    const confirmation = await mail.waitFor(email, /subscription is active/);
    // 4.712 % of $1,000 (docs/decisions/0070), each amount a paragraph of its own in text and HTML.
    expect(confirmation.text).toContain(`Thank you for your order: 3 seats of ${PRODUCT_NAME}, billed monthly.`);
    expect(confirmation.text).toContain(
      '\n\nSeats: $1,000/month\n\nHawaii general excise tax: $47.12/month\n\nTotal charged: $1,047.12/month\n\n',
    );
    expect(confirmation.html).toContain('<p>Hawaii general excise tax: $47.12/month</p>');
    expect(confirmation.html).toContain('<p>Total charged: $1,047.12/month</p>');
    expect(confirmation.text).not.toContain('$1,000/month, billed monthly');

    // The manage page lists the invoice with the tax in it and the state it is for, and the monthly tax apart.
    const view = (await account(await manageSession(email, /subscription is active/))).json<AccountView>();
    expect(view).toMatchObject({ taxState: 'HI', monthlyTotalCents: 100_000, monthlyTaxCents: 4_712 });
    expect(view.invoices).toEqual([expect.objectContaining({ amountCents: 104_712, taxCents: 4_712, status: 'paid' })]);
    // The agreement site hears the amount before tax and the tax beside it.
    expect(
      receiver.webhooks.find((hook) => hook.type === 'subscription.activated' && hook.data.transactionId === transactionId)?.data,
    ).toMatchObject({ monthlyTotalCents: 100_000, monthlyTaxCents: 4_712, taxState: 'HI' });
  });

  it("a Honolulu buyer's seat change is quoted and charged with its tax; its receipts and webhook name the tax apart", async () => {
    const rate = DEFAULT_TAX_REGISTRATIONS.find((each) => each.state === 'HI')!.rateMillionths;
    const { email, transactionId } = await buy(1, undefined, '96813');
    const cookie = await manageSession(email, /subscription is active/);
    expect((await account(cookie)).json<AccountView>()).toMatchObject({
      monthlyTotalCents: 50_000,
      monthlyTaxCents: taxCents(50_000, rate),
      taxState: 'HI',
    });
    expect((await advance(10)).statusCode).toBe(200);

    // The quote names the tax of the charge now and of the new month before anything is charged.
    const quoted = await act('/api/account/seats/preview', cookie, { quantity: 3 });
    expect(quoted.statusCode, quoted.body).toBe(200);
    const quote = quoted.json<SeatChangePreview>();
    expect(quote).toMatchObject({ quantity: 3, monthlyTotalCents: 100_000, monthlyTaxCents: taxCents(100_000, rate), creditCents: 0 });
    const seatsNowCents = quote.amountDueNowCents - quote.taxDueNowCents;
    expect(seatsNowCents).toBeGreaterThan(0);
    expect(quote.taxDueNowCents).toBe(taxCents(seatsNowCents, rate));
    expect(quote.taxDueNowCents).toBeGreaterThan(0);

    // Charged as quoted, tax and all; the order's monthly tax follows its seats.
    const changed = await act('/api/account/seats', cookie, { quantity: 3, prorationDate: quote.prorationDate });
    expect(changed.statusCode, changed.body).toBe(200);
    const view = changed.json<AccountView>();
    expect(view).toMatchObject({ seats: 3, monthlyTotalCents: 100_000, monthlyTaxCents: taxCents(100_000, rate) });
    expect(view.invoices).toContainEqual(
      expect.objectContaining({ amountCents: quote.amountDueNowCents, taxCents: quote.taxDueNowCents, status: 'paid' }),
    );
    expect((await server.db.select().from(orders).where(eq(orders.transactionId, transactionId)))[0]).toMatchObject({
      quantity: 3,
      amountCents: 100_000,
      taxCents: taxCents(100_000, rate),
    });

    await deliverDue(outboxContext);
    const monthly = formatDollars(100_000 + taxCents(100_000, rate));
    const seatsMail = await mail.waitFor(email, /seats changed/);
    expect(seatsMail.text).toContain(`from 1 seat to 3 seats: ${monthly}/month from now on.`);
    expect(seatsMail.text).toContain(
      `\n\nSeats: $1,000/month\n\nHawaii general excise tax: ${formatDollars(taxCents(100_000, rate))}/month\n\nTotal charged: ${monthly}/month\n\n`,
    );
    const receipt = await mail.waitFor(email, /Receipt/);
    expect(receipt.text).toContain(`We charged ${formatDollars(quote.amountDueNowCents)} for your new seats`);
    expect(receipt.text).toContain(
      `\n\nSeats: ${formatDollars(seatsNowCents)}\n\nHawaii general excise tax: ${formatDollars(quote.taxDueNowCents)}\n\n` +
        `Total charged: ${formatDollars(quote.amountDueNowCents)}\n\n`,
    );
    expect(
      receiver.webhooks.find((hook) => hook.type === 'subscription.seats_changed' && hook.data.transactionId === transactionId)?.data,
    ).toMatchObject({
      from: 1,
      to: 3,
      amountCents: 100_000,
      taxCents: taxCents(100_000, rate),
      monthlyTotalCents: 100_000,
      monthlyTaxCents: taxCents(100_000, rate),
      taxState: 'HI',
    });

    // The next month renews at the seats' total and its tax, and its receipt says both.
    expect((await advance(25)).statusCode).toBe(200);
    await deliverDue(outboxContext);
    const renewal = await mail.waitFor(email, new RegExp(`Receipt: .*${monthly.replace(/[$.]/g, '\\$&')}`));
    expect(renewal.text).toContain(`We charged ${monthly} for another month`);
    expect(renewal.text).toContain(
      `\n\nSeats: $1,000\n\nHawaii general excise tax: ${formatDollars(taxCents(100_000, rate))}\n\nTotal charged: ${monthly}\n\n`,
    );
  });

  it("a Honolulu buyer's failed renewal names the tax in what could not be charged, in the mail and the webhook", async () => {
    const { email, transactionId } = await buy(1, '4000 0000 0000 0341', '96813');
    await manageSession(email, /subscription is active/);
    expect((await advance(31)).json().renewals).toBeGreaterThanOrEqual(1);
    expect(await statusOf(transactionId)).toBe('past_due');
    await deliverDue(outboxContext);
    const failed = await mail.waitFor(email, /payment failed/);
    expect(failed.text).toContain('We could not charge $523.56 for your');
    expect(failed.text).toContain('\n\nSeats: $500\n\nHawaii general excise tax: $23.56\n\nTotal due: $523.56\n\n');
    expect(
      receiver.webhooks.find((hook) => hook.type === 'subscription.past_due' && hook.data.transactionId === transactionId)?.data,
    ).toMatchObject({ amountCents: 52_356, taxCents: 2_356, monthlyTotalCents: 50_000, monthlyTaxCents: 2_356, taxState: 'HI' });
  });

  it('loses no mail between commit and send, and retries while the SMTP server is down', async () => {
    mail.refuse(true);
    const { transactionId, email } = await buy(1);
    const first = await deliverDue(outboxContext);
    expect(first.retried).toBeGreaterThanOrEqual(1);
    const [waiting] = await server.db
      .select()
      .from(outbox)
      .where(eq(outbox.dedupeKey, `mail:activated:${transactionId}:`));
    expect(waiting).toMatchObject({ status: 'pending', attempts: 1 });
    expect(waiting!.lastError).toBeTruthy();
    expect(waiting!.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + 20_000);
    mail.refuse(false);

    // A worker that claimed the row and died before sending: its claim runs out and the next run sends it.
    await server.db
      .update(outbox)
      .set({ nextAttemptAt: sql`now()`, lockedUntil: sql`now() + interval '60 seconds'` })
      .where(eq(outbox.id, waiting!.id));
    expect((await deliverDue(outboxContext)).sent).toBe(0);
    await server.db
      .update(outbox)
      .set({ lockedUntil: sql`now() - interval '1 second'` })
      .where(eq(outbox.id, waiting!.id));
    await deliverDue(outboxContext);
    await mail.waitFor(email, /subscription is active/);
    expect((await server.db.select().from(outbox).where(eq(outbox.id, waiting!.id)))[0]).toMatchObject({ status: 'sent', attempts: 2 });
    expect(mail.mails.filter((each) => each.to.includes(email))).toHaveLength(1);
  });

  it('emails a single-use link to the manage page; an unknown email gets the same answer and queued job, and no mail', async () => {
    const { email, transactionId } = await buy(1);
    await deliverDue(outboxContext);
    const queued = async () => (await server.db.select().from(outbox).where(eq(outbox.topic, 'account_link'))).map((row) => row.id);
    const before = await queued();
    const known = await server.post('/api/account/link', { email: email.toUpperCase() });
    const afterKnown = await queued();
    const unknown = await server.post('/api/account/link', { email: 'nobody@example.com' });
    const afterUnknown = await queued();
    expect([known.statusCode, unknown.statusCode]).toEqual([202, 202]);
    expect(known.json()).toEqual(unknown.json());
    // One outbox row each, alike until the worker resolves the email at send time.
    expect(afterKnown).toHaveLength(before.length + 1);
    expect(afterUnknown).toHaveLength(before.length + 2);
    const rowOf = async (id: number) => (await server.db.select().from(outbox).where(eq(outbox.id, id)))[0]!;
    const knownRow = await rowOf(afterKnown.at(-1)!);
    const unknownRow = await rowOf(afterUnknown.at(-1)!);
    for (const row of [knownRow, unknownRow]) expect(row).toMatchObject({ kind: 'mail', status: 'pending', transactionId: null });
    expect(Object.keys(knownRow.payload)).toEqual(Object.keys(unknownRow.payload));

    const report = await deliverDue(outboxContext);
    expect(report).toMatchObject({ sent: 1, dropped: 1 });
    const sentRow = await rowOf(knownRow.id);
    const droppedRow = await rowOf(unknownRow.id);
    expect(sentRow).toMatchObject({ status: 'sent', transactionId });
    expect(droppedRow).toMatchObject({ status: 'dropped', transactionId: null, rendered: null });
    const cookie = await manageSession(email, /Your link to manage/);
    expect(mail.mails.filter((each) => each.to.includes('nobody@example.com'))).toEqual([]);
    const view = (await account(cookie)).json();
    expect(view).toMatchObject({
      email,
      seats: 1,
      monthlyTotalCents: 50_000,
      status: 'paid',
      cardLast4: '4242',
      cancelAt: null,
      managedByProvider: false,
    });
    expect(new Date(view.currentPeriodEnd).getTime()).toBeGreaterThan(Date.now() + 27 * DAY_MS);
    expect(view.invoices).toEqual([expect.objectContaining({ amountCents: 50_000, status: 'paid' })]);
    expect((await account('account_session=forged.123')).statusCode).toBe(401);
    expect((await server.app.inject({ method: 'GET', url: '/api/account' })).statusCode).toBe(401);
    // The page's first question is answered 200 either way: a visit without a session logs no error.
    const probe = (headers: Record<string, string> = {}) => server.app.inject({ method: 'GET', url: '/api/account/session', headers });
    const signedOut = await probe();
    expect([signedOut.statusCode, signedOut.json()]).toEqual([200, { account: null }]);
    expect((await probe({ cookie: 'account_session=forged.123' })).json()).toEqual({ account: null });
    const signedIn = await probe({ cookie });
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json()).toEqual({ account: view });
  });

  it('tells the checkout of an active subscription only for an email this browser proves it holds', async () => {
    const { email, session, transactionId } = await buy(1);
    const check = (body: object, cookie?: string) => server.post('/api/account/subscription-check', body, cookie ? { cookie } : {});
    const purchase = { transactionId, customerId: session.customerId };
    // An email alone tells nothing: the same answer as for an email that never bought.
    for (const body of [{ email }, { email: 'never.bought@example.com' }]) {
      const answer = await check(body);
      expect([answer.statusCode, answer.json()]).toEqual([200, { activeSubscription: false }]);
    }
    // The ids of this browser's purchase prove it, for that purchase's email only (any case).
    expect((await check({ email: email.toUpperCase(), purchase })).json()).toEqual({ activeSubscription: true });
    expect((await check({ email: 'someone.else@example.com', purchase })).json()).toEqual({ activeSubscription: false });
    expect((await check({ email, purchase: { ...purchase, customerId: 'cus_forged' } })).json()).toEqual({ activeSubscription: false });
    // So does the manage page's session.
    const cookie = await manageSession(email, /subscription is active/);
    expect((await check({ email }, cookie)).json()).toEqual({ activeSubscription: true });
    // Bad input is a 400 with { error }, never a 500.
    const refused = await check({ email: 'not-an-email', purchase: { transactionId: '' } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toHaveProperty('error');
  });

  it('cancels in one click at the end of the period, with a mail, and undoes it', async () => {
    const { email, transactionId } = await buy(1);
    const cookie = await manageSession(email, /subscription is active/);
    const cancelled = await act('/api/account/cancel', cookie, { reason: 'Too busy this quarter' });
    expect(cancelled.statusCode).toBe(200);
    const periodEnd = cancelled.json().currentPeriodEnd;
    expect(cancelled.json()).toMatchObject({ cancelAt: periodEnd, status: 'paid' });
    await deliverDue(outboxContext);
    const confirmation = await mail.waitFor(email, /is cancelled/);
    expect(confirmation.text).toContain(
      `ends on ${new Date(periodEnd).toLocaleDateString('en-US', { dateStyle: 'long', timeZone: 'UTC' })}`,
    );
    expect((await server.db.select().from(orders).where(eq(orders.transactionId, transactionId)))[0]!.cancellationReason).toBe(
      'Too busy this quarter',
    );

    const resumed = await act('/api/account/resume', cookie);
    expect(resumed.json()).toMatchObject({ cancelAt: null, status: 'paid' });
    await deliverDue(outboxContext);
    await mail.waitFor(email, /continues/);

    // Cancelled again after the undo: a second cancellation, a second mail (the same date does not dedupe it).
    expect((await act('/api/account/cancel', cookie)).json()).toMatchObject({ cancelAt: periodEnd });
    await deliverDue(outboxContext);
    const cancellations = () => mail.mails.filter((each) => each.to.includes(email) && /is cancelled/.test(each.subject));
    await expect.poll(() => cancellations().length).toBe(2);
    const [row] = await server.db.select().from(orders).where(eq(orders.transactionId, transactionId));
    expect(row).toMatchObject({ cancellationReason: null, status: 'paid' });
  });

  it('refuses a card that declines as the new card on file, and changes nothing', async () => {
    const { email, transactionId } = await buy(1);
    const cookie = await manageSession(email, /subscription is active/);
    const card = (number: string) => ({
      card: { number, expMonth: 12, expYear: new Date().getFullYear() + 2, cvc: '123', postalCode: '10001' },
    });
    const declined = await act('/api/account/card', cookie, card('4000 0000 0000 0002'));
    expect(declined.statusCode).toBe(402);
    expect(declined.json()).toEqual({ error: 'Your card was declined.' });
    expect((await act('/api/account/card', cookie, card('4000 0000 0000 9995'))).json()).toEqual({
      error: 'Your card has insufficient funds.',
    });
    expect((await act('/api/account/card', cookie, card('4111 1111 1111 1111'))).statusCode).toBe(400);
    expect((await account(cookie)).json()).toMatchObject({ cardLast4: '4242', status: 'paid' });
    expect(await statusOf(transactionId)).toBe('paid');
  });

  it('gives new login credentials: the new password works and the old one stops', async () => {
    const { email, transactionId, password } = await buy(1);
    const cookie = await manageSession(email, /subscription is active/);
    const issued = (await act('/api/account/credentials', cookie)).json();
    expect(issued.email).toBe(email);
    expect(issued.password).toMatch(/^[A-Za-z0-9]{20}$/);
    const [row] = await server.db.select().from(accounts).where(eq(accounts.transactionId, transactionId));
    expect(await verify(row!.passwordHash!, issued.password)).toBe(true);
    expect(await verify(row!.passwordHash!, password)).toBe(false);
  });

  it('after new credentials on /account, finalize with the order ids answers no password and mails a sign-in link', async () => {
    const { email, transactionId, session } = await buy(1);
    const cookie = await manageSession(email, /subscription is active/);
    const issued = (await act('/api/account/credentials', cookie)).json<{ password: string }>();
    const [before] = await server.db.select().from(accounts).where(eq(accounts.transactionId, transactionId));

    // Someone holding the ids (the console's CSV, a log) and another email: refused, nothing changed.
    const stranger = await server.post(
      '/api/finalize-anon-subscription',
      finalizeBody(session, { email: 'mallory@evil.example', name: 'M' }),
    );
    expect(stranger.statusCode).toBe(403);
    // The buyer's own email: the order's success, without credentials; the sign-in link goes to the buyer.
    const again = await server.post('/api/finalize-anon-subscription', finalizeBody(session, { email, name: 'Ada Palmer' }));
    expect(again.json()).toEqual({ success: true, token: null, loginDetails: null, signInLinkEmailed: true });
    const [after] = await server.db.select().from(accounts).where(eq(accounts.transactionId, transactionId));
    expect(after).toEqual(before);
    expect(await verify(after!.passwordHash!, issued.password)).toBe(true);
    await manageSession(email, /link to manage/);
  });

  it('changes seats from 1 to 3, with a mail and a webhook', async () => {
    const { email, transactionId } = await buy(1);
    const cookie = await manageSession(email, /subscription is active/);
    const changed = await act('/api/account/seats', cookie, { quantity: 3 });
    expect(changed.json()).toMatchObject({ seats: 3, monthlyTotalCents: 100_000 });
    expect((await act('/api/account/seats', cookie, { quantity: 0 })).statusCode).toBe(400);
    await deliverDue(outboxContext);
    const received = await mail.waitFor(email, /seats changed/);
    expect(received.text).toContain('from 1 seat to 3 seats: $1,000/month');
    expect(
      receiver.webhooks.find((hook) => hook.type === 'subscription.seats_changed' && hook.data.transactionId === transactionId),
    ).toMatchObject({
      verified: true,
      data: { from: 1, to: 3, seats: 3 },
    });
  });

  it('a card that fails at renewal makes the order past due with a mail and a webhook; a new card brings it back', async () => {
    const { email, transactionId } = await buy(1, '4000 0000 0000 0341');
    const cookie = await manageSession(email, /subscription is active/);
    expect((await advance(31)).json().renewals).toBeGreaterThanOrEqual(1);
    expect(await statusOf(transactionId)).toBe('past_due');
    await deliverDue(outboxContext);
    const failed = await mail.waitFor(email, /payment failed/);
    expect(failed.text).toMatch(/Update your card: https:\/\/checkout\.test\/account\?token=/);
    expect(
      receiver.webhooks.find((hook) => hook.type === 'subscription.past_due' && hook.data.transactionId === transactionId),
    ).toMatchObject({ verified: true });

    const updated = await act('/api/account/card', cookie, {
      card: { number: '4242 4242 4242 4242', expMonth: 12, expYear: new Date().getFullYear() + 2, cvc: '123', postalCode: '10001' },
    });
    expect(updated.json()).toMatchObject({ status: 'paid', cardLast4: '4242' });
    expect(updated.json().invoices.map((invoice: { status: string }) => invoice.status)).toEqual(['paid', 'paid']);
    await deliverDue(outboxContext);
    expect((await mail.waitFor(email, /Receipt/)).text).toContain('active again');
  });

  it('registers the billing clock only with SANDBOX_CLOCK=1', async () => {
    const withoutClock = await server.derive({ env: { SANDBOX_CLOCK: '0' } });
    try {
      expect((await withoutClock.post('/api/sandbox/clock/advance', { days: 31 })).statusCode).toBe(404);
    } finally {
      await withoutClock.close();
    }
    expect((await advance(1)).statusCode).toBe(200);
  });

  it('moves the clock at most 50 years ahead: further is a 409 and moves nothing', async () => {
    expect((await advance(1)).statusCode).toBe(200);
    const [before] = await server.db.select().from(sandboxClock);
    await server.db.update(sandboxClock).set({ offsetSeconds: SANDBOX_CLOCK_MAX_SECONDS - DAY_SECONDS });
    try {
      const refused = await advance(2);
      expect([refused.statusCode, refused.json()]).toEqual([409, { error: 'The sandbox clock goes at most 50 years ahead of today.' }]);
      expect((await server.db.select().from(sandboxClock))[0]!.offsetSeconds).toBe(SANDBOX_CLOCK_MAX_SECONDS - DAY_SECONDS);
      expect((await advance(1)).statusCode).toBe(200);
    } finally {
      await server.db.update(sandboxClock).set({ offsetSeconds: before!.offsetSeconds });
    }
  });

  it('ends the subscription after the last failed retry, and at the end of a cancelled period', async () => {
    const failing = await buy(1, '4000 0000 0000 0341');
    const cancelling = await buy(1);
    const cookie = await manageSession(cancelling.email, /subscription is active/);
    await act('/api/account/cancel', cookie);
    await advance(31);
    expect(await statusOf(failing.transactionId)).toBe('past_due');
    expect(await statusOf(cancelling.transactionId)).toBe('cancelled');
    await advance(3);
    await advance(3);
    expect(await statusOf(failing.transactionId)).toBe('cancelled');
    await deliverDue(outboxContext);
    for (const transactionId of [failing.transactionId, cancelling.transactionId]) {
      expect(
        receiver.webhooks.find((hook) => hook.type === 'subscription.cancelled' && hook.data.transactionId === transactionId),
      ).toMatchObject({ verified: true });
    }
  });
});
