/**
 * The checkout's layout in Debian's Chromium: on a phone (375×812) one column in buying order (seat selector,
 * order summary, payment form, then What's Included) with the form near the top; on a wide screen the spec's
 * two columns (seat selector, What's Included, order summary | the payment form).
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useServerAndBrowser } from './harness';
import { openCheckout } from './checkoutFlow';

const running = useServerAndBrowser();

/** Page coordinates (px from the top of the document, and from the left) of each section. */
async function boxes(page: Page) {
  return page.evaluate(() => {
    const at = (selector: string) => {
      const box = document.querySelector(selector)!.getBoundingClientRect();
      return { top: Math.round(box.top + window.scrollY), left: Math.round(box.left) };
    };
    return {
      seats: at('[aria-labelledby="seat-selector-title"]'),
      included: at('[aria-labelledby="included-title"]'),
      summary: at('[aria-labelledby="order-summary-title"]'),
      payment: at('#checkout-form'),
    };
  });
}

describe('checkout layout', () => {
  it('on a phone: seat selector, order summary, payment form, then What’s Included; the form within two screens', async () => {
    const page = await running.browser.newPage({ viewport: { width: 375, height: 812 } });
    await openCheckout(page, running.server.baseUrl);
    await page.getByLabel('Card number').waitFor({ timeout: 20_000 });
    const { seats, summary, payment, included } = await boxes(page);
    expect(seats.top).toBeLessThan(summary.top);
    expect(summary.top).toBeLessThan(payment.top);
    expect(payment.top).toBeLessThan(included.top);
    expect(payment.top).toBeLessThan(2 * 812);
    await page.close();
  });

  it('on a wide screen: the spec’s columns', async () => {
    const page = await running.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await openCheckout(page, running.server.baseUrl);
    await page.getByLabel('Card number').waitFor({ timeout: 20_000 });
    const { seats, summary, payment, included } = await boxes(page);
    expect(seats.top).toBeLessThan(included.top);
    expect(included.top).toBeLessThan(summary.top);
    expect(payment.left).toBeGreaterThan(seats.left + 300);
    expect(payment.top).toBeLessThan(included.top);
    await page.close();
  });
});
