/** Seats, totals, confetti and the debounced update (spec §2 seat selector, §4 seat changes). */
import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { UpdateIntentResponse } from '../../src/contract/checkout';
import { CHECKOUT_LIMITS_ELEMENT_ID, DEFAULT_MAX_SEATS } from '../../src/domain/pricing';
import { CONFETTI_PIECES } from '../../src/machines/checkoutTimings';
import { renderCheckout, updatedSession, registerCheckoutTestEnvironment } from './support/checkoutHarness';
import { advance, deferred } from './support/timers';

registerCheckoutTestEnvironment();

const plus = () => screen.getByRole('button', { name: 'Increase seats' });
const minus = () => screen.getByRole('button', { name: 'Decrease seats' });
const seatCount = () => screen.getByLabelText('Seats');
const summaryRows = () => within(screen.getByRole('table')).getAllByRole('row').slice(1);

describe('seat selector', () => {
  it('starts at one seat with minus disabled and the $500 total, and no confetti', async () => {
    renderCheckout();
    // Confetti comes only with reaching two seats (spec §2), never with the page.
    expect(screen.queryByTestId('confetti')).not.toBeInTheDocument();
    await advance(500);
    expect(screen.queryByTestId('confetti')).not.toBeInTheDocument();
    expect(seatCount()).toHaveValue('1');
    expect(minus()).toBeDisabled();
    expect(plus()).toBeEnabled();
    expect(screen.getByTestId('seat-total')).toHaveTextContent('$500');
    expect(screen.getByTestId('summary-total')).toHaveTextContent('$500');
    expect(summaryRows()).toHaveLength(1);
    expect(screen.queryByText("You're saving $500 today!")).not.toBeInTheDocument();
  });

  it("at two seats shows the saving banner, '$0 (FREE)' and 50 pieces of confetti for 4 s", async () => {
    renderCheckout();
    await advance(500);
    fireEvent.click(plus());

    expect(seatCount()).toHaveValue('2');
    expect(screen.getByText("You're saving $500 today!")).toBeInTheDocument();
    const rows = summaryRows();
    expect(rows).toHaveLength(2);
    expect(rows[1]).toHaveTextContent('$0 (FREE)');
    expect(rows[0]).toHaveTextContent('$500');
    expect(screen.getByText('Second seat').nextSibling).toHaveTextContent('FREE');
    const confetti = screen.getByTestId('confetti');
    expect(confetti).toHaveAttribute('aria-hidden', 'true');
    expect(confetti.children).toHaveLength(CONFETTI_PIECES);
    expect(CONFETTI_PIECES).toBe(50);

    await advance(3999);
    expect(screen.getByTestId('confetti')).toBeInTheDocument();
    await advance(1);
    expect(screen.queryByTestId('confetti')).not.toBeInTheDocument();
  });

  it('updates the page total at once, before the server confirms', async () => {
    const update = vi.fn(async ({ quantity }: { quantity: number }) => updatedSession(quantity));
    renderCheckout({ updateIntent: update });
    await advance(500);
    fireEvent.click(plus());
    fireEvent.click(plus());

    expect(screen.getByTestId('seat-total')).toHaveTextContent('$1,000');
    expect(screen.getByTestId('summary-total')).toHaveTextContent('$1,000');
    expect(screen.getByText('Additional seats (1 × $500)')).toBeInTheDocument();
    expect(summaryRows()).toHaveLength(3);
    expect(
      screen.getByText(
        "$500 per seat/$1,000 total billed monthly. Cancel anytime with one click. Offer valid exclusively through the referrer's referral.",
      ),
    ).toBeInTheDocument();
    expect(update).not.toHaveBeenCalled();
  });

  it("locks the seat buttons and shows 'Updating...' while the update runs, then toasts 'Subscription Updated'", async () => {
    const pending = deferred<UpdateIntentResponse>();
    renderCheckout({ updateIntent: () => pending.promise });
    await advance(500);
    fireEvent.click(plus());

    await advance(1999);
    expect(screen.queryByText('Updating...')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'YES! I Want To Train My Team With AI' })).toBeDisabled();

    await advance(1);
    expect(screen.getByText('Updating...')).toBeInTheDocument();
    expect(plus()).toBeDisabled();
    expect(minus()).toBeDisabled();

    pending.resolve(updatedSession(2));
    await advance();
    expect(screen.queryByText('Updating...')).not.toBeInTheDocument();
    expect(plus()).toBeEnabled();
    expect(minus()).toBeEnabled();
    expect(screen.getByText('Subscription Updated')).toBeInTheDocument();
    expect(screen.getByText('Team size updated to 2 members.')).toBeInTheDocument();
  });

  it("reverts a failed update and shows 'Update Failed' and 'Update Error'", async () => {
    renderCheckout({ updateIntent: async () => Promise.reject(new Error('Failed to update subscription')) });
    await advance(500);
    fireEvent.click(plus());
    fireEvent.click(plus());
    expect(seatCount()).toHaveValue('3');

    await advance(2000);
    expect(seatCount()).toHaveValue('1');
    expect(screen.getByTestId('summary-total')).toHaveTextContent('$500');
    expect(screen.getByText('Update Failed')).toBeInTheDocument();
    expect(screen.getByText('Failed to update team size. Please try again.')).toBeInTheDocument();
    expect(screen.getByText('Update Error')).toBeInTheDocument();
    expect(screen.getByText('Failed to update subscription. Please refresh and try again.')).toBeInTheDocument();
  });

  it('re-creates the card form for the new client secret after an update', async () => {
    renderCheckout();
    await advance(500);
    fireEvent.change(screen.getByLabelText('Card number'), { target: { value: '4242' } });
    fireEvent.click(plus());
    await advance(2000);
    expect(screen.getByText('Subscription Updated')).toBeInTheDocument();
    expect(screen.getByLabelText('Card number')).toHaveValue('');
    expect(screen.getByRole('button', { name: 'YES! I Want To Train My Team With AI' })).toBeEnabled();
  });

  it('keeps the keyboard on the seat control through an update: on the count while locked, then back on +', async () => {
    const update = deferred<UpdateIntentResponse>();
    renderCheckout({ updateIntent: () => update.promise });
    await advance(500);
    plus().focus();
    fireEvent.click(plus());
    await advance(2000);
    expect(plus()).toBeDisabled();
    expect(seatCount()).toHaveFocus();

    update.resolve(updatedSession(2));
    await advance();
    expect(plus()).toBeEnabled();
    expect(plus()).toHaveFocus();
  });
});

