/**
 * The hints in Chromium on the prerendered `/` (spec §9 tooltips, WAI-ARIA tooltip pattern; decision 0050): a seat
 * button's hint opens when the pointer rests on it and closes on Escape, a security badge's (an island of its own)
 * on keyboard focus; the page stays free of axe's violations with a hint open. The 700 ms and 300 ms are
 * tested under a simulated clock (test/unit/tooltipMachine.test.ts, test/model/tooltip.model.test.tsx).
 */
import { describe, expect, it } from 'vitest';
import { axeViolations } from './axe';
import { openCheckout } from './checkoutFlow';
import { useServerAndBrowser, watchConsole } from './harness';

const running = useServerAndBrowser();

describe('hints on the checkout', () => {
  it('open on hover and on keyboard focus, close on Escape, and pass axe', async () => {
    // axe is injected as a script; the page's Content-Security-Policy (script-src 'self') would refuse it.
    const context = await running.browser.newContext({ bypassCSP: true });
    const page = await context.newPage();
    const problems = watchConsole(page);
    await openCheckout(page, running.server.baseUrl);

    const plus = page.getByRole('button', { name: 'Increase seats' });
    const plusHint = page.locator(`#${await plus.getAttribute('aria-describedby')}`);
    await plus.hover();
    await plusHint.waitFor({ state: 'visible' });
    expect(await plusHint.getAttribute('role')).toBe('tooltip');
    expect(await plusHint.textContent()).toBe('Add a seat: your second seat is free');
    expect(await axeViolations(page), 'a hint open').toEqual([]);
    await page.keyboard.press('Escape');
    await plusHint.waitFor({ state: 'hidden' });

    const badge = page.getByText('PCI Compliant');
    const badgeHint = page.locator(`#${await badge.getAttribute('aria-describedby')}`);
    await badge.focus();
    await badgeHint.waitFor({ state: 'visible' });
    expect(await badgeHint.textContent()).toMatch(/PCI DSS/);
    await page.keyboard.press('Escape');
    await badgeHint.waitFor({ state: 'hidden' });

    expect(problems).toEqual([]);
    await context.close();
  });
});
