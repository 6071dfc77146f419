/**
 * The owner's console in Debian's Chromium, on PostgreSQL with a real SMTP server, at 1280×900 and
 * 375×812: a buyer cancels with a reason on /account → the console shows "Cancels on …" with the reason at once
 * (the order, the Cancellations view) and the dashboard counts it; the dashboard shows the money collected and the
 * MRR chart with its table; a 0341 buyer after the sandbox clock's +31 days is found under "Past due"; axe-core
 * finds no violation on these screens. The purchases themselves go through the API (the
 * checkout has its own browser tests).
 */
import { execFileSync } from 'node:child_process';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRODUCT_ID } from '../../src/domain/product';
import { startMailCatcher, type MailCatcher } from '../support/mailCatcher';
import { launchBrowser, startServerOnPostgres, watchConsole } from './harness';
import { axeViolations, axeViolationsAtWidths } from './axe';

const OWNER = { email: 'owner@example.com', password: 'a long owner passphrase 42' };
const REASON = 'Too expensive for a 3-doctor clinic';

describe("the owner's console: orders and dashboard", () => {
  let mail: MailCatcher;
  let server: Awaited<ReturnType<typeof startServerOnPostgres>>;
  let browser: Browser;

  beforeAll(async () => {
    mail = await startMailCatcher();
    server = await startServerOnPostgres({ SMTP_URL: mail.url, OUTBOX_INTERVAL_SECONDS: '1', SANDBOX_CLOCK: '1' });
    browser = await launchBrowser();
    execFileSync(process.execPath, ['--import', 'tsx', 'scripts/owner-create.ts', OWNER.email], {
      env: { PATH: process.env.PATH ?? '', ...server.databaseEnv, OWNER_PASSWORD: OWNER.password, LOG_LEVEL: 'warn' },
      encoding: 'utf8',
    });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await mail?.close();
  });

  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${server.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(response.status, `${path}: ${await response.clone().text()}`).toBe(200);
    return response.json() as Promise<Record<string, string>>;
  };

  /** Buys `seats` through the API (calls 1 and 3 with a sandbox card); returns the order's transaction id. */
  async function buy(email: string, seats: number, card: string): Promise<string> {
    const session = await post('/api/create-anon-subscription-intent', {
      productId: PRODUCT_ID,
      quantity: seats,
      affiliate_id: 'dr-sample',
      affiliate_source: `${server.baseUrl}/`,
    });
    await post('/api/sandbox/payment-intents/confirm', {
      clientSecret: session.clientSecret,
      card: { number: card, expMonth: 12, expYear: new Date().getFullYear() + 1, cvc: '123', postalCode: '10001' },
      billingDetails: { name: 'Ada Palmer', email },
    });
    const { subscriptionId, customerId, transactionId } = session;
    await post('/api/finalize-anon-subscription', { subscriptionId, customerId, transactionId, email, name: 'Ada Palmer' });
    return transactionId!;
  }

  /** Whether anything on the page lies beyond the viewport's right edge (a table's column, a button) or a card scrolls sideways. */
  const scrollsSideways = (page: Page) =>
    page.evaluate(() =>
      [...document.querySelectorAll('a, button, input, select, td, th, section')].some((element) => {
        if (element.tagName === 'SECTION') return element.scrollWidth > element.clientWidth + 1;
        const head = element.closest('thead');
        if (head && getComputedStyle(head).position === 'absolute') return false; // a stacked table's header, for screen readers
        const box = element.getBoundingClientRect();
        return box.width > 0 && box.right > window.innerWidth + 1;
      }),
    );

  it('a cancellation with its reason shows at once, the dashboard counts it and shows money collected and the MRR chart; a 0341 buyer is past due', async () => {
    await buy('clinic@example.com', 3, '4242 4242 4242 4242');
    const lateTransaction = await buy('late@example.com', 1, '4000 0000 0000 0341');

    // The buyer cancels on /account, from the confirmation mail's link, on a phone.
    const confirmation = await mail.waitFor('clinic@example.com', /subscription is active/);
    const manage = /Manage your subscription: (\S+)/.exec(confirmation.text)![1]!;
    const buyer = await (await browser.newContext({ viewport: { width: 375, height: 812 } })).newPage();
    await buyer.goto(manage.replace(/^https?:\/\/[^/]+/, server.baseUrl));
    await buyer.getByLabel('Why are you leaving? (optional)').fill(REASON);
    await buyer.getByRole('button', { name: 'Cancel subscription' }).click();
    await buyer.getByRole('alertdialog', { name: 'Cancel your subscription?' }).waitFor();
    await buyer.getByRole('button', { name: 'Yes, cancel my subscription' }).click();
    await buyer.getByRole('button', { name: 'Undo cancellation' }).waitFor();

    // The owner signs in at 1280×900.
    const context = await browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const problems = watchConsole(page);
    await page.goto(`${server.baseUrl}/admin`);
    await page.getByLabel('Email').fill(OWNER.email);
    await page.getByLabel('Password').fill(OWNER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();

    // The dashboard: money collected, the cancellation counted, the MRR chart drawn and its table.
    const figure = (label: string) => page.locator('dl div').filter({ has: page.getByText(label, { exact: true }) });
    await expect.poll(() => figure('Money collected').locator('dd').first().textContent()).toBe('$1,500');
    expect(await figure('Cancellations').locator('dd').first().textContent()).toBe('1');
    await page.getByTestId('mrr-chart').locator('canvas').waitFor();
    await page.getByText('Show the MRR as a table').click();
    const mrrTable = page.getByRole('table', { name: 'MRR by day' });
    expect(await mrrTable.getByRole('row').count()).toBe(31);
    expect(await mrrTable.getByRole('row').last().textContent()).toContain('$1,500');
    expect(await axeViolationsAtWidths(page, 'dashboard')).toEqual([]);

    // The Cancellations view and the order: "Cancels on …" with the reason.
    await page.getByRole('link', { name: 'See the cancellations' }).click();
    const cancellations = page.getByRole('table', { name: 'Cancellations' });
    const row = cancellations.getByRole('row').filter({ hasText: 'clinic@example.com' });
    await row.waitFor();
    expect(await row.textContent()).toMatch(/Cancels on [A-Z][a-z]{2} \d{1,2}, \d{4}/);
    expect(await row.textContent()).toContain(`“${REASON}”`);
    expect(await axeViolationsAtWidths(page, 'cancellations')).toEqual([]);
    await row.getByRole('link').click();
    const order = page.getByRole('table', { name: 'Order' });
    await order.getByText(/^Cancels on /).waitFor();
    expect(await order.textContent()).toContain(`Reason: “${REASON}”`);
    await page.getByRole('table', { name: 'Invoices' }).getByText('$1,000').waitFor();
    await page.getByRole('list', { name: 'Events' }).getByText(`Cancellation scheduled`, { exact: false }).waitFor();
    expect(await axeViolationsAtWidths(page, 'order')).toEqual([]);

    // The sandbox clock's +31 days: the 0341 buyer's renewal fails; the owner finds them under "Past due", on a phone.
    await post('/api/sandbox/clock/advance', { days: 31 });
    await page.setViewportSize({ width: 375, height: 812 });
    // On a phone the console's links fold behind "Menu": the screen starts with its content.
    const nav = page.getByRole('navigation', { name: 'Console' });
    expect(await nav.isVisible()).toBe(false);
    expect((await page.locator('header').boundingBox())!.height).toBeLessThan(812 / 8);
    await page.getByRole('button', { name: 'Menu' }).click();
    expect(await page.getByRole('button', { name: 'Menu' }).getAttribute('aria-expanded')).toBe('true');
    expect(await axeViolations(page), 'the menu open at 375×812').toEqual([]);
    await nav.getByRole('link', { name: 'Orders', exact: true }).click();
    expect(await nav.isVisible()).toBe(false);
    // The buyer search finds the order by part of the email.
    await page.getByLabel('Buyer').fill('LATE@');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => page.getByRole('table', { name: 'Orders' }).getByRole('row').count()).toBe(2);
    await page.getByLabel('Buyer').fill('');
    await page.getByLabel('Status').selectOption({ label: 'Past due' });
    await page.getByRole('button', { name: 'Filter' }).click();
    const pastDue = page.getByRole('table', { name: 'Orders' }).getByRole('row').filter({ hasText: 'late@example.com' });
    await pastDue.waitFor();
    expect(await pastDue.textContent()).toMatch(/Past due since [A-Z][a-z]{2} \d{1,2}, \d{4}/);
    await expect.poll(() => page.getByRole('table', { name: 'Orders' }).getByRole('row').count()).toBe(2);
    // On a phone the rows stack, each cell under its column's name: nothing to scroll sideways.
    const orders = page.getByRole('table', { name: 'Orders' });
    expect(await orders.evaluate((table) => table.scrollWidth <= (table.parentElement?.clientWidth ?? 0))).toBe(true);
    expect(await pastDue.locator('td[data-label="Status"]').evaluate((cell) => getComputedStyle(cell).display)).toBe('block');
    expect(await axeViolationsAtWidths(page, 'orders')).toEqual([]);
    await pastDue.getByRole('link').click();
    await page.getByRole('heading', { name: 'Ada Palmer <late@example.com>' }).waitFor();
    await page.getByRole('table', { name: 'Order' }).getByText(lateTransaction).waitFor();

    // The order's page at 375 px: its tables stack, nothing off-screen.
    expect(await scrollsSideways(page), 'an order at 375×812').toBe(false);
    await page.getByRole('button', { name: 'Menu' }).click();
    await nav.getByRole('link', { name: 'Dashboard' }).click();
    await page.getByTestId('mrr-chart').locator('canvas').waitFor();
    expect(await scrollsSideways(page), 'the dashboard at 375×812').toBe(false);
    expect(await axeViolationsAtWidths(page, 'dashboard')).toEqual([]);
    await page.getByRole('button', { name: 'Menu' }).click();
    await nav.getByRole('link', { name: 'Commissions' }).click();
    await page.getByRole('table', { name: "Referrers' commissions" }).waitFor();
    expect(await scrollsSideways(page), 'commissions at 375×812').toBe(false);
    expect(await axeViolationsAtWidths(page, 'commissions')).toEqual([]);
    // The console's first look for a session, before sign-in, is a 401 by design.
    expect(problems.filter((problem) => !problem.includes('401'))).toEqual([]);
  });
});
