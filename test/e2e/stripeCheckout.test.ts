/**
 * The checkout in Stripe mode, as production runs it, in Chromium: the server on the stateful Stripe double
 * (STRIPE_API_BASE), the page's Payment Element and confirmation through the Stripe.js stand-in
 * (stripeStandIn.ts). The same buyer's steps and assertions as the sandbox journeys (checkoutFlow.ts). One
 * server and one browser for the file.
 */
import Stripe from 'stripe';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { startStatefulStripe } from '../server/helpers/statefulStripe';
import { stripeTestEnv, TEST_WEBHOOK_SECRET } from '../server/helpers/stripeEvents';
import { startMailCatcher } from '../support/mailCatcher';
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
  const mail = await startMailCatcher();
  const server = await startServer({
    ...stripeTestEnv(stripe.url),
    SMTP_URL: mail.url,
    OUTBOX_INTERVAL_SECONDS: '1',
    HANDOFF_API_KEY: HANDOFF_KEY,
    SUCCESS_SITE_URL: AGREEMENT_SITE,
    SUCCESS_SITE_LOCAL_URL: AGREEMENT_SITE,
  });
  return {
    ...server,
    stripe,
    mail,
    stop: async () => {
      await server.stop();
      await stripe.close();
      await mail.close();
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

  it('the manage page’s new card: Stripe’s portal takes it, and the server makes it the card charged next', async () => {
    const email = 'new.card@example.com';
    await openCheckout(page, running.server.baseUrl);
    await fillBuyer(page, { firstName: 'Ada', lastName: 'Palmer', email });
    await fillCard(page, TEST_CARDS.succeeds);
    await submit(page);
    await expectPaymentSuccessful(page, '$500', 1);
    const stripe = running.server.stripe;
    const paid = standIn.confirmedClientSecrets.at(-1)!;
    const stored = await page.evaluate(() => sessionStorage.getItem('paymentSuccess'));
    const { transactionId } = JSON.parse(stored ?? '{}') as { transactionId: string };
    const subscription = stripe.subscriptionsOf(transactionId).at(-1)!;
    expect(stripe.intentOf(subscription.id)?.client_secret).toBe(paid);

    // Stripe's Customer Portal, answered by the test: the buyer adds a card, Stripe sends its events, and returns them.
    await context.route('https://billing.stripe.com/**', async (route) => {
      const url = new URL(route.request().url());
      const session = stripe.portalSessions.find((each) => url.href.startsWith(String(each.url)))!;
      if (!url.searchParams.has('card')) {
        return route.fulfill({
          status: 200,
          contentType: 'text/html',
          body: `<!doctype html><title>Portal</title><h1>Update your payment method</h1><a href="${url.origin}${url.pathname}?card=added">Add card</a>`,
        });
      }
      const since = stripe.events.length;
      stripe.portalUpdateCard(String(session.customer), { name: 'Ada Palmer', email });
      for (const event of stripe.events.slice(since)) {
        const payload = JSON.stringify(event);
        const delivered = await fetch(`${running.server.baseUrl}/api/stripe/webhook`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret: TEST_WEBHOOK_SECRET }),
          },
          body: payload,
        });
        expect(delivered.status, await delivered.text()).toBe(200);
      }
      return route.fulfill({ status: 302, headers: { location: String(session.return_url) } });
    });

    const confirmation = await running.server.mail.waitFor(email, /subscription is active/);
    const manage = /Manage your subscription: (\S+)/.exec(confirmation.text)?.[1];
    expect(manage).toMatch(/\/account\?token=/);
    await page.goto(manage!.replace(/^https?:\/\/[^/]+/, running.server.baseUrl));
    await page.getByRole('heading', { name: 'Your subscription' }).waitFor();
    await page.getByRole('button', { name: 'Update card' }).click();
    await page.getByRole('heading', { name: 'Update your payment method' }).waitFor({ timeout: 15_000 });
    const session = stripe.portalSessions.at(-1)!;
    expect(session).toMatchObject({ customer: subscription.customer, flow_data: { type: 'payment_method_update' } });
    await page.getByRole('link', { name: 'Add card' }).click();
    await page.getByRole('heading', { name: 'Your subscription' }).waitFor({ timeout: 15_000 });
    expect(new URL(page.url()).pathname).toBe('/account');
    // The portal's card is the customer's default; the server clears the subscription's own (decision 0025).
    const customer = stripe.customer(subscription.customer)!;
    expect(customer.default_payment_method).not.toBeNull();
    await expect.poll(() => stripe.subscription(subscription.id)?.default_payment_method ?? null).toBeNull();
    expect(consoleProblems).toEqual([]);
  });
});
