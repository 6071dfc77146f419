/**
 * The server owns an order's completion, seen from a real browser: the buyer pays with 4242 and the tab is
 * closed before the page could finalize (its finalize call is cut). The order is paid, with one account and one
 * charge, without the browser. On PostgreSQL, so the test can read the database while the server runs.
 */
import { describe, expect, it } from 'vitest';
import { fillBuyer, fillCard, openCheckout, submit, TEST_CARDS } from './checkoutFlow';
import { startServerOnPostgres, useServerAndBrowser } from './harness';

describe('a tab closed right after the charge', () => {
  const running = useServerAndBrowser(() => startServerOnPostgres());

  it('leaves a paid order with one account and one charge, completed by the server', async () => {
    const context = await running.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    let finalizeCalls = 0;
    await page.route('**/api/finalize-anon-subscription', (route) => {
      finalizeCalls += 1;
      return route.abort('connectionreset');
    });
    const charged = page.waitForResponse(
      (response) => response.url().endsWith('/api/sandbox/payment-intents/confirm') && response.status() === 200,
    );

    await openCheckout(page, running.server.baseUrl);
    await fillBuyer(page, { firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.com' });
    await fillCard(page, TEST_CARDS.succeeds);
    await submit(page);
    await charged;
    await context.close();

    const orders = await running.server.database.query<{ transaction_id: string; status: string; email: string; quantity: number }>(
      "select transaction_id, status, email, quantity from orders where email = 'grace@example.com'",
    );
    expect(orders.rows).toEqual([expect.objectContaining({ status: 'paid', quantity: 1 })]);
    const transactionId = orders.rows[0]!.transaction_id;
    const accounts = await running.server.database.query('select email, name from accounts where transaction_id = $1', [transactionId]);
    expect(accounts.rows).toEqual([{ email: 'grace@example.com', name: 'Grace Hopper' }]);
    const charges = await running.server.database.query(
      "select id from sandbox_subscriptions where transaction_id = $1 and status = 'active'",
      [transactionId],
    );
    expect(charges.rows).toHaveLength(1);
    expect(finalizeCalls).toBeLessThanOrEqual(1);
  });
});
