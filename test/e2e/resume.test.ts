/**
 * A charged checkout survives the page, in Chromium against the real server (PostgreSQL, so the test can count
 * charges): the finalize call is cut after a 4242 payment, the page says the payment was received, a reload
 * finalizes the same order (one charge, the same credentials on every repeat); Back from the success page shows
 * this browser's purchase above the form.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectPaymentSuccessful, fillBuyer, fillCard, openCheckout, submit, TEST_CARDS } from './checkoutFlow';
import { startServerOnPostgres, useServerAndBrowser, watchConsole } from './harness';

describe('a charged checkout in a real browser', () => {
  const running = useServerAndBrowser(() => startServerOnPostgres());
  let context: BrowserContext;
  let page: Page;

  beforeEach(async () => {
    context = await running.browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
  });
  afterEach(async () => {
    await context.close();
  });

  /** Paid subscriptions (charges) and orders of `email`. */
  async function chargesOf(email: string) {
    const orders = await running.server.database.query<{ transaction_id: string; status: string }>(
      'select transaction_id, status from orders where email = $1',
      [email],
    );
    const charges = await running.server.database.query(
      "select s.id from sandbox_subscriptions s join orders o on o.transaction_id = s.transaction_id where o.email = $1 and s.status = 'active'",
      [email],
    );
    return { orders: orders.rows, charges: charges.rowCount };
  }

  it('finalize lost, then a reload: the order is finalized once, with the same credentials on every repeat', async () => {
    const problems = watchConsole(page);
    let cut = true;
    await page.route('**/api/finalize-anon-subscription', (route) => {
      if (!cut) return route.continue();
      cut = false;
      return route.abort('connectionreset');
    });
    await openCheckout(page, running.server.baseUrl);
    await fillBuyer(page, { firstName: 'Ada', lastName: 'Palmer', email: 'ada.resume@example.com' });
    await fillCard(page, TEST_CARDS.succeeds);
    await submit(page);

    await page.getByText('Payment received, completing your order…').waitFor({ timeout: 20_000 });
    expect(await page.getByText('Payment Failed').count()).toBe(0);
    expect(await page.getByLabel('Email Address').isDisabled()).toBe(true);

    // The buyer reloads (accepting the leave warning) instead of pressing 'Complete my order'.
    page.on('dialog', (dialog) => void dialog.accept());
    await page.reload();
    const record = await expectPaymentSuccessful(page, '$500', 1);

    const recent = JSON.parse((await page.evaluate(() => localStorage.getItem('recentPurchase'))) ?? 'null') as {
      transactionId: string;
      subscriptionId: string;
      customerId: string;
    };
    expect(await page.evaluate(() => localStorage.getItem('pendingPayment'))).toBeNull();
    const repeat = await page.evaluate(
      async (order) => {
        const response = await fetch('/api/finalize-anon-subscription', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ ...order, email: 'ada.resume@example.com', name: 'Ada Palmer' }),
        });
        return (await response.json()) as { token: string; loginDetails: { password: string } };
      },
      { transactionId: recent.transactionId, subscriptionId: recent.subscriptionId, customerId: recent.customerId },
    );
    expect(repeat.loginDetails.password).toBe(record.loginDetails.password);
    expect(repeat.token).toBe(record.token);

    expect(await chargesOf('ada.resume@example.com')).toEqual({
      orders: [{ transaction_id: recent.transactionId, status: 'paid' }],
      charges: 1,
    });
    expect(problems.filter((problem) => !problem.includes('Failed to load resource'))).toEqual([]);
  });

  it('Back from the success page shows the purchase above the form, with a link to it', async () => {
    await openCheckout(page, running.server.baseUrl);
    await fillBuyer(page, { firstName: 'Grace', lastName: 'Hopper', email: 'grace.back@example.com' });
    await fillCard(page, TEST_CARDS.succeeds);
    await submit(page);
    await expectPaymentSuccessful(page, '$500', 1);

    await page.goBack();
    const notice = page.getByRole('region', { name: 'Your recent order' });
    await notice.waitFor({ timeout: 15_000 });
    expect(await notice.textContent()).toContain('1 seat, $500/month, for grace.back@example.com.');
    await page.getByRole('link', { name: 'View your order and login details' }).click();
    await page.getByRole('heading', { name: 'Payment Successful!' }).waitFor();
    expect((await chargesOf('grace.back@example.com')).charges).toBe(1);
  });
});
