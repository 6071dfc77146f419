/**
 * The training platform's sign-in in a real browser: buy with 4242 → the success page's password → the
 * stand-in platform's "Sign in" (scripts/support/standInPlatform.ts, openid-client) → our /sign-in (a wrong
 * password first, refused under the form) → back on the platform with the buyer's verified claims. Opened directly,
 * the page says at once that no sign-in waits; it and the page with its refusal have no axe-core violation (WCAG 2.2
 * AA) at 375 and 1280 px.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startStandInPlatform } from '../../scripts/support/standInPlatform';
import { freePort } from '../support/freePort';
import { expectPaymentSuccessful, fillBuyer, fillCard, openCheckout, submit, TEST_CARDS } from './checkoutFlow';
import { axeViolations } from './axe';
import { launchBrowser, startServer, watchConsole, type RunningServer } from './harness';

const CLIENT = { clientId: 'training-platform', clientSecret: 'e2e-platform-secret-0123456789abcdef0123' };

describe('signing in to the training platform', () => {
  let server: RunningServer;
  let platform: Awaited<ReturnType<typeof startStandInPlatform>>;
  let browser: Browser;

  beforeAll(async () => {
    const [port, platformPort] = [await freePort(), await freePort()];
    server = await startServer({
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      OIDC_CLIENT_ID: CLIENT.clientId,
      OIDC_CLIENT_SECRET: CLIENT.clientSecret,
      OIDC_REDIRECT_URIS: `http://localhost:${platformPort}/callback`,
    });
    platform = await startStandInPlatform({ issuer: server.baseUrl, port: platformPort, ...CLIENT });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await platform?.close();
    await server?.stop();
  });

  it('buys, then signs in to the platform with the success page’s password and comes back with the buyer’s claims', async () => {
    const page = await browser.newPage();
    const errors = watchConsole(page);
    await openCheckout(page, server.baseUrl);
    await fillBuyer(page);
    await fillCard(page, TEST_CARDS.succeeds);
    await submit(page);
    const { loginDetails } = await expectPaymentSuccessful(page, '$500', 1);

    await page.goto(platform.url);
    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Sign in to your training' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/sign-in');

    await page.getByLabel('Email').fill(loginDetails.email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'The email or password is not right.' }).waitFor();

    await page.getByLabel('Password').fill(loginDetails.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Signed in' }).waitFor({ timeout: 20_000 });
    const claims = JSON.parse((await page.locator('#claims').textContent()) ?? '{}') as Record<string, unknown>;
    expect(claims).toMatchObject({ email: loginDetails.email, name: 'Ada Palmer', seat: 1, role: 'buyer', status: 'active' });
    // The wrong password's 401 is the only failed request the console reports.
    expect(errors.filter((error) => !error.includes('401'))).toEqual([]);
  });

  it('opened directly says at once that no sign-in waits, with the way in; both it and a refusal are accessible at 375 and 1280 px', async () => {
    // axe is injected as a script, which the page's Content-Security-Policy would refuse.
    const context = await browser.newContext({ bypassCSP: true, viewport: { width: 375, height: 812 } });
    try {
      const page = await context.newPage();
      const errors = watchConsole(page);
      await page.goto(`${server.baseUrl}/sign-in`);
      await page.getByText(/^No sign-in is waiting on this page/).waitFor();
      expect(await page.getByLabel('Password').count()).toBe(0);
      for (const width of [375, 1280]) {
        await page.setViewportSize({ width, height: 812 });
        expect(await axeViolations(page), `nothing to finish at ${width} px`).toEqual([]);
      }

      await page.goto(platform.url);
      await page.getByRole('link', { name: 'Sign in' }).click();
      await page.getByLabel('Email').fill('nobody@example.com');
      await page.getByLabel('Password').fill('not a password');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('alert').waitFor();
      for (const width of [1280, 375]) {
        await page.setViewportSize({ width, height: 812 });
        expect(await axeViolations(page), `refusal at ${width} px`).toEqual([]);
      }
      expect(errors.filter((error) => !error.includes('401'))).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
