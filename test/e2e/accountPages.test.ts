/**
 * The pages after the purchase in a real browser, lean: one server, one purchase. At 1280×900 the
 * success page says what happens next and its heading has the focus; the confirmation mail's link opens /account,
 * where a seat change is confirmed and new credentials are asked for once more before the password changes. At
 * 375×812 no word on the success page or /account breaks in the middle, back at the checkout the same email is
 * told it already has a subscription, and a visit to /account without a session logs nothing. axe finds no violation on either page; the console stays clean throughout.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMailCatcher, type MailCatcher } from '../support/mailCatcher';
import { expectPaymentSuccessful, fillBuyer, fillCard, openCheckout, submit, TEST_CARDS } from './checkoutFlow';
import { launchBrowser, startServer, watchConsole, type RunningServer } from './harness';
import { axeViolations } from './axe';
import type { Browser } from 'playwright-core';

/** Long enough to need a wrap at 375 px. */
const EMAIL = 'dr.ada.palmer-lovelace@northside-chiropractic-clinic.example.com';

let mail: MailCatcher;
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  mail = await startMailCatcher();
  server = await startServer({ SMTP_URL: mail.url, OUTBOX_INTERVAL_SECONDS: '1' });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await mail?.close();
});

/** Words (runs without spaces within one text node) that the layout splits over two lines. */
function wordsBrokenMidWord(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const broken: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      for (const match of text.matchAll(/\S+/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const tops = new Set([...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top)));
        if (tops.size > 1) broken.push(match[0]);
      }
    }
    return broken;
  });
}

const focusedText = (page: Page) => page.evaluate(() => `${document.activeElement?.tagName} ${document.activeElement?.textContent ?? ''}`);

describe('the success page and /account', () => {
  it('what happens next, the heading focused, a confirmed seat change, credentials asked first; no mid-word breaks at 375 px', async () => {
    // axe is injected as a script; the page's Content-Security-Policy (script-src 'self') would refuse it.
    const context = await browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl });
    const page = await context.newPage();
    const problems = watchConsole(page);

    await openCheckout(page, server.baseUrl);
    await fillBuyer(page, { firstName: 'Ada', lastName: 'Palmer', email: EMAIL });
    await fillCard(page, TEST_CARDS.succeeds);
    await submit(page);
    await expectPaymentSuccessful(page, '$500', 1);
    // Arriving, the heading has the focus (a screen reader announces the page), not BODY.
    await expect.poll(() => focusedText(page)).toBe('H1 Payment Successful!');
    const next = page.getByRole('region', { name: 'What happens next' });
    expect(await next.textContent()).toContain(`A confirmation with your order is on its way to ${EMAIL}`);
    expect(await next.getByRole('link', { name: `${server.baseUrl}/account` }).getAttribute('href')).toBe('/account');
    expect(await page.getByRole('banner').getByText('Chiro AI Academy').count()).toBe(1);
    expect(await axeViolations(page), 'success page').toEqual([]);

    await page.setViewportSize({ width: 375, height: 812 });
    expect(await wordsBrokenMidWord(page), 'success page at 375 px').toEqual([]);
    await page.setViewportSize({ width: 1280, height: 900 });

    // The confirmation mail's manage link opens /account.
    const confirmation = await mail.waitFor(EMAIL, /subscription is active/);
    const manage = /Manage your subscription: (\S+)/.exec(confirmation.text)?.[1];
    expect(manage).toMatch(/\/account\?token=/);
    await page.goto(manage!.replace(/^http:\/\/localhost:\d+/, server.baseUrl));
    await page.getByRole('heading', { name: 'Your subscription' }).waitFor();
    await expect.poll(() => focusedText(page)).toBe('H1 Your subscription');
    expect(await page.getByRole('table', { name: 'Subscription' }).getByRole('status').textContent()).toBe('Active');

    await page.getByRole('spinbutton', { name: 'Seats' }).fill('3');
    await page.getByRole('button', { name: 'Change seats' }).click();
    // What the change costs now is shown first; nothing changes until the buyer confirms (decision 0045).
    await page
      .getByRole('group', { name: 'Confirm seat change' })
      .getByRole('button', { name: /^Pay \$[\d,.]+ and change seats$/ })
      .click();
    await page.getByText('Your subscription now has 3 seats: $1,000/month.').waitFor();
    expect(await page.getByText('Your subscription now has 3 seats: $1,000/month.').getAttribute('role')).toBe('status');

    // New credentials: asked once more first; keeping the password changes nothing.
    await page.getByRole('button', { name: 'Get new login credentials' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Replace your password?' });
    await dialog.waitFor();
    expect(await axeViolations(page), '/account with the confirm step').toEqual([]);
    await dialog.getByRole('button', { name: 'Keep my password' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Get new login credentials' }).click();
    await page.getByRole('button', { name: 'Yes, replace my password' }).click();
    await page.getByText('Save these now: the password is shown only once.').waitFor();
    await page.getByRole('button', { name: 'Copy password' }).click();
    await page.getByText('Password copied to clipboard.').waitFor();
    expect(await axeViolations(page), '/account with new credentials').toEqual([]);

    await page.setViewportSize({ width: 375, height: 812 });
    expect(await wordsBrokenMidWord(page), '/account at 375 px').toEqual([]);

    // Back at the checkout, the same email is told where its subscription is (decision 0031).
    await openCheckout(page, server.baseUrl);
    await page.getByLabel('Email Address').fill(EMAIL);
    const notice = page.getByText('You already have a subscription:');
    await notice.waitFor({ timeout: 10_000 });
    expect(await notice.getByRole('link', { name: 'manage it' }).getAttribute('href')).toBe('/account');
    expect(problems, 'console errors').toEqual([]);
    await context.close();
  });

  it('/account without a session at 375 px: asks for a link, with no console error', async () => {
    const context = await browser.newContext({ bypassCSP: true, viewport: { width: 375, height: 812 } });
    const page = await context.newPage();
    const problems = watchConsole(page);
    await page.goto(`${server.baseUrl}/account`);
    await page.getByRole('form', { name: 'Email me a link' }).waitFor();
    await expect.poll(() => focusedText(page)).toBe('H1 Manage your subscription');
    expect(await axeViolations(page), '/account signed out').toEqual([]);
    expect(await wordsBrokenMidWord(page)).toEqual([]);
    expect(problems, 'console errors').toEqual([]);
    await context.close();
  });
});
