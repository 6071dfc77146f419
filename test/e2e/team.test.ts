/**
 * The buyer's team in a real browser, with a real SMTP server catching the invitations, a real HTTP
 * server receiving the signed webhooks, and a stand-in agreement site that redeems each hand-off token with
 * POST /api/handoff/redeem: buy 3 seats with 4242 → invite two colleagues from the success page → each accepts
 * from their mail in a browser context of their own and sees their login → each hands off, and so does the buyer:
 * three different people redeemed → the buyer revokes one on /account → `seat.revoked` arrives, signed. The
 * members sign in to the training platform; one forgets the password and chooses a new one from the mailed link.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startStandInPlatform } from '../../scripts/support/standInPlatform';
import { webhookSignature } from '../../server/security/webhookSignature';
import { freePort } from '../support/freePort';
import { startMailCatcher, type MailCatcher } from '../support/mailCatcher';
import { axeViolationsAtWidths } from './axe';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver';
import { chooseSeats, expectPaymentSuccessful, fillBuyer, fillCard, openCheckout, submit, TEST_CARDS } from './checkoutFlow';
import { launchBrowser, startServer, type RunningServer } from './harness';

const SECRET = 'whsec-e2e-0123456789abcdef0123456789abcdef';
const HANDOFF_KEY = 'e2e-handoff-key-0123456789abcdef0123456789';
const CY_NEW_PASSWORD = 'a quiet river under seven bridges';
const PLATFORM = { clientId: 'training-platform', clientSecret: 'e2e-platform-secret-0123456789abcdef0123' };

interface Person {
  transactionId: string;
  email: string;
  name: string;
  role: string;
  seatNumber: number;
}

describe('the buyer’s team', () => {
  let mail: MailCatcher;
  let receiver: WebhookReceiver;
  let server: RunningServer;
  let browser: Browser;
  let agreementSite: Server;
  let platform: Awaited<ReturnType<typeof startStandInPlatform>>;
  const redeemed: Person[] = [];

  beforeAll(async () => {
    mail = await startMailCatcher();
    receiver = await startWebhookReceiver(SECRET);
    // The agreement site: trades the token in its address for the person, as the real one would.
    const agreementPort = await freePort();
    agreementSite = createServer((request, response) => {
      // Its "I agree" reports the signature to us, signed with the webhooks' secret (decision 0063).
      if (request.method === 'POST') {
        let text = '';
        request.on('data', (chunk: Buffer) => (text += chunk.toString()));
        request.on('end', () => {
          const form = new URLSearchParams(text);
          const body = JSON.stringify({ transactionId: form.get('transactionId'), email: form.get('email') });
          void fetch(`${server.baseUrl}/api/agreement/signed`, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              'checkout-signature': webhookSignature(SECRET, Math.floor(Date.now() / 1000), body),
            },
            body,
          }).then((answer) => {
            response.writeHead(answer.ok ? 200 : 500, { 'content-type': 'text/html' });
            response.end(answer.ok ? '<h1>Agreement signed</h1>' : '<h1>Not recorded</h1>');
          });
        });
        return;
      }
      const token = new URL(request.url ?? '/', 'http://agreement').searchParams.get('token');
      if (!token) return void response.writeHead(404).end();
      void fetch(`${server.baseUrl}/api/handoff/redeem`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${HANDOFF_KEY}` },
        body: JSON.stringify({ token }),
      }).then(async (answer) => {
        const person = (await answer.json()) as Person;
        if (answer.ok) redeemed.push(person);
        response.writeHead(answer.ok ? 200 : 410, { 'content-type': 'text/html' });
        response.end(
          answer.ok
            ? `<h1>Agreement for ${person.email}</h1><form method="post" action="/"><input type="hidden" name="transactionId" value="${person.transactionId}"><input type="hidden" name="email" value="${person.email}"><button>I agree</button></form>`
            : '<h1>Token refused</h1>',
        );
      });
    });
    await new Promise<void>((resolve) => agreementSite.listen(agreementPort, '127.0.0.1', resolve));
    // The training platform signs the team in through this product: its stand-in, openid-client.
    const [port, platformPort] = [await freePort(), await freePort()];
    server = await startServer({
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      OIDC_CLIENT_ID: PLATFORM.clientId,
      OIDC_CLIENT_SECRET: PLATFORM.clientSecret,
      OIDC_REDIRECT_URIS: `http://localhost:${platformPort}/callback`,
      SMTP_URL: mail.url,
      OUTBOX_INTERVAL_SECONDS: '1',
      SUCCESS_SITE_WEBHOOK_URL: receiver.url,
      SUCCESS_SITE_WEBHOOK_SECRET: SECRET,
      SUCCESS_SITE_LOCAL_URL: `http://127.0.0.1:${agreementPort}`,
      HANDOFF_API_KEY: HANDOFF_KEY,
      // The stand-in platform's address that starts its sign-in.
      TRAINING_PLATFORM_URL: `http://localhost:${platformPort}/login`,
    });
    platform = await startStandInPlatform({ issuer: server.baseUrl, port: platformPort, ...PLATFORM });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await platform?.close();
    await server?.stop();
    await mail?.close();
    await receiver?.close();
    await new Promise((resolve) => agreementSite?.close(resolve));
  });

  const onThisServer = (link: string) => link.replace(/^http:\/\/(localhost|127\.0\.0\.1):\d+/, server.baseUrl);

  /** Signs `email` in to the stand-in platform through our /sign-in in a browser of its own; the platform's page after it. */
  async function signInToPlatform(email: string, password: string): Promise<Page> {
    const page = await newPage();
    await page.goto(platform.url);
    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Sign in to your training' }).waitFor();
    // The prerendered form answers once hydrated (before, a submit would be the browser's own GET).
    await page.waitForLoadState('networkidle');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    return page;
  }
  const linkIn = (text: string, label: string) => new RegExp(`${label}: (\\S+)`).exec(text)?.[1];
  // axe is injected as a script, which the pages' Content-Security-Policy would refuse.
  const newPage = async (): Promise<Page> =>
    (await browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 900 } })).newPage();

  async function invite(page: Page, name: string, email: string) {
    const form = page.getByRole('form', { name: 'Invite a team member' });
    await form.getByLabel('Name').fill(name);
    await form.getByLabel('Email').fill(email);
    await form.getByRole('button', { name: 'Invite' }).click();
    await page.getByRole('table', { name: 'Team seats' }).getByText(email).waitFor();
  }

  /**
   * Accepts the invitation mailed to `email` in a browser of its own; hands off (and, with `sign`, signs the
   * stand-in agreement); returns the shown password.
   */
  async function accept(email: string, { sign = false } = {}): Promise<string> {
    const invitation = await mail.waitFor(email, /invited you/);
    expect(invitation.text).toContain('ignore this mail');
    const page = await newPage();
    await page.goto(onThisServer(linkIn(invitation.text, 'Accept your seat')!));
    await page.getByRole('heading', { name: /^Join / }).waitFor();
    expect(await page.getByText(email).count()).toBeGreaterThan(0);
    expect(await axeViolationsAtWidths(page, '/join')).toEqual([]);
    await page.getByRole('button', { name: 'Accept my seat' }).click();
    await page.getByText('IMPORTANT: Save Your Login Credentials').waitFor();
    const password = (await page.locator('[data-credential="password"]').textContent()) ?? '';
    expect(password).toMatch(/^[A-Za-z0-9]{20}$/);
    // The welcome carries the brand and says where the member signs in later: the training platform.
    expect(await page.getByRole('banner').getByText('Chiro AI Academy').count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Go to the training platform' }).getAttribute('href')).toBe(`${platform.url}/login`);
    expect(await axeViolationsAtWidths(page, '/join with the login')).toEqual([]);
    await page.getByRole('button', { name: 'Sign Training Agreement →' }).click();
    await page.getByRole('heading', { name: `Agreement for ${email}` }).waitFor();
    if (sign) {
      await page.getByRole('button', { name: 'I agree' }).click();
      await page.getByRole('heading', { name: 'Agreement signed' }).waitFor();
    }
    // The link was used: opening it again says so.
    await page.goto(onThisServer(linkIn(invitation.text, 'Accept your seat')!));
    await page.getByText(/already claimed/).waitFor();
    return password;
  }

  it('buys 3 seats, invites two from the success page, each accepts and hands off; the buyer revokes one, gives seat 1 away and takes it back; a member sets a new password', async () => {
    // /join arrives rendered with what its link stands for (dist/join-problem.html filled in), before any script runs.
    expect(await (await fetch(`${server.baseUrl}/join?token=x`)).text()).toContain('This invitation link is not valid');

    const buyer = await newPage();
    await openCheckout(buyer, server.baseUrl);
    await chooseSeats(buyer, 3);
    await fillBuyer(buyer, { firstName: 'Ada', lastName: 'Palmer', email: 'ada.team@example.com' });
    await fillCard(buyer, TEST_CARDS.succeeds);
    await submit(buyer);
    const buyerPassword = (await expectPaymentSuccessful(buyer, '$1,000', 3)).loginDetails.password;
    await buyer.getByText('You have 2 more seats: invite your team.').waitFor();
    // The confirmation mail says what is true when it is sent: awaited before the invitations, both seats wait.
    const confirmation = await mail.waitFor('ada.team@example.com', /subscription is active/);
    expect(confirmation.text).toContain('2 seats waiting to be assigned');
    await invite(buyer, 'Bo Chen', 'bo.team@example.com');
    await invite(buyer, 'Cy Diaz', 'cy.team@example.com');

    const boPassword = await accept('bo.team@example.com');
    const cyPassword = await accept('cy.team@example.com', { sign: true });
    await buyer.getByRole('button', { name: 'Sign Training Agreement →' }).click();
    await buyer.getByRole('heading', { name: 'Agreement for ada.team@example.com' }).waitFor();
    expect(
      redeemed.map(({ email, role, seatNumber }) => ({ email, role, seatNumber })).sort((a, b) => a.seatNumber - b.seatNumber),
    ).toEqual([
      { email: 'ada.team@example.com', role: 'buyer', seatNumber: 1 },
      { email: 'bo.team@example.com', role: 'member', seatNumber: 2 },
      { email: 'cy.team@example.com', role: 'member', seatNumber: 3 },
    ]);

    // The confirmation mail links to the Team section of /account; the buyer revokes Bo there.
    await buyer.goto(onThisServer(linkIn(confirmation.text, 'Manage your subscription')!));
    const team = buyer.getByRole('table', { name: 'Team seats' });
    await team.getByText('bo.team@example.com').waitFor();
    await buyer.getByRole('button', { name: 'Revoke bo.team@example.com' }).click();
    // Bo accepted, so the question is about a member who can no longer sign in (not an invitation link).
    const question = buyer.getByRole('alertdialog', { name: 'Revoke Bo Chen’s seat?' });
    await question.getByText('can no longer sign in to the training').waitFor();
    await buyer.getByRole('button', { name: 'Yes, revoke the seat' }).click();
    await buyer.getByText('Seat revoked: they can no longer sign in.').waitFor();
    expect(await team.getByText('bo.team@example.com').count()).toBe(0);
    await expect
      .poll(() => receiver.webhooks.find((hook) => hook.type === 'seat.revoked' && hook.data.seatEmail === 'bo.team@example.com'), {
        timeout: 15_000,
      })
      .toMatchObject({ verified: true, data: { seatNumber: 2, reason: 'buyer' } });

    // The training platform: Cy signs in with the login their claim showed (a member, seat 3); Bo no longer can.
    const cy = await signInToPlatform('cy.team@example.com', cyPassword);
    await cy.getByRole('heading', { name: 'Signed in' }).waitFor({ timeout: 20_000 });
    const claims = JSON.parse((await cy.locator('#claims').textContent()) ?? '{}') as Record<string, unknown>;
    expect(claims).toMatchObject({
      email: 'cy.team@example.com',
      name: 'Cy Diaz',
      seat: 3,
      role: 'member',
      status: 'active',
      agreement: 'signed',
    });
    const bo = await signInToPlatform('bo.team@example.com', boPassword);
    await bo.getByRole('alert').filter({ hasText: 'The email or password is not right.' }).waitFor();

    // /sign-in opened directly (a bookmark): the page offers the way in, which starts the platform's sign-in and
    // comes back with a live one; the buyer has not signed the agreement yet, and the platform is told so.
    const direct = await newPage();
    await direct.goto(`${server.baseUrl}/sign-in`);
    await direct.getByRole('heading', { name: 'Sign in to your training' }).waitFor();
    expect(await direct.getByRole('banner').getByText('Chiro AI Academy').count()).toBe(1);
    await direct.getByRole('link', { name: 'Go to the training platform' }).click();
    await direct.waitForURL(/\/sign-in\?interaction=/);
    await direct.waitForLoadState('networkidle');
    await direct.getByLabel('Email').fill('ada.team@example.com');
    await direct.getByLabel('Password').fill(buyerPassword);
    await direct.getByRole('button', { name: 'Sign in' }).click();
    await direct.getByRole('heading', { name: 'Signed in' }).waitFor({ timeout: 20_000 });
    expect(JSON.parse((await direct.locator('#claims').textContent()) ?? '{}')).toMatchObject({ role: 'buyer', agreement: 'pending' });

    // Seat 1 to someone else (decision 0038): given on /account, accepted in another browser, taken back; the
    // buyer manages throughout.
    await buyer.getByRole('button', { name: 'Give my seat to someone else' }).click();
    const giveForm = buyer.getByRole('form', { name: 'Give seat 1 to someone else' });
    await giveForm.getByLabel('Name').fill('Dee Doctor');
    await giveForm.getByLabel('Email').fill('dee.team@example.com');
    await giveForm.getByRole('button', { name: 'Give seat 1' }).click();
    await buyer.getByText(/Seat 1 is offered to Dee Doctor/).waitFor();
    await accept('dee.team@example.com');
    await buyer.reload();
    await buyer.getByText(/Seat 1 is Dee Doctor’s/).waitFor();
    await buyer.getByRole('button', { name: 'Take seat 1 back from dee.team@example.com' }).click();
    await buyer.getByRole('alertdialog', { name: 'Take seat 1 back from Dee Doctor?' }).waitFor();
    await buyer.getByRole('button', { name: 'Yes, take seat 1 back' }).click();
    await buyer.getByText(/Seat 1 is yours/).waitFor();
    // Cy forgot the password (decision 0039): "Forgot your password?" mails Cy a link to choose one; a weak one is
    // refused under the field; the new one signs in, the one the claim showed no longer does.
    // axe is injected as a script: this context bypasses the page's Content-Security-Policy.
    const forgot = await (await browser.newContext({ bypassCSP: true, viewport: { width: 375, height: 812 } })).newPage();
    await forgot.goto(platform.url);
    await forgot.getByRole('link', { name: 'Sign in' }).click();
    // Once hydrated, as above.
    await forgot.getByRole('heading', { name: 'Sign in to your training' }).waitFor();
    await forgot.waitForLoadState('networkidle');
    await forgot.getByRole('button', { name: 'Forgot your password?' }).click();
    await forgot.getByRole('heading', { name: 'Forgot your password?' }).waitFor();
    await forgot.getByLabel('Email').fill('cy.team@example.com');
    await forgot.getByRole('button', { name: 'Email me a link' }).click();
    await forgot.getByRole('status').filter({ hasText: 'a link is on its way' }).waitFor();
    const resetMail = await mail.waitFor('cy.team@example.com', /Set a new password/);
    await forgot.goto(onThisServer(linkIn(resetMail.text, 'Set a new password')!));
    await forgot.getByRole('heading', { name: 'Set a new password' }).waitFor();
    // The heading takes the focus, so a screen reader announces the page.
    await expect.poll(() => forgot.evaluate(() => document.activeElement?.textContent)).toBe('Set a new password');
    await forgot.getByLabel('New password').fill('cy.team@example.com');
    await forgot.getByRole('button', { name: 'Set my new password' }).click();
    await forgot.getByRole('alert').filter({ hasText: 'not your email address' }).waitFor();
    expect(await axeViolationsAtWidths(forgot, 'new password page with its refusal')).toEqual([]);
    await forgot.getByLabel('New password').fill(CY_NEW_PASSWORD);
    await forgot.getByRole('button', { name: 'Set my new password' }).click();
    await forgot.getByRole('heading', { name: 'Your new password is set' }).waitFor();
    const cyAgain = await signInToPlatform('cy.team@example.com', CY_NEW_PASSWORD);
    await cyAgain.getByRole('heading', { name: 'Signed in' }).waitFor({ timeout: 20_000 });
    const cyOld = await signInToPlatform('cy.team@example.com', cyPassword);
    await cyOld.getByRole('alert').filter({ hasText: 'The email or password is not right.' }).waitFor();
  });
});
