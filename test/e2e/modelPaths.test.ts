/**
 * Paths generated from the checkout statechart, run in Debian's Chromium against the real server with the
 * sandbox provider: a purchase, a decline, and authentication completed and failed. Here the clock and
 * the server are real, so timer and server steps wait for what the buyer sees instead of causing it; the card
 * typed before each submit is chosen by the outcome the model's next step names.
 */
import { describe, expect, it, vi } from 'vitest';
import type { Page } from 'playwright-core';
import type { AnyEventObject, AnyMachineSnapshot } from 'xstate';
import { formatDollars, monthlyTotalCents } from '../../src/domain/pricing';
import { useServerAndBrowser, watchConsole } from './harness';
import { expectPaymentSuccessful, fillCard, openCheckout, SUBMIT_LABEL, TEST_CARDS } from './checkoutFlow';

// The model walks the statechart under a fake clock (paths are generated and replayed below, before the browser
// starts); the browser and the server keep the real one.
vi.useFakeTimers({ toFake: ['Date'] });
const { createCheckoutTestModel, MODEL_INPUT } = await import('../model/checkoutModel');
const { replayExactly } = await import('../model/paths');

/** The happy world of the model: no server failures, no page clicks, up to three seats. */
const model = createCheckoutTestModel({ maxSeats: 3, failures: false, clicks: false });

const isSuccess = (seats: number) => (snapshot: AnyMachineSnapshot) =>
  snapshot.matches('success') && snapshot.context.confirmedSeats === seats;

function shortestEventsTo(goal: (snapshot: AnyMachineSnapshot) => boolean): AnyEventObject[] {
  const [path] = model.getShortestPaths({ toState: goal as never }).sort((a, b) => a.steps.length - b.steps.length);
  if (!path) throw new Error('The model has no path to that goal');
  return path.steps.map((step) => step.event).filter((event) => event.type !== 'xstate.init');
}

const isConfirmation = (event: AnyEventObject) => /^xstate\.done\.actor\.\d+\.checkout\.submitting$/.test(event.type);

/**
 * The same purchase with one refused attempt first: submit (the location step, then the card), the card is refused,
 * then the purchase goes on from the submit again.
 */
function withRefusalFirst(events: AnyEventObject[]): AnyEventObject[] {
  const submit = events.findIndex((event) => event.type === 'SUBMITTED');
  const confirmation = events.findIndex((event, index) => index > submit && isConfirmation(event));
  const refused = { ...events[confirmation]!, output: { status: 'failed', message: 'refused' } };
  return [...events.slice(0, confirmation), refused, ...events.slice(submit)];
}

type CardPlan = 'plain' | 'authentication';

interface BrowserPath {
  name: string;
  cards: CardPlan;
  seats: number;
  events: AnyEventObject[];
}

const oneSeat = shortestEventsTo(isSuccess(1));
const threeSeats = shortestEventsTo(isSuccess(3));
const PATHS: BrowserPath[] = [
  { name: 'purchase of one seat', cards: 'plain', seats: 1, events: oneSeat },
  { name: 'decline, then purchase of three seats', cards: 'plain', seats: 3, events: withRefusalFirst(threeSeats) },
  { name: 'authentication completed, three seats', cards: 'authentication', seats: 3, events: threeSeats },
  { name: 'authentication failed, then completed', cards: 'authentication', seats: 1, events: withRefusalFirst(oneSeat) },
];

const REPLAYED = PATHS.map((plan) => ({ plan, replayed: replayExactly(model as never, plan.events, MODEL_INPUT) }));
vi.useRealTimers();

const running = useServerAndBrowser();

const FIELD_LABELS: Record<string, string> = { firstName: 'First Name', lastName: 'Last Name', email: 'Email Address' };

async function expectSeats(page: Page, seats: number): Promise<void> {
  await expect.poll(() => page.getByLabel('Seats', { exact: true }).inputValue()).toBe(String(seats));
  await expect.poll(() => page.getByTestId('seat-total').textContent()).toBe(formatDollars(monthlyTotalCents(seats)));
}

