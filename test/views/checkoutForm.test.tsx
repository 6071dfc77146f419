/** The payment form: validation (spec §5), processing and the move to the success page (spec §4). */
import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { FinalizeResponse } from '../../src/contract/checkout';
import { PAYMENT_RECORD_KEY } from '../../src/api/paymentRecord';
import type { PaymentConfirmation } from '../../src/payments/gateway';
import type { Location } from '../../src/machines/checkoutTax';
import { EMAIL_MAX_LENGTH, NAME_MAX_LENGTH } from '../../src/domain/textLimits';
import { FINALIZED, leavingAsksFirst, renderCheckout, registerCheckoutTestEnvironment } from './support/checkoutHarness';
import { advance, deferred } from './support/timers';

registerCheckoutTestEnvironment();

const submitButton = () => screen.getByRole('button', { name: /YES! I Want To Train My Team With AI|Processing\.\.\./ });
const field = (label: string) => screen.getByLabelText(label);
const type = (label: string, value: string) => fireEvent.change(field(label), { target: { value } });

function fillBuyer() {
  type('First Name', 'Ada');
  type('Last Name', 'Lovelace');
  type('Email Address', 'ada@example.com');
}

describe('payment form', () => {
  it('has labelled, required name and email fields', async () => {
    renderCheckout();
    await advance(500);
    for (const label of ['First Name', 'Last Name', 'Email Address']) {
      expect(field(label)).toBeRequired();
      expect(field(label)).toBeEnabled();
    }
    expect(field('Email Address')).toHaveAttribute('type', 'email');
    expect(submitButton()).toBeEnabled();
  });

  it("holds to the server's lengths, and counts the characters once within 10% of a limit", async () => {
    renderCheckout();
    await advance(500);
    const first = screen.getByLabelText('First Name');
    // First and last name are joined into the buyer's name, at most NAME_MAX_LENGTH.
    expect(first).toHaveAttribute('maxLength', String(Math.floor((NAME_MAX_LENGTH - 1) / 2)));
    expect(screen.getByLabelText('Last Name')).toHaveAttribute('maxLength', String(Math.floor((NAME_MAX_LENGTH - 1) / 2)));
    expect(screen.getByLabelText('Email Address')).toHaveAttribute('maxLength', String(EMAIL_MAX_LENGTH));

    fireEvent.change(first, { target: { value: 'A'.repeat(88) } });
    expect(screen.queryByText(/characters$/)).not.toBeInTheDocument();
    fireEvent.change(first, { target: { value: 'A'.repeat(90) } });
    expect(screen.getByText('90 / 99 characters')).toBeInTheDocument();
  });

  it('shows the spec §5 messages under the fields on submit and clears each on edit', async () => {
    const confirmPayment = vi.fn(async (): Promise<PaymentConfirmation> => ({ status: 'succeeded', paymentIntentId: 'pi' }));
    renderCheckout({ confirmPayment });
    await advance(500);

    fireEvent.click(submitButton());
    expect(screen.getByText('First name is required')).toBeInTheDocument();
    expect(screen.getByText('Last name is required')).toBeInTheDocument();
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    expect(field('First Name')).toHaveAttribute('aria-invalid', 'true');
    expect(field('First Name')).toHaveAccessibleDescription('First name is required');
    // The first field with an error takes the focus; each message is announced.
    expect(field('First Name')).toHaveFocus();
    expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toEqual(
      expect.arrayContaining(['First name is required', 'Last name is required', 'Email is required']),
    );

    type('First Name', 'A');
    expect(screen.queryByText('First name is required')).not.toBeInTheDocument();
    expect(screen.getByText('Last name is required')).toBeInTheDocument();

    type('Last Name', 'Lovelace');
    type('Email Address', 'ada@example');
    fireEvent.click(submitButton());
    expect(screen.getByText('Email is invalid')).toBeInTheDocument();
    expect(field('Email Address')).toHaveFocus();
    type('Email Address', 'ada@example.com');
    expect(screen.queryByText('Email is invalid')).not.toBeInTheDocument();
    expect(confirmPayment).not.toHaveBeenCalled();
  });

  it("locks the form and reads 'Processing...' while the payment is confirmed and finalized", async () => {
    const payment = deferred<PaymentConfirmation>();
    const finalize = deferred<FinalizeResponse>();
    const { location } = renderCheckout({ confirmPayment: () => payment.promise, finalize: () => finalize.promise });
    await advance(500);
    fillBuyer();
    fireEvent.click(submitButton());

    expect(submitButton()).toHaveTextContent('Processing...');
    expect(submitButton()).toBeDisabled();
    for (const label of ['First Name', 'Last Name', 'Email Address', 'Card number']) expect(field(label)).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Increase seats' })).toBeDisabled();

    payment.resolve({ status: 'succeeded', paymentIntentId: 'pi_sbx_1' });
    await advance();
    expect(submitButton()).toHaveTextContent('Processing...');

    finalize.resolve(FINALIZED);
    await advance();
    expect(location.history.at(-1)).toBe('/payment-success');
    const stored = JSON.parse(window.sessionStorage.getItem(PAYMENT_RECORD_KEY) ?? 'null');
    expect(stored).toMatchObject({ seatCount: 1, totalAmount: 500, email: 'ada@example.com', name: 'Ada Lovelace' });
  });

  it("toasts 'Payment Failed' with the gateway's message, keeps the message by the pay button, and unlocks the form", async () => {
    renderCheckout({ confirmPayment: async () => ({ status: 'failed', message: 'Your card was declined.' }) });
    await advance(500);
    fillBuyer();
    fireEvent.click(submitButton());
    await advance();

    expect(screen.getByText('Payment Failed')).toBeInTheDocument();
    expect(screen.getAllByText('Your card was declined.')).toHaveLength(2);
    expect(submitButton()).toHaveTextContent('YES! I Want To Train My Team With AI');
    expect(field('First Name')).toBeEnabled();

    // The toast leaves after 4 s (spec §9); the message by the button stays until the next attempt.
    await advance(4000);
    await advance(1000);
    expect(screen.queryByText('Payment Failed')).not.toBeInTheDocument();
    expect(screen.getByText('Your card was declined.').closest('form')).not.toBeNull();
  });

  it('shows no Payment Failed toast when the card form refuses the card itself (its fields say why)', async () => {
    renderCheckout({ confirmPayment: async () => ({ status: 'incomplete' }) });
    await advance(500);
    fillBuyer();
    fireEvent.click(submitButton());
    await advance();

    expect(screen.queryByText('Payment Failed')).not.toBeInTheDocument();
    expect(submitButton()).toBeEnabled();
    expect(field('First Name')).toBeEnabled();
  });

  it("after a charge whose finalize failed, says 'Payment received, completing your order…', never 'Payment Failed', and retries finalize only", async () => {
    let succeed = false;
    const finalize = vi.fn(async (): Promise<FinalizeResponse> => (succeed ? FINALIZED : { ...FINALIZED, success: false }));
    const confirmPayment = vi.fn(async (): Promise<PaymentConfirmation> => ({ status: 'succeeded', paymentIntentId: 'pi' }));
    const { location } = renderCheckout({ finalize, confirmPayment });
    await advance(500);
    fillBuyer();
    fireEvent.click(submitButton());
    await advance();

    expect(screen.getByText('Payment received, completing your order…')).toBeInTheDocument();
    expect(screen.queryByText('Payment Failed')).not.toBeInTheDocument();
    expect(screen.queryByText('Failed to finalize subscription')).not.toBeInTheDocument();
    for (const label of ['First Name', 'Last Name', 'Email Address']) expect(field(label)).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Increase seats' })).toBeDisabled();
    expect(submitButton()).toBeDisabled();
    expect(location.history.at(-1)).toBe('/');

    succeed = true;
    fireEvent.click(screen.getByRole('button', { name: 'Complete my order' }));
    await advance();
    expect(confirmPayment).toHaveBeenCalledTimes(1);
    expect(finalize).toHaveBeenCalledTimes(2);
    expect(location.history.at(-1)).toBe('/payment-success');
  });

  it('asks before leaving only while a payment is at risk', async () => {
    const held = deferred<FinalizeResponse>();
    renderCheckout({ finalize: () => held.promise });
    await advance(500);
    expect(leavingAsksFirst()).toBe(false);
    fillBuyer();
    fireEvent.click(submitButton());
    await advance();
    expect(leavingAsksFirst()).toBe(true);
    held.resolve(FINALIZED);
    await advance();
    expect(leavingAsksFirst()).toBe(false);
  });
});

