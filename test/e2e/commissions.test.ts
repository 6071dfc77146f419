/**
 * Referrers are paid, in a real browser, with a real SMTP server catching the mails and
 * the sandbox clock on: the owner sets the referrer's email and a 20 % rule → a referred 3-seat purchase ($1,000)
 * → the referrer signs in from the mail and sees $200.00 held → clock +31 days → $200.00 payable and the renewal's
 * $200.00 held → the owner creates a payout batch, downloads the PayPal CSV (its row checked), marks it paid →
 * the referrer sees it paid. On PostgreSQL, so `npm run owner:create`'s script runs beside the server.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startMailCatcher, type MailCatcher } from '../support/mailCatcher';
import { chooseSeats, expectPaymentSuccessful, fillBuyer, fillCard, submit, TEST_CARDS } from './checkoutFlow';
import { axeViolationsAtWidths } from './axe';
import { launchBrowser, startServerOnPostgres, watchConsole } from './harness';

const OWNER = { email: 'owner@example.com', password: 'a long owner passphrase 42' };
const JANE = 'jane.partner@example.com';

describe('referrers are paid', () => {
  let mail: MailCatcher;
  let server: Awaited<ReturnType<typeof startServerOnPostgres>>;
  let browser: Browser;

  beforeAll(async () => {
    mail = await startMailCatcher();
    server = await startServerOnPostgres({ SMTP_URL: mail.url, OUTBOX_INTERVAL_SECONDS: '1', SANDBOX_CLOCK: '1' });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await mail?.close();
  });

  const newPage = async (): Promise<Page> =>
    // axe is injected as a script, which the pages' Content-Security-Policy would refuse.
    (await browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 900 }, acceptDownloads: true })).newPage();
  const totals = (page: Page) => page.getByRole('table', { name: 'Your commission' });
  const total = async (page: Page, label: string) =>
    (await totals(page).getByRole('row').filter({ hasText: label }).getByRole('cell').textContent()) ?? '';

  it('owner sets 20 % → referred purchase → held → clock +31 days → payable → batch, PayPal CSV, paid → the referrer sees it paid', async () => {
    execFileSync(process.execPath, ['--import', 'tsx', 'scripts/owner-create.ts', OWNER.email], {
      env: { PATH: process.env.PATH ?? '', ...server.databaseEnv, OWNER_PASSWORD: OWNER.password, LOG_LEVEL: 'warn' },
      encoding: 'utf8',
    });
    await server.database.query(
      "insert into referrers (slug, display_name, short_label, quote) values ('jane', 'Jane Doe', 'dr-jane', 'Try it.')",
    );

    // The owner gives Jane her email and a 20 % rule.
    const console = await newPage();
    await console.goto(`${server.baseUrl}/admin/commissions`);
    await console.getByLabel('Email').fill(OWNER.email);
    await console.getByLabel('Password').fill(OWNER.password);
    await console.getByRole('button', { name: 'Sign in' }).click();
    await console.getByRole('link', { name: 'Commissions' }).click();
    const settings = console.getByRole('form', { name: 'Commission settings of Jane Doe' });
    await settings.getByRole('textbox', { name: 'Email' }).fill(JANE);
    await settings.getByRole('combobox', { name: 'Rule' }).selectOption('percent');
    await settings.getByRole('spinbutton', { name: 'Percent' }).fill('20');
    await settings.getByRole('button', { name: 'Save' }).click();
    await console.getByRole('status').filter({ hasText: 'email and rule are saved' }).waitFor();
    await settings.getByText('Now: 20 % of each invoice').waitFor();

    // A practice follows Jane's link and buys 3 seats.
    const buyer = await newPage();
    await buyer.goto(`${server.baseUrl}/r/jane`);
    await buyer.getByLabel('Card number').waitFor({ timeout: 20_000 });
    await chooseSeats(buyer, 3);
    await fillBuyer(buyer, { firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.com' });
    await fillCard(buyer, TEST_CARDS.succeeds);
    await submit(buyer);
    await expectPaymentSuccessful(buyer, '$1,000', 3);

    // Jane asks for a link on /partner and signs in from the mail: $200.00 held.
    const partner = await newPage();
    const problems = watchConsole(partner);
    await partner.goto(`${server.baseUrl}/partner`);
    await partner.getByLabel('Your email').fill(JANE);
    // A visitor without a session is asked for a link without a refused call in the console.
    expect(problems).toEqual([]);
    await partner.getByRole('button', { name: 'Email me a sign-in link' }).click();
    await partner.getByRole('status').filter({ hasText: 'sign-in link is on its way' }).waitFor();
    expect(await axeViolationsAtWidths(partner, '/partner signed out')).toEqual([]);
    const signIn = await mail.waitFor(JANE, /^Your link to your partner page$/);
    const link = /Open your partner page: (\S+)/.exec(signIn.text)![1]!;
    await partner.goto(link.replace(/^http:\/\/localhost:\d+/, server.baseUrl));
    await partner.getByRole('heading', { name: 'Dr. Jane Doe, your referrals' }).waitFor();
    expect(new URL(partner.url()).search).toBe('');
    expect(await total(partner, 'Held')).toBe('$200.00');
    await partner.getByRole('table', { name: 'Practices you referred' }).getByText('Grace H.').waitFor();
    await partner
      .getByRole('img', { name: /QR code of http/ })
      .locator('svg')
      .waitFor();
    expect(await axeViolationsAtWidths(partner, '/partner')).toEqual([]);

    // The sandbox clock moves 31 days: the first $200.00 is payable, the renewal's $200.00 held.
    const advanced = await fetch(`${server.baseUrl}/api/sandbox/clock/advance`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ days: 31 }),
    });
    expect(advanced.status).toBe(200);
    await partner.reload();
    await totals(partner).waitFor();
    expect(await total(partner, 'Payable')).toBe('$200.00');
    expect(await total(partner, 'Held')).toBe('$200.00');

    // The owner creates a batch, downloads the PayPal CSV and marks it paid.
    await console.reload();
    await console.getByRole('button', { name: 'Create payout batch' }).click();
    const batches = console.getByRole('table', { name: 'Payout batches' });
    await batches.getByText('created').waitFor();
    const [download] = await Promise.all([console.waitForEvent('download'), batches.getByRole('link', { name: 'PayPal CSV' }).click()]);
    const csv = readFileSync(await download.path(), 'utf8');
    expect(csv).toMatch(new RegExp(`^${JANE.replace(/\./g, '\\.')},200\\.00,USD,B\\d+-jane,"Referral commission, payout \\d+",PAYPAL\\n$`));
    await batches.getByLabel('Payment reference').fill('PAYPAL-BATCH-7');
    await batches.getByRole('button', { name: 'Mark paid' }).click();
    await batches.getByText('PAYPAL-BATCH-7').waitFor();
    await mail.waitFor(JANE, /\$200\.00 is paid/);

    // Jane sees it paid.
    await partner.reload();
    await totals(partner).waitFor();
    expect(await total(partner, 'Paid')).toBe('$200.00');
    expect(await total(partner, 'Payable')).toBe('$0.00');
    const payout = partner.getByRole('table', { name: 'Payouts' }).getByRole('row').filter({ hasText: 'PAYPAL-BATCH-7' });
    expect(await payout.getByRole('cell').allTextContents()).toEqual([expect.any(String), '$200.00', 'paid', 'PAYPAL-BATCH-7']);
  });
});
