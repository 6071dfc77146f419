/**
 * `/` arrives rendered (scripts/prerender.ts) and React takes over only its islands (docs/decisions/0027): without
 * JavaScript the page already shows the offer, the seat selector and 'Initializing secure checkout...'; with it,
 * the same elements stay (no second render), keep their styles' class names, the parts the buyer only reads are
 * never the renderer's, and the checkout goes on as usual. A browser with a payment to
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

/**
 * The scripts the page requested before its first contentful paint (Paint Timing): none, as the prerendered pages
 * load their entry module only once they are painted (scripts/prerender.ts `withEntryAfterFirstPaint`).
 */
function scriptsBeforeFirstPaint(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const paint = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.POSITIVE_INFINITY;
    return performance
      .getEntriesByType('resource')
      .filter((entry) => new URL(entry.name).pathname.endsWith('.js') && entry.startTime < paint)
      .map((entry) => new URL(entry.name).pathname);
  });
}

const SELECTORS = [
  'header',
  'h1',
  '[aria-labelledby="seat-selector-title"]',
  '[aria-labelledby="order-summary-title"]',
  '#checkout-form',
  '[data-island="heroQuote"] button',
  '[data-island="getStarted"] a',
  '[data-island="faq"] button',
];

/**
 * For each selector, whether a renderer owns its element (hydrated it): the element lies inside a root the
 * browser's renderer took over: React marks each root's container `__reactContainer$…`.
 */
function ownedByRenderer(page: Page, selectors: string[]): Promise<Record<string, boolean>> {
  return page.evaluate(
    (list) =>
      Object.fromEntries(
        list.map((selector) => {
          let owned = false;
          for (let node = document.querySelector(selector); node !== null && !owned; node = node.parentElement) {
            owned = Object.keys(node).some((key) => key.startsWith('__reactContainer'));
          }
          return [selector, owned];
        }),
      ),
    selectors,
  );
}

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
    expect(kept, 'the renderer took over the server’s elements instead of drawing new ones').toBe(true);
    expect(await scriptsBeforeFirstPaint(page)).toEqual([]);
    const clientClasses = await page.evaluate(
      (selectors) => selectors.map((selector) => document.querySelector(selector)?.className),
      SELECTORS,
    );
    expect(clientClasses).toEqual(serverClasses);
    // Islands only: what the buyer operates is the renderer's, what the buyer only reads stays the server's HTML.
    expect(
      await ownedByRenderer(page, [
        'header',
        'h1',
        '[aria-labelledby="included-title"]',
        '[aria-labelledby="testimonials-title"]',
        'footer',
        '[aria-labelledby="seat-selector-title"]',
        '[aria-labelledby="order-summary-title"]',
        '#checkout-form',
        '[data-island="heroQuote"] button',
        '[data-island="getStarted"] a',
        '[data-island="faq"] button',
      ]),
    ).toEqual({
      header: false,
      h1: false,
      '[aria-labelledby="included-title"]': false,
      '[aria-labelledby="testimonials-title"]': false,
      footer: false,
      '[aria-labelledby="seat-selector-title"]': true,
      '[aria-labelledby="order-summary-title"]': true,
      '#checkout-form': true,
      '[data-island="heroQuote"] button': true,
      '[data-island="getStarted"] a': true,
      '[data-island="faq"] button': true,
    });
    // The islands share the one checkout actor: a seat added in the selector is in the summary.
    await page.getByRole('button', { name: 'Increase seats' }).click();
    await page.locator('[aria-labelledby="order-summary-title"]').getByText('$0 (FREE)').waitFor();
    const question = page.locator('[data-island="faq"] button').first();
    await question.click();
    expect(await question.getAttribute('aria-expanded')).toBe('true');
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
    // Hydrated: the 404 page logs the missing path from its effect, which runs only once the renderer has taken over.
    await expect
      .poll(() => problems.some((line) => line.includes('404 Error: User attempted to access non-existent route: /no/such/page')))
      .toBe(true);
    expect(await isServerHeading(page)).toBe(true);
    expect(problems.filter((line) => !line.includes('404'))).toEqual([]);
    await page.getByRole('link', { name: 'Return to Home' }).click();
    await page.getByText('Initializing secure checkout...').or(page.getByLabel('Card number')).first().waitFor();
    await context.close();
  });

  it('the sign-in and join pages arrive rendered, request no script before their first paint, and are hydrated in place', async () => {
    const context = await running.browser.newContext();
    const page = await context.newPage();
    const problems = watchConsole(page);
    await keepServerHeading(page);
    await page.goto(`${running.server.baseUrl}/sign-in`);
    // Its code arrives after the paint and takes the page over: the heading is still the server's element.
    await page.getByRole('heading', { name: 'Sign in to your training' }).waitFor();
    await expect.poll(() => ownedByRenderer(page, ['h1'])).toEqual({ h1: true });
    expect(await scriptsBeforeFirstPaint(page)).toEqual([]);
    expect(await isServerHeading(page)).toBe(true);
    // Opened directly, no sign-in waits for it: said at once, in place of the form.
    await page.getByText(/^No sign-in is waiting on this page/).waitFor();

    // /join arrives with what its link stands for, filled in by the server, and is hydrated in place too.
    await page.goto(`${running.server.baseUrl}/join?token=unknown`);
    await page.getByRole('heading', { name: 'This invitation cannot be used' }).waitFor();
    await expect.poll(() => ownedByRenderer(page, ['h1'])).toEqual({ h1: true });
    expect(await page.getByRole('alert').textContent()).toMatch(/not valid/);
    expect(await scriptsBeforeFirstPaint(page)).toEqual([]);
    expect(await isServerHeading(page)).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  });
});