describe('the total with tax (decision 0071)', () => {
  const HONOLULU = {
    kind: 'quoted' as const,
    quote: {
      clientSecret: 'pi_sbx_t_secret_t',
      subscriptionId: 'sub_sbx_t',
      subscriptionItemId: 'si_sbx_t',
      subtotalCents: 50_000,
      taxCents: 2_356,
      taxState: 'HI',
    },
  };

  it('shows the tax line and the total with it, charges nothing until the buyer confirms, then pays the new intent', async () => {
    const confirmPayment = vi.fn(async () => ({ status: 'succeeded', paymentIntentId: 'pi_sbx_t' }) as const);
    const { location } = renderCheckout({ locate: async () => HONOLULU, confirmPayment });
    await advance(500);
    fillBuyer();
    fireEvent.click(submitButton());
    await advance();
    const pay = screen.getByRole('button', { name: 'Pay $523.56 monthly' });
    expect(document.activeElement).toBe(pay);
    expect(screen.getByTestId('summary-tax')).toHaveTextContent('$23.56');
    expect(screen.getByTestId('summary-total')).toHaveTextContent('$523.56');
    expect(screen.getByText('Hawaii general excise tax')).toBeInTheDocument();
    expect(confirmPayment).not.toHaveBeenCalled();

    fireEvent.click(pay);
    await advance();
    expect(confirmPayment).toHaveBeenCalledWith(expect.objectContaining({ clientSecret: 'pi_sbx_t_secret_t' }));
    expect(location.history.at(-1)).toBe('/payment-success');
    const stored = JSON.parse(window.sessionStorage.getItem(PAYMENT_RECORD_KEY) ?? 'null');
    expect(stored).toMatchObject({ seatCount: 1, totalAmount: 523.56, taxAmount: 23.56 });
  });

  it('says a refused ZIP at the ZIP field, and the buyer can go back from the total with tax', async () => {
    let answer: Location = {
      kind: 'refused',
      refusal: { field: 'postalCode', message: 'We could not find this ZIP code. Please check it.' },
    };
    renderCheckout({ locate: async () => answer });
    await advance(500);
    fillBuyer();
    fireEvent.click(submitButton());
    await advance();
    expect(field('ZIP')).toHaveAccessibleDescription('We could not find this ZIP code. Please check it.');
    answer = HONOLULU;
    fireEvent.click(submitButton());
    await advance();
    fireEvent.click(screen.getByRole('button', { name: 'Change card details' }));
    await advance();
    expect(submitButton()).toBeEnabled();
    expect(screen.getByTestId('summary-total')).toHaveTextContent('$523.56');
  });
});

