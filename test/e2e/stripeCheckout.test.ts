/**
 * The checkout in Stripe mode, as production runs it, in Chromium: the server on the stateful Stripe double
 * (STRIPE_API_BASE), the page's Payment Element and confirmation through the Stripe.js stand-in
 * (stripeStandIn.ts). The same buyer's steps and assertions as the sandbox journeys (checkoutFlow.ts). One
 * server and one browser for the file.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { startStatefulStripe } from '../server/helpers/statefulStripe';
import { stripeTestEnv } from '../server/helpers/stripeEvents';
import {
  expectCardAskedAgain,
  expectPaymentSuccessful,
  fillBuyer,
  fillCard,
  openCheckout,
  submit,
  SUBMIT_LABEL,
  TEST_CARDS,
} from './checkoutFlow';
import { startServer, useServerAndBrowser, watchConsole } from './harness';
import { routeStripe, type StripeStandIn } from './stripeStandIn';

const HANDOFF_KEY = 'e2e-handoff-key-0123456789abcdef0123456789';
/** The agreement site, answered by the test: it redeems the hand-off token as the real one does. */
const AGREEMENT_SITE = 'https://agreement.test';

const running = useServerAndBrowser(async () => {
  const stripe = await startStatefulStripe();
  const server = await startServer({
    ...stripeTestEnv(stripe.url),
    HANDOFF_API_KEY: HANDOFF_KEY,
    SUCCESS_SITE_URL: AGREEMENT_SITE,
    SUCCESS_SITE_LOCAL_URL: AGREEMENT_SITE,
  });
  return {
    ...server,
    stripe,
    stop: async () => {
      await server.stop();
      await stripe.close();
    },
  };
});

let context: BrowserContext;
let page: Page;
let standIn: StripeStandIn;
let consoleProblems: string[];

beforeEach(async () => {
  context = await running.browser.newContext({ viewport: { width: 1280, height: 900 } });
  standIn = await routeStripe(context, running.server.stripe);
  await context.route(`${AGREEMENT_SITE}/**`, async (route) => {
    const token = new URL(route.request().url()).searchParams.get('token') ?? '';
    const answer = await fetch(`${running.server.baseUrl}/api/handoff/redeem`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${HANDOFF_KEY}` },
      body: JSON.stringify({ token }),
    });
    const person = (await answer.json()) as { email?: string };
    await route.fulfill({
      status: answer.ok ? 200 : 410,
      contentType: 'text/html',
      body: answer.ok ? `<h1>Agreement for ${person.email}</h1>` : '<h1>Token refused</h1>',
    });
  });
  page = await context.newPage();
  consoleProblems = watchConsole(page);
});
afterEach(async () => {
  await context.close();
});

/** The client secrets the page created the Payment Element for, in order. */
const elementsClientSecrets = () =>
  page.evaluate(
    () => (window as unknown as { __stripeStandIn: { elementsClientSecrets: string[] } }).__stripeStandIn.elementsClientSecrets,
  );

describe('checkout in Stripe mode in a real browser', () => {
  it('pays one seat with 4242, shows the credentials and hands off to the agreement site', async () => {
    await openCheckout(page, running.server.baseUrl);
    await fillBuyer(page);
    await fillCard(page, TEST_CARDS.succeeds);
    const secrets = await elementsClientSecrets();
    await submit(page);
    const record = await expectPaymentSuccessful(page, '$500', 1);
    expect(standIn.confirmedClientSecrets).toEqual([secrets.at(-1)]);
    await page.getByRole('button', { name: 'Sign Training Agreement →' }).click();
    await page.getByRole('heading', { name: `Agreement for ${record.loginDetails.email}` }).waitFor({ timeout: 15_000 });
    expect(consoleProblems).toEqual([]);
  });

  it('a seat change re-creates the Payment Element, asks for the typed card again, and confirms the new client secret', async () => {
    await openCheckout(page, running.server.baseUrl);
    const [first] = await elementsClientSecrets();
    await fillBuyer(page);
    await fillCard(page, TEST_CARDS.succeeds);
    await expectCardAskedAgain(page, 3, TEST_CARDS.succeeds);
    const secrets = await elementsClientSecrets();
    const last = secrets.at(-1)!;
    expect(last).not.toBe(first);
    await submit(page);
    await expectPaymentSuccessful(page, '$1,000', 3);
    expect(standIn.confirmedClientSecrets).toEqual([last]);
    expect(consoleProblems).toEqual([]);
  });

  it('shows the decline and stays on the checkout', async () => {
    await openCheckout(page, running.server.baseUrl);
    await fillBuyer(page);
    await fillCard(page, TEST_CARDS.declined);
    await submit(page);
    await page.getByText('Payment Failed').first().waitFor({ timeout: 15_000 });
    await page.getByRole('form').getByText('Your card was declined.').waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    await page.getByRole('button', { name: SUBMIT_LABEL }).waitFor();
  });

  it('completes 3-D Secure by the redirect and returns to /payment-success with the PaymentIntent', async () => {
    await openCheckout(page, running.server.baseUrl);
    await fillBuyer(page);
    await fillCard(page, TEST_CARDS.requiresAuthentication);
    await submit(page);
    await page.getByRole('link', { name: 'Complete authentication' }).click({ timeout: 15_000 });
    await page.waitForURL(/\/payment-success\?/, { timeout: 15_000 });
    const back = new URL(page.url());
    const clientSecret = standIn.confirmedClientSecrets.at(-1)!;
    expect(back.searchParams.get('payment_intent')).toBe(clientSecret.split('_secret_')[0]);
    expect(back.searchParams.get('payment_intent_client_secret')).toBe(clientSecret);
    await expectPaymentSuccessful(page, '$500', 1);
  });
});