/** Does in the browser what `event` stands for, or waits until the page shows it happened. */
async function perform(page: Page, plan: BrowserPath, event: AnyEventObject, later: AnyEventObject[], state: AnyMachineSnapshot) {
  if (event.type === 'PAYMENT_FORM_READY') {
    await page.getByLabel('Card number').waitFor({ timeout: 20_000 });
  } else if (event.type === 'SEAT_ADDED') {
    await page.getByRole('button', { name: 'Increase seats' }).click();
  } else if (event.type === 'SEAT_REMOVED') {
    await page.getByRole('button', { name: 'Decrease seats' }).click();
  } else if (event.type === 'SEATS_TYPED') {
    await page.getByLabel('Seats', { exact: true }).fill(String(event.text));
  } else if (event.type === 'FIELD_CHANGED') {
    await page.getByLabel(FIELD_LABELS[String(event.field)]!).fill(String(event.value));
  } else if (event.type === 'SUBMITTED') {
    // The card's answer comes after the location step: the first confirmation still to come.
    const next = later.find(isConfirmation);
    const succeeds = (next as { output?: { status?: string } } | undefined)?.output?.status === 'succeeded';
    const card = plan.cards === 'authentication' ? TEST_CARDS.requiresAuthentication : succeeds ? TEST_CARDS.succeeds : TEST_CARDS.declined;
    await fillCard(page, card);
    await page.getByRole('button', { name: SUBMIT_LABEL }).click();
  } else if (isConfirmation(event)) {
    const succeeded = (event as { output?: { status?: string } }).output?.status === 'succeeded';
    if (plan.cards === 'authentication') {
      await page.getByRole('button', { name: succeeded ? 'Complete authentication' : 'Fail authentication' }).click({ timeout: 15_000 });
    }
    if (!succeeded) {
      const message = plan.cards === 'authentication' ? 'We are unable to authenticate your payment method.' : 'Your card was declined.';
      await page.getByText(message).first().waitFor({ timeout: 15_000 });
      await page.getByRole('button', { name: SUBMIT_LABEL }).waitFor();
    }
  } else if (/checkout\.updating$/.test(event.type) && event.type.startsWith('xstate.done.')) {
    const seats = state.context.confirmedSeats as number;
    await page
      .getByText(`Team size updated to ${seats} ${seats === 1 ? 'member' : 'members'}.`)
      .first()
      .waitFor({ timeout: 15_000 });
  } else if (/checkout\.finalizing$/.test(event.type)) {
    await expectPaymentSuccessful(page, formatDollars(monthlyTotalCents(plan.seats)), plan.seats);
  }
  // The clock's steps (init delay, debounce, cooldown, confetti) and the server's answers to create and confirm
  // need nothing done: the real page gets there by itself, and the next step waits for what it shows.
}

describe('statechart paths in a real browser', () => {
  it.each(REPLAYED.map(({ plan, replayed }) => [`${plan.name}: ${replayed.description}`, plan, replayed] as const))(
    '%s',
    async (_name, plan, replayed) => {
      expect(replayed.statePath.state.matches('success'), 'the model accepts this path').toBe(true);
      const context = await running.browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      const problems = watchConsole(page);
      try {
        await openCheckout(page, running.server.baseUrl);
        const steps = replayed.statePath.steps;
        for (const [index, step] of steps.entries()) {
          await perform(
            page,
            plan,
            step.event,
            steps.slice(index + 1).map((later) => later.event),
            step.state,
          );
          // Once the payment is confirmed the page may already have moved on to the success page: the seats are
          // checked there instead.
          const checkoutShown = !step.state.matches('finalizing') && !step.state.matches('success');
          if (checkoutShown) await expectSeats(page, step.state.context.pendingSeats as number);
        }
        expect(problems.filter((line) => !line.includes('402'))).toEqual([]);
      } finally {
        await context.close();
      }
    },
  );
});
