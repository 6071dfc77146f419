/**
 * Steps a buyer takes on the checkout page, by the labels and names the spec gives them. Shared by the
 * end-to-end tests and the model-generated browser paths.
 */
import { expect } from 'vitest';
import type { Page } from 'playwright-core';

export const TEST_CARDS = {
  succeeds: '4242 4242 4242 4242',
  declined: '4000 0000 0000 0002',
  insufficientFunds: '4000 0000 0000 9995',
  requiresAuthentication: '4000 0025 0000 3155',
} as const;

export const SUBMIT_LABEL = 'YES! I Want To Train My Team With AI';

/** Said at the card field when a seat change re-created the payment form after a card was typed. */
const CARD_REENTRY_NOTICE = 'Your team size changed: please enter your card again';

/**
 * The buyer typed a card, then changed the seats to `seats`: the re-created payment form is empty, says why, and
 * has the focus; typing the card again takes the notice away.
 */
export async function expectCardAskedAgain(page: Page, seats: number, card: string): Promise<void> {
  await chooseSeats(page, seats);
  await page.getByText(CARD_REENTRY_NOTICE).waitFor({ timeout: 15_000 });
  await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('autocomplete'))).toBe('cc-number');
  expect(await page.getByLabel('Card number').inputValue()).toBe('');
  await fillCard(page, card);
  await expect.poll(() => page.getByText(CARD_REENTRY_NOTICE).count()).toBe(0);
}

/** Opens the checkout and waits for the payment form (the subscription intent exists). */
export async function openCheckout(page: Page, baseUrl: string): Promise<void> {
  await page.goto(`${baseUrl}/`);
  await page.getByLabel('Card number').waitFor({ timeout: 20_000 });
}

/** Adds seats one click at a time and waits until the server confirmed the new count. */
export async function chooseSeats(page: Page, seats: number): Promise<void> {
  for (let seat = 1; seat < seats; seat++) {
    await page.getByRole('button', { name: 'Increase seats' }).click();
  }
  if (seats > 1) {
    await page.getByText(`Team size updated to ${seats} members.`).waitFor({ timeout: 15_000 });
    await page.getByLabel('Card number').waitFor({ timeout: 15_000 });
  }
}

export async function fillBuyer(page: Page, buyer = { firstName: 'Ada', lastName: 'Palmer', email: 'ada.palmer@example.com' }) {
  await page.getByLabel('First Name').fill(buyer.firstName);
  await page.getByLabel('Last Name').fill(buyer.lastName);
  await page.getByLabel('Email Address').fill(buyer.email);
}

export async function fillCard(page: Page, number: string): Promise<void> {
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiration date').fill(`12 / ${String((new Date().getFullYear() + 3) % 100).padStart(2, '0')}`);
  await page.getByLabel('Security code').fill('123');
  await page.getByLabel('ZIP').fill('85001');
}

export async function submit(page: Page): Promise<void> {
  await page.getByRole('button', { name: SUBMIT_LABEL }).click();
}

/** Asserts the success page with its credentials, and returns them. */
export async function expectPaymentSuccessful(page: Page, totalPerMonth: string, seats: number) {
  await page.getByRole('heading', { name: 'Payment Successful!' }).waitFor({ timeout: 20_000 });
  expect(new URL(page.url()).pathname).toBe('/payment-success');
  await page.getByText('Your AI training subscription has been activated').waitFor();
  await page.getByText(`${totalPerMonth}/month`).waitFor();
  await page.getByText('IMPORTANT: Save Your Login Credentials').waitFor();
  const stored = await page.evaluate(() => sessionStorage.getItem('paymentSuccess'));
  const record = JSON.parse(stored ?? 'null') as {
    seatCount: number;
    token: string;
    loginDetails: { email: string; password: string };
  };
  expect(record.seatCount).toBe(seats);
  expect(record.loginDetails.password.length).toBeGreaterThanOrEqual(16);
  await page.getByText(record.loginDetails.email, { exact: true }).first().waitFor();
  await page.getByText(record.loginDetails.password, { exact: true }).waitFor();
  return record;
}
