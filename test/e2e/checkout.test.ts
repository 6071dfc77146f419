/**
 * A buyer in Debian's Chromium against the real server with the sandbox provider; the seat limit (MAX_SEATS, its
 * default here) refused at the count box, typed or added.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { DEFAULT_MAX_SEATS, seatLimitNotice } from '../../src/domain/pricing';
import { useServerAndBrowser, watchConsole } from './harness';
import {
  chooseSeats,
  expectCardAskedAgain,
  expectPaymentSuccessful,
  fillBuyer,
  fillCard,
  openCheckout,
  submit,
  TEST_CARDS,
} from './checkoutFlow';

const running = useServerAndBrowser();
let context: BrowserContext;
let page: Page;
let consoleProblems: string[];

beforeEach(async () => {
  context = await running.browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  consoleProblems = watchConsole(page);
});
afterEach(async () => {
  await context.close();
});

describe('checkout in a real browser', () => {
  it('buys one seat with 4242 and shows the credentials', async () => {
    await openCheckout(page, running.server.baseUrl);
    await fillBuyer(page);
    await fillCard(page, TEST_CARDS.succeeds);
    await submit(page);
    const record = await expectPaymentSuccessful(page, '$500', 1);
    expect(record.token.length).toBeGreaterThan(20);
    expect(consoleProblems).toEqual([]);
  });

  it('a Honolulu ZIP shows Hawaii general excise tax, asks to confirm the total with it, and pays $523.56', async () => {
    await openCheckout(page, running.server.baseUrl);
    await fillBuyer(page);
    await fillCard(page, TEST_CARDS.succeeds);
    await page.getByLabel('ZIP').fill('96813');
    await submit(page);
    const pay = page.getByRole('button', { name: 'Pay $523.56 monthly' });
    await pay.waitFor();
    expect(await page.getByTestId('summary-tax').textContent()).toBe('$23.56');
    expect(await page.getByTestId('summary-total').textContent()).toBe('$523.56');
    // Nothing is charged until the buyer confirms; the confirmation has the focus.
    expect(await pay.evaluate((button) => button === document.activeElement)).toBe(true);
    await pay.click();
    const record = await expectPaymentSuccessful(page, '$523.56', 1);
    expect(record).toMatchObject({ totalAmount: 523.56, taxAmount: 23.56 });
    await page.getByText('$23.56/month').waitFor();
    expect(consoleProblems).toEqual([]);
  });

  it('buys three seats for $1,000/month', async () => {
    await openCheckout(page, running.server.baseUrl);
    await chooseSeats(page, 3);
    await page.getByText('Total (monthly)').waitFor();
    await fillBuyer(page);
    await fillCard(page, TEST_CARDS.succeeds);
    await submit(page);
    await expectPaymentSuccessful(page, '$1,000', 3);
    expect(consoleProblems).toEqual([]);
  });

  it('the seat limit: a typed count above it is refused at the box and nothing is lost; "+" stops at it and says why', async () => {
    await openCheckout(page, running.server.baseUrl);
    const count = page.getByRole('textbox', { name: 'Seats' });
    const limit = page.getByRole('alert').filter({ hasText: seatLimitNotice(DEFAULT_MAX_SEATS) });
    await count.fill(String(DEFAULT_MAX_SEATS + 1));
    await limit.waitFor();
    expect(await count.getAttribute('aria-invalid')).toBe('true');
    // Above the limit nothing is asked of the server and the typed count stays for the buyer to correct.
    expect(await count.inputValue()).toBe(String(DEFAULT_MAX_SEATS + 1));
    await count.fill(String(DEFAULT_MAX_SEATS));
    await page.getByText(`Team size updated to ${DEFAULT_MAX_SEATS} members.`).waitFor({ timeout: 15_000 });
    await expect.poll(() => limit.count()).toBe(0);
    await page.getByRole('button', { name: 'Increase seats' }).click();
    await limit.waitFor();
    expect(await count.inputValue()).toBe(String(DEFAULT_MAX_SEATS));
    expect(await page.getByTestId('seat-total').textContent()).toBe('$49,500');
    expect(consoleProblems).toEqual([]);
  });

  it('a seat change after the card was typed asks for the card again at its field, and pays with the new one', async () => {
    await openCheckout(page, running.server.baseUrl);
    await fillBuyer(page);
    await fillCard(page, TEST_CARDS.succeeds);
    await expectCardAskedAgain(page, 3, TEST_CARDS.succeeds);
    await submit(page);
    await expectPaymentSuccessful(page, '$1,000', 3);
    expect(consoleProblems).toEqual([]);
  });

  it('shows the decline and stays on the checkout', async () => {
    await openCheckout(page, running.server.baseUrl);
    await fillBuyer(page);
    await fillCard(page, TEST_CARDS.declined);
    await submit(page);
    // Said twice: in the spec's 'Payment Failed' toast, and by the pay button until the next attempt.
    await page.getByText('Payment Failed').first().waitFor({ timeout: 15_000 });
    await page.getByRole('form').getByText('Your card was declined.').waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    await page.getByRole('button', { name: 'YES! I Want To Train My Team With AI' }).waitFor();
  });

  it('completes authentication and pays', async () => {
    await openCheckout(page, running.server.baseUrl);
    await fillBuyer(page);
    await fillCard(page, TEST_CARDS.requiresAuthentication);
    await submit(page);
    await page.getByRole('button', { name: 'Complete authentication' }).click({ timeout: 15_000 });
    await expectPaymentSuccessful(page, '$500', 1);
  });

  it('fails authentication and does not pay', async () => {
    await openCheckout(page, running.server.baseUrl);
    await fillBuyer(page);
    await fillCard(page, TEST_CARDS.requiresAuthentication);
    await submit(page);
    await page.getByRole('button', { name: 'Fail authentication' }).click({ timeout: 15_000 });
    await page.getByText('We are unable to authenticate your payment method.', { exact: false }).first().waitFor({ timeout: 15_000 });
    expect(new URL(page.url()).pathname).toBe('/');
  });

  it('shows the validation errors under the fields', async () => {
    await openCheckout(page, running.server.baseUrl);
    await page.getByLabel('Email Address').fill('not-an-email');
    await submit(page);
    await page.getByText('First name is required').waitFor();
    await page.getByText('Last name is required').waitFor();
    await page.getByText('Email is invalid').waitFor();
    await page.getByLabel('First Name').fill('Ada');
    await expect.poll(() => page.getByText('First name is required').count()).toBe(0);
    await page.getByLabel('Email Address').fill('');
    await submit(page);
    await page.getByText('Email is required').waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
  });

  it("'Get Started' scrolls to the form and focuses First Name 800 ms later (spec §2)", async () => {
    // The page's clock is Playwright's: the 800 ms are counted on it, not on a loaded machine's.
    await page.clock.install();
    await openCheckout(page, running.server.baseUrl);
    const firstNameFocused = () => page.evaluate(() => document.activeElement?.getAttribute('name') === 'firstName');
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);
    await page.getByRole('link', { name: 'Get Started' }).click();
    await page.clock.runFor(799);
    expect(await firstNameFocused()).toBe(false);
    await page.clock.runFor(1);
    expect(await firstNameFocused()).toBe(true);
    expect(consoleProblems).toEqual([]);
  });

  it('a refused submit puts the focus on the first field in error', async () => {
    await openCheckout(page, running.server.baseUrl);
    await page.getByLabel('First Name').fill('Ada');
    await page.getByLabel('Email Address').fill('not-an-email');
    await submit(page);
    await page.getByText('Last name is required').waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('lastName');
    await page.getByLabel('Last Name').fill('Palmer');
    await submit(page);
    await page.getByText('Email is invalid').waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('email');
    expect(consoleProblems).toEqual([]);
  });

  it('/index shows the redirect notice and lands on /', async () => {
    await page.goto(`${running.server.baseUrl}/index`);
    await page.waitForURL(`${running.server.baseUrl}/`);
    await page.getByText('Secure Checkout').first().waitFor();
  });

  it('an unknown path answers 404 and shows the 404 page, which logs the path', async () => {
    const response = await page.goto(`${running.server.baseUrl}/no/such/page`);
    expect(response?.status()).toBe(404);
    await page.getByText('Oops! Page not found').waitFor();
    await page.getByText('404', { exact: true }).waitFor();
    // The page arrives rendered; the path is logged once React has taken it over.
    await expect.poll(() => consoleProblems.some((line) => line.includes('/no/such/page'))).toBe(true);
    await page.getByRole('link', { name: 'Return to Home' }).click();
    await page.waitForURL(`${running.server.baseUrl}/`);
  });
});
