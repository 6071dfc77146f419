/**
 * After the purchase in a real browser, with a real SMTP server catching the mails
 * and a real HTTP server receiving the agreement site's webhooks: the confirmation mail's manage link → cancel in
 * one click → 'Cancelled at period end' and a mail → undo; above the seat limit refused at the field; seats 1 → 3
 * from the manage page; cancel and ask for the guarantee's refund → its receipt; axe finds no violation at 375 and
 * 1280 px; the 0341 card fails at renewal → past-due mail and webhook → card updated → active again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMailCatcher, type MailCatcher } from '../support/mailCatcher';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver';
import { expectPaymentSuccessful, fillBuyer, fillCard, openCheckout, submit, TEST_CARDS } from './checkoutFlow';
import { DEFAULT_MAX_SEATS, seatLimitNotice } from '../../src/domain/pricing';
import { axeViolations } from './axe';
import { launchBrowser, startServer, type RunningServer } from './harness';
import type { Browser, Page } from 'playwright-core';

const SECRET = 'whsec-e2e-0123456789abcdef0123456789abcdef';

describe('the manage page', () => {
  let mail: MailCatcher;
  let receiver: WebhookReceiver;
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    mail = await startMailCatcher();
    receiver = await startWebhookReceiver(SECRET);
    server = await startServer({
      SMTP_URL: mail.url,
      OUTBOX_INTERVAL_SECONDS: '1',
      SUCCESS_SITE_WEBHOOK_URL: receiver.url,
      SUCCESS_SITE_WEBHOOK_SECRET: SECRET,
      SANDBOX_CLOCK: '1',
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await mail?.close();
    await receiver?.close();
  });

  /** Buys one seat as `email` with `card` in a fresh browser; returns the page on the success screen. */
  async function buy(email: string, card: string): Promise<Page> {
    // axe is injected as a script, which the page's Content-Security-Policy would refuse.
    const page = await (await browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 900 } })).newPage();
    await openCheckout(page, server.baseUrl);
    await fillBuyer(page, { firstName: 'Ada', lastName: 'Palmer', email });
    await fillCard(page, card);
    await submit(page);
    await expectPaymentSuccessful(page, '$500', 1);
    return page;
  }

  const linkIn = (text: string, label: string) => new RegExp(`${label}: (\\S+)`).exec(text)?.[1];
  const status = (page: Page) => page.getByRole('table', { name: 'Subscription' }).getByRole('status');

  it('cancels in one click from the confirmation mail, with a mail, and undoes it; changes seats 1 → 3', async () => {
    const page = await buy('cancel.me@example.com', TEST_CARDS.succeeds);
    const confirmation = await mail.waitFor('cancel.me@example.com', /subscription is active/);
    expect(confirmation.text).toContain('Sign the training agreement: ');
    const manage = linkIn(confirmation.text, 'Manage your subscription')!;
    expect(manage).toMatch(/\/account\?token=/);

    await page.goto(manage.replace(/^http:\/\/localhost:\d+/, server.baseUrl));
    await page.getByRole('heading', { name: 'Your subscription' }).waitFor();
    expect(new URL(page.url()).search).toBe('');
    await expect.poll(() => status(page).textContent()).toBe('Active');

    await page.getByRole('button', { name: 'Cancel subscription' }).click();
    await page.getByRole('alertdialog', { name: 'Cancel your subscription?' }).waitFor();
    await page.getByRole('button', { name: 'Yes, cancel my subscription' }).click();
    await expect.poll(() => status(page).textContent()).toMatch(/^Cancelled at period end: ends on /);
    const cancelled = await mail.waitFor('cancel.me@example.com', /is cancelled/);
    expect(cancelled.text).toContain('You can undo the cancellation');
    await page.getByRole('button', { name: 'Undo cancellation' }).click();
    await expect.poll(() => status(page).textContent()).toBe('Active');

    // Above the seat limit the field says why and the button stays off; nothing is asked of the server.
    const seatsField = page.getByRole('spinbutton', { name: 'Seats' });
    await seatsField.fill(String(DEFAULT_MAX_SEATS + 1));
    await page
      .getByRole('alert')
      .filter({ hasText: seatLimitNotice(DEFAULT_MAX_SEATS) })
      .waitFor();
    expect(await seatsField.getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByRole('button', { name: 'Change seats' }).isDisabled()).toBe(true);
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 900 });
      expect(await axeViolations(page), `/account with the seat limit at ${width} px`).toEqual([]);
    }
    await page.setViewportSize({ width: 1280, height: 900 });

    await page.getByRole('spinbutton', { name: 'Seats' }).fill('3');
    await page.getByText('New monthly total: $1,000/month (now $500)').waitFor();
    await page.getByRole('button', { name: 'Change seats' }).click();
    // What the change costs now is shown first; nothing changes until the buyer confirms (decision 0045).
    await page
      .getByRole('group', { name: 'Confirm seat change' })
      .getByRole('button', { name: /^Pay \$[\d,.]+ and change seats$/ })
      .click();
    await page.getByRole('table', { name: 'Subscription' }).getByText('$1,000/month').waitFor();
    await mail.waitFor('cancel.me@example.com', /seats changed/);

    // Within the 30-day guarantee the refund is asked for in the cancel step, with the amount that would come back
    // (decision 0068); the buyer gets a receipt, and the page names the ask.
    await page.getByRole('button', { name: 'Cancel subscription' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Cancel your subscription?' });
    expect(await dialog.textContent()).toMatch(/within the 30-day money-back guarantee, until .*: you can have \$[\d,.]+ back/);
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      expect(await axeViolations(page), `the cancel step at ${width} px`).toEqual([]);
    }
    await dialog.getByRole('button', { name: /^Cancel and ask for my \$[\d,.]+ back$/ }).click();
    await page.getByText(/^You asked for your refund of \$[\d,.]+ on /).waitFor();
    await expect.poll(() => status(page).textContent()).toMatch(/^Cancelled at period end: ends on /);
    expect(await page.getByRole('button', { name: 'Undo cancellation' }).count()).toBe(0);
    const receipt = await mail.waitFor('cancel.me@example.com', /refund request/);
    expect(receipt.text).toContain('under the 30-day guarantee');
  });

  it('a card failing at renewal: past-due mail and webhook, the card updated from the mail, active again', async () => {
    await buy('late.payer@example.com', '4000 0000 0000 0341');
    await mail.waitFor('late.payer@example.com', /subscription is active/);
    const advanced = await fetch(`${server.baseUrl}/api/sandbox/clock/advance`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ days: 31 }),
    });
    expect(advanced.status).toBe(200);
    const pastDue = await mail.waitFor('late.payer@example.com', /payment failed/);
    await expect
      .poll(() => receiver.webhooks.filter((hook) => hook.type === 'subscription.past_due').length, { timeout: 15_000 })
      .toBeGreaterThanOrEqual(1);
    expect(receiver.webhooks.filter((hook) => hook.type === 'subscription.past_due').every((hook) => hook.verified)).toBe(true);

    const page = await (await browser.newContext({ viewport: { width: 375, height: 812 } })).newPage();
    await page.goto(linkIn(pastDue.text, 'Update your card')!.replace(/^http:\/\/localhost:\d+/, server.baseUrl));
    await expect.poll(() => status(page).textContent()).toMatch(/^Past due/);
    const form = page.getByRole('form', { name: 'Update card' });
    await form.getByLabel('Card number').fill('4242 4242 4242 4242');
    // Typed as digits, as the checkout's card form takes them: '12YY' reads '12 / YY'.
    const year = String((new Date().getFullYear() + 2) % 100).padStart(2, '0');
    await form.getByLabel('Expiration date').fill(`12${year}`);
    expect(await form.getByLabel('Expiration date').inputValue()).toBe(`12 / ${year}`);
    await form.getByLabel('Security code').fill('123');
    await form.getByRole('button', { name: 'Update card' }).click();
    await expect.poll(() => status(page).textContent()).toBe('Active');
    expect(await page.getByRole('table', { name: 'Subscription' }).textContent()).toContain('•••• 4242');
    await mail.waitFor('late.payer@example.com', /Receipt/);
  });
});
