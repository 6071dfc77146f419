/**
 * Accessibility, checked by axe-core (WCAG 2.2 A and AA rules) in Debian's Chromium at phone size and at 1280 px: no
 * violation of any impact on the checkout, the checkout with its field errors, a declined payment's toast, the
 * authentication dialog, the payment-success page with its record, the console's sign-in, and the 404 page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, startServer, type RunningServer } from './harness';
import { axeViolations, axeViolationsAtWidths } from './axe';
import { expectPaymentSuccessful, fillBuyer, fillCard, openCheckout, submit, TEST_CARDS } from './checkoutFlow';

let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  // axe is injected as a script; the page's Content-Security-Policy (script-src 'self') would refuse it.
  context = await browser.newContext({ bypassCSP: true, viewport: { width: 375, height: 812 } });
  page = await context.newPage();
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
});

describe('accessibility at 375×812 (axe-core, WCAG 2.2 AA)', () => {
  it('the checkout, with field errors, with a decline, and the authentication dialog', async () => {
    await openCheckout(page, server.baseUrl);
    await page.getByLabel('Card number').waitFor({ timeout: 20_000 });
    expect(await axeViolationsAtWidths(page, 'checkout')).toEqual([]);

    await submit(page);
    await page.getByText('First name is required').waitFor();
    expect(await axeViolations(page), 'field errors').toEqual([]);

    await fillBuyer(page);
    await fillCard(page, TEST_CARDS.declined);
    await submit(page);
    await page.getByText('Your card was declined.').first().waitFor({ timeout: 15_000 });
    expect(await axeViolations(page), 'decline toast').toEqual([]);

    await fillCard(page, TEST_CARDS.requiresAuthentication);
    await submit(page);
    await page.getByRole('button', { name: 'Complete authentication' }).waitFor({ timeout: 15_000 });
    expect(await axeViolations(page), 'authentication dialog').toEqual([]);

    await page.getByRole('button', { name: 'Complete authentication' }).click();
    await expectPaymentSuccessful(page, '$500', 1);
    expect(await axeViolationsAtWidths(page, 'payment success')).toEqual([]);
  });

  it("the owner's console sign-in, with its error", async () => {
    await page.goto(`${server.baseUrl}/admin`);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await axeViolations(page), 'sign-in').toEqual([]);
    await page.getByLabel('Email').fill('nobody@example.com');
    await page.getByLabel('Password').fill('not a password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'Wrong email or password.' }).waitFor();
    expect(await axeViolations(page), 'sign-in error').toEqual([]);
  });

  it('the 404 page', async () => {
    await page.goto(`${server.baseUrl}/no/such/page`);
    await page.getByText('Oops! Page not found').waitFor();
    expect(await axeViolations(page)).toEqual([]);
  });

  it('keeps the keyboard on the seat control through an update', async () => {
    await openCheckout(page, server.baseUrl);
    await page.getByLabel('Card number').waitFor({ timeout: 20_000 });
    await page.evaluate(() => {
      const seen: string[] = [];
      (globalThis as unknown as { focusTrail: string[] }).focusTrail = seen;
      document.addEventListener('focusin', (event) =>
        seen.push((event.target as Element).getAttribute('aria-label') ?? (event.target as Element).tagName),
      );
    });
    await page.getByRole('button', { name: 'Increase seats' }).focus();
    await page.keyboard.press('Enter');
    await page.getByText('Team size updated to 2 members.').first().waitFor({ timeout: 15_000 });
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Increase seats');
    const trail = await page.evaluate(() => (globalThis as unknown as { focusTrail: string[] }).focusTrail);
    // The update locked '+': the focus waited on the count, never on the page, and came back.
    expect(trail).toEqual(['Increase seats', 'Seats', 'Increase seats']);
  });
});
