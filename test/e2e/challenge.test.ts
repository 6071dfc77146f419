/**
 * Card testing contained, as a buyer behind a flagged address sees it: once the address has had its refusals,
 * the next payment needs proof of work, which the card form solves in Chromium by itself and pays.
 */
import { describe, expect, it } from 'vitest';
import { startServer, useServerAndBrowser, watchConsole } from './harness';
import { expectPaymentSuccessful, fillBuyer, fillCard, openCheckout, submit, TEST_CARDS } from './checkoutFlow';

const running = useServerAndBrowser(() => startServer({ DECLINES_BEFORE_CHALLENGE: '1' }));

describe('a payment after a refusal from the same address', () => {
  it('is checked by a challenge the page solves without a click, then paid', async () => {
    const context = await running.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const problems = watchConsole(page);
    const confirmations: number[] = [];
    page.on('response', (response) => {
      if (response.url().endsWith('/api/sandbox/payment-intents/confirm')) confirmations.push(response.status());
    });
    try {
      await openCheckout(page, running.server.baseUrl);
      await fillBuyer(page);
      await fillCard(page, TEST_CARDS.declined);
      await submit(page);
      await page.getByText('Your card was declined.').first().waitFor({ timeout: 15_000 });

      await fillCard(page, TEST_CARDS.succeeds);
      await submit(page);
      await expectPaymentSuccessful(page, '$500', 1);
      expect(confirmations).toEqual([402, 428, 200]);
      expect(problems.filter((line) => !/\b(402|428)\b/.test(line))).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