describe('a payment this browser started earlier', () => {
  const pending = {
    transactionId: 'txn_9',
    subscriptionId: 'sub_9',
    customerId: 'cus_9',
    seats: 3,
    totalAmount: 1000,
    name: 'Ada Lovelace',
    email: 'ada@example.com',
  };

  it('is finalized on open, and the success page shows it; no new checkout is opened', async () => {
    window.localStorage.setItem('pendingPayment', JSON.stringify({ ...pending, savedAt: Date.now() }));
    const createIntent = vi.fn();
    const { location } = renderCheckout({ createIntent });
    expect(screen.getByText('Checking your earlier payment…')).toBeInTheDocument();
    await advance(1000);
    expect(location.history.at(-1)).toBe('/payment-success');
    expect(JSON.parse(window.sessionStorage.getItem(PAYMENT_RECORD_KEY) ?? 'null')).toMatchObject({
      seatCount: 3,
      totalAmount: 1000,
      transactionId: 'txn_9',
    });
    expect(createIntent).not.toHaveBeenCalled();
  });

  it("offers 'Check again' when it cannot be checked", async () => {
    window.localStorage.setItem('pendingPayment', JSON.stringify({ ...pending, savedAt: Date.now() }));
    renderCheckout({ finalize: () => Promise.reject(new Error('network down')) });
    await advance();
    expect(screen.getByText(/We could not check your earlier payment yet/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Check again' })).toBeEnabled();
  });

  it('within 24 hours of a purchase, shows the order above the form with a link to it; buying again stays possible', async () => {
    window.localStorage.setItem('recentPurchase', JSON.stringify({ ...pending, completedAt: Date.now() - 60_000 }));
    renderCheckout();
    await advance(500);
    const notice = screen.getByRole('region', { name: 'Your recent order' });
    expect(notice).toHaveTextContent('3 seats, $1,000/month, for ada@example.com.');
    expect(screen.getByRole('link', { name: 'View your order and login details' })).toHaveAttribute('href', '/payment-success');
    expect(submitButton()).toBeEnabled();
  });

  it('forgets a purchase older than 24 hours', async () => {
    window.localStorage.setItem('recentPurchase', JSON.stringify({ ...pending, completedAt: Date.now() - 25 * 60 * 60 * 1000 }));
    renderCheckout();
    await advance(500);
    expect(screen.queryByRole('region', { name: 'Your recent order' })).not.toBeInTheDocument();
    expect(window.localStorage.getItem('recentPurchase')).toBeNull();
  });
});