/** The server's MAX_SEATS in the page, as server/referrals/offerPage.ts writes it. */
function writePageLimits(maxSeats: number): void {
  const element = document.createElement('script');
  element.id = CHECKOUT_LIMITS_ELEMENT_ID;
  element.type = 'application/json';
  element.textContent = JSON.stringify({ maxSeats });
  document.head.append(element);
}

const type = (text: string) => fireEvent.change(seatCount(), { target: { value: text } });
const seatAlert = () => screen.queryAllByRole('alert').find((alert) => /seat/.test(alert.textContent ?? ''));

describe('typing the seat count', () => {
  afterEach(() => document.getElementById(CHECKOUT_LIMITS_ELEMENT_ID)?.remove());

  it('takes a typed number: the total at once, call 2 after the same 2000 ms debounce as the buttons', async () => {
    const update = vi.fn(async ({ quantity }: { quantity: number }) => updatedSession(quantity));
    renderCheckout({ updateIntent: update });
    await advance(500);
    type('30');

    expect(seatCount()).toHaveValue('30');
    expect(screen.getByTestId('seat-total')).toHaveTextContent('$14,500');
    await advance(1999);
    expect(update).not.toHaveBeenCalled();
    await advance(1);
    expect(update).toHaveBeenCalledTimes(1);
    expect(update.mock.calls[0]![0]).toMatchObject({ quantity: 30 });
    await advance();
    expect(screen.getByText('Team size updated to 30 members.')).toBeInTheDocument();
  });

  it('each keystroke restarts the debounce, as a click does', async () => {
    const update = vi.fn(async ({ quantity }: { quantity: number }) => updatedSession(quantity));
    renderCheckout({ updateIntent: update });
    await advance(500);
    type('1');
    await advance(1500);
    type('12');
    await advance(1999);
    expect(update).not.toHaveBeenCalled();
    await advance(1);
    expect(update).toHaveBeenCalledTimes(1);
    expect(update.mock.calls[0]![0]).toMatchObject({ quantity: 12 });
  });

  it('refuses an empty or non-number entry at the field in words; the count priced and committed stays', async () => {
    const update = vi.fn(async ({ quantity }: { quantity: number }) => updatedSession(quantity));
    renderCheckout({ updateIntent: update });
    await advance(500);
    fireEvent.click(plus());
    type('');

    expect(seatCount()).toHaveValue('');
    expect(seatCount()).toHaveAttribute('aria-invalid', 'true');
    expect(seatAlert()).toHaveTextContent(`Type a number of seats, from 1 to ${DEFAULT_MAX_SEATS}.`);
    expect(seatCount()).toHaveAccessibleDescription(`Type a number of seats, from 1 to ${DEFAULT_MAX_SEATS}.`);
    expect(screen.getByTestId('seat-total')).toHaveTextContent('$500');
    type('two');
    expect(seatCount()).toHaveValue('two');
    expect(seatAlert()).toHaveTextContent('Type a number of seats');

    // The two seats chosen before the refused entry are still what is committed.
    await advance(2000);
    expect(update).toHaveBeenCalledTimes(1);
    expect(update.mock.calls[0]![0]).toMatchObject({ quantity: 2 });
    type('3');
    expect(seatAlert()).toBeUndefined();
    expect(seatCount()).not.toHaveAttribute('aria-invalid');
  });

  it("'+' stops at the server's limit and says why; a count typed above it is refused, nothing lost", async () => {
    writePageLimits(3);
    const update = vi.fn(async ({ quantity }: { quantity: number }) => updatedSession(quantity));
    renderCheckout({ updateIntent: update });
    await advance(500);
    fireEvent.click(plus());
    fireEvent.click(plus());
    fireEvent.click(plus());

    expect(seatCount()).toHaveValue('3');
    expect(seatAlert()).toHaveTextContent('At most 3 seats can be bought here. For a larger team, please contact us.');
    expect(screen.getByTestId('seat-total')).toHaveTextContent('$1,000');
    await advance(2000);
    await advance();
    expect(update).toHaveBeenCalledTimes(1);
    expect(update.mock.calls[0]![0]).toMatchObject({ quantity: 3 });
    expect(screen.queryByText('Update Failed')).not.toBeInTheDocument();
    expect(seatCount()).toHaveValue('3');

    type('4');
    expect(seatCount()).toHaveValue('4');
    expect(seatAlert()).toHaveTextContent('At most 3 seats can be bought here.');
    expect(screen.getByTestId('seat-total')).toHaveTextContent('$1,000');
    await advance(2000);
    expect(update).toHaveBeenCalledTimes(1);
    fireEvent.click(minus());
    expect(seatCount()).toHaveValue('2');
    expect(seatAlert()).toBeUndefined();
  });

  it('refuses 0: a team has at least one seat', async () => {
    renderCheckout();
    await advance(500);
    type('0');
    expect(seatAlert()).toHaveTextContent('Your team has at least 1 seat.');
    expect(screen.getByTestId('seat-total')).toHaveTextContent('$500');
  });
});
