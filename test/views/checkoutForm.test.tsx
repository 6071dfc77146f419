/** The payment form: validation (spec §5), processing and the move to the success page (spec §4). */
import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { FinalizeResponse } from '../../src/api/types';
import { PAYMENT_RECORD_KEY } from '../../src/api/paymentRecord';
import type { PaymentConfirmation } from '../../src/payments/gateway';
import { FINALIZED, renderCheckout, useCheckoutTestEnvironment } from './support/checkoutHarness';
import { advance, deferred } from './support/timers';

useCheckoutTestEnvironment();

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

    type('First Name', 'A');
    expect(screen.queryByText('First name is required')).not.toBeInTheDocument();
    expect(screen.getByText('Last name is required')).toBeInTheDocument();

    type('Last Name', 'Lovelace');
    type('Email Address', 'ada@example');
    fireEvent.click(submitButton());
    expect(screen.getByText('Email is invalid')).toBeInTheDocument();
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

  it("toasts 'Payment Failed' with the gateway's message and unlocks the form", async () => {
    renderCheckout({ confirmPayment: async () => ({ status: 'failed', message: 'Your card was declined.' }) });
    await advance(500);
    fillBuyer();
    fireEvent.click(submitButton());
    await advance();

    expect(screen.getByText('Payment Failed')).toBeInTheDocument();
    expect(screen.getByText('Your card was declined.')).toBeInTheDocument();
    expect(submitButton()).toHaveTextContent('YES! I Want To Train My Team With AI');
    expect(field('First Name')).toBeEnabled();
  });

  it("toasts 'Failed to finalize subscription' when finalize does not succeed", async () => {
    const { location } = renderCheckout({ finalize: async () => ({ ...FINALIZED, success: false }) });
    await advance(500);
    fillBuyer();
    fireEvent.click(submitButton());
    await advance();

    expect(screen.getByText('Payment Failed')).toBeInTheDocument();
    expect(screen.getByText('Failed to finalize subscription')).toBeInTheDocument();
    expect(location.history.at(-1)).toBe('/');
  });
});
