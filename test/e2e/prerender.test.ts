/**
 * `/` arrives rendered (scripts/prerender.ts) and React takes that HTML over: without JavaScript the page already
 * shows the offer, the seat selector and 'Initializing secure checkout...'; with it, the same elements stay (no
 * second render), keep their styles' class names, and the checkout goes on as usual. A browser with a payment to
 * resume draws the page afresh instead, without a hydration error.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useServerAndBrowser, watchConsole } from './harness';
import { openCheckout } from './checkoutFlow';

const running = useServerAndBrowser();

/** Before the page's scripts run, keeps hold of the heading element the server sent. */
async function keepServerHeading(page: Page): Promise<void> {
  await page.addInitScript(() => {
    document.addEventListener('readystatechange', () => {
      if (document.readyState === 'interactive')
        (window as unknown as { prerendered: Element | null }).prerendered = document.querySelector('h1');
    });
  });
}

/** True when the page's heading is still the element the server sent: React took it over instead of redrawing. */
function isServerHeading(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const prerendered = (window as unknown as { prerendered: Element | null }).prerendered;
    return prerendered !== null && prerendered === document.querySelector('h1');
  });
}

const SELECTORS = ['header', 'h1', '[aria-labelledby="seat-selector-title"]', '[aria-labelledby="order-summary-title"]'];

describe('the prerendered checkout', () => {
  it('shows the page without JavaScript, and hydrates it in place with the same classes', async () => {
    const noScript = await running.browser.newContext({ javaScriptEnabled: false });
    const still = await noScript.newPage();
    const response = await still.goto(running.server.baseUrl);
    expect(response?.headers()['content-type']).toMatch(/text\/html/);
    await still.getByText('Initializing secure checkout...').waitFor();
    await still.getByRole('heading', { name: 'Select Your Team Size' }).waitFor();
    const serverClasses = await still.evaluate(
      (selectors) => selectors.map((selector) => document.querySelector(selector)?.className),
      SELECTORS,
    );
    await noScript.close();

    const context = await running.browser.newContext();
    const page = await context.newPage();
    const problems = watchConsole(page);
    await keepServerHeading(page);
    await openCheckout(page, running.server.baseUrl);
    await page.getByLabel('Card number').waitFor({ timeout: 20_000 });
    const kept = await isServerHeading(page);
    expect(kept, 'React took over the server’s elements instead of drawing new ones').toBe(true);
    const clientClasses = await page.evaluate(
      (selectors) => selectors.map((selector) => document.querySelector(selector)?.className),
      SELECTORS,
    );
    expect(clientClasses).toEqual(serverClasses);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('draws the page afresh for a browser with a payment to resume, without a hydration error', async () => {
    const context = await running.browser.newContext();
    const page = await context.newPage();
    const problems = watchConsole(page);
    await page.addInitScript(() => {
      window.localStorage.setItem(
        'pendingPayment',
        JSON.stringify({
          transactionId: 'txn_x',
          subscriptionId: 'sub_x',
          customerId: 'cus_x',
          seats: 1,
          totalAmount: 500,
          name: 'Ada Palmer',
          email: 'ada@example.com',
          savedAt: Date.now(),
        }),
      );
    });
    await page.goto(running.server.baseUrl);
    // Unknown to the server: the record is dropped and a fresh checkout opens.
    await page.getByLabel('Card number').waitFor({ timeout: 20_000 });
    expect(problems.filter((line) => !/\b40[24]\b/.test(line))).toEqual([]);
    await context.close();
  });

  it('the 404 page and the success page’s loading state also arrive rendered; the 404 page is hydrated in place', async () => {
    const noScript = await running.browser.newContext({ javaScriptEnabled: false });
    const still = await noScript.newPage();
    const missing = await still.goto(`${running.server.baseUrl}/no/such/page`);
    expect(missing?.status()).toBe(404);
    await still.getByText('Oops! Page not found').waitFor();
    const success = await still.goto(`${running.server.baseUrl}/payment-success`);
    expect(success?.status()).toBe(200);
    await still.getByText('Loading payment details...').waitFor();
    await noScript.close();

    const context = await running.browser.newContext();
    const page = await context.newPage();
    const problems = watchConsole(page);
    await keepServerHeading(page);
    await page.goto(`${running.server.baseUrl}/no/such/page`);
    // Hydrated: the 404 page logs the missing path from its effect, which runs only once React has taken over.
    await expect
      .poll(() => problems.some((line) => line.includes('404 Error: User attempted to access non-existent route: /no/such/page')))
      .toBe(true);
    expect(await isServerHeading(page)).toBe(true);
    expect(problems.filter((line) => !line.includes('404'))).toEqual([]);
    await page.getByRole('link', { name: 'Return to Home' }).click();
    await page.getByText('Initializing secure checkout...').or(page.getByLabel('Card number')).first().waitFor();
    await context.close();
  });
});
