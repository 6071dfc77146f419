/** The sandbox card form and its gateway: browser checks, confirmation calls, the authentication challenge. */
import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PaymentConfirmation, PaymentGateway } from '../../src/payments/gateway';
import { AUTHENTICATION_FAILED_MESSAGE } from '../../src/payments/sandboxGateway';
import { SandboxCardForm } from '../../src/views/payment/SandboxCardForm';
import { stubFetch, type FakeRoute } from './support/fakeFetch';

afterEach(() => {
  vi.unstubAllGlobals();
});

const BILLING = { name: 'Ada Lovelace', email: 'ada@example.com' };
const RETURN_URL = 'http://localhost/payment-success';
const CLIENT_SECRET = 'pi_sbx_1_secret_a';

function renderForm() {
  const onReady = vi.fn<(gateway: PaymentGateway) => void>();
  render(<SandboxCardForm clientSecret="pi_sbx_1_secret_a" disabled={false} onReady={onReady} onCardDetailsChange={vi.fn()} />);
  expect(onReady).toHaveBeenCalledTimes(1);
  return onReady.mock.calls[0]![0];
}

function typeCard(number: string) {
  fireEvent.change(screen.getByLabelText('Card number'), { target: { value: number } });
  fireEvent.change(screen.getByLabelText('Expiration date'), { target: { value: '1230' } });
  fireEvent.change(screen.getByLabelText('Security code'), { target: { value: '123' } });
  fireEvent.change(screen.getByLabelText('ZIP'), { target: { value: '96815' } });
}

/** Starts a confirmation inside act(); the outcome is wrapped so the caller can act on the page before it settles. */
async function startConfirm(gateway: PaymentGateway): Promise<{ outcome: Promise<PaymentConfirmation> }> {
  let outcome!: Promise<PaymentConfirmation>;
  await act(async () => {
    outcome = gateway.confirmPayment({ clientSecret: CLIENT_SECRET, billingDetails: BILLING, returnUrl: RETURN_URL });
  });
  return { outcome };
}

async function confirm(gateway: PaymentGateway): Promise<PaymentConfirmation> {
  return (await startConfirm(gateway)).outcome;
}

describe('sandbox card form', () => {
  it('lays out one Card tab with the labelled card fields', () => {
    renderForm();
    expect(screen.getByRole('tablist', { name: 'Payment method' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Card' })).toHaveAttribute('aria-selected', 'true');
    for (const label of ['Card number', 'Expiration date', 'Security code', 'ZIP']) {
      expect(screen.getByLabelText(label)).toBeInTheDocument();
    }
    expect(screen.getByLabelText('Expiration date')).toHaveAttribute('placeholder', 'MM / YY');
  });

  it('answers incomplete and shows every error under its field, sending nothing', async () => {
    const fetchMock = stubFetch();
    const gateway = renderForm();
    fireEvent.change(screen.getByLabelText('Card number'), { target: { value: '4242 4242 4242 4241' } });
    fireEvent.change(screen.getByLabelText('Expiration date'), { target: { value: '0120' } });

    await expect(confirm(gateway)).resolves.toEqual({ status: 'incomplete' });
    expect(screen.getByText('Your card number is invalid.')).toBeInTheDocument();
    expect(screen.getByText("Your card's expiration date is in the past.")).toBeInTheDocument();
    expect(screen.getByText("Your card's security code is incomplete.")).toBeInTheDocument();
    expect(screen.getByText('Your postal code is incomplete.')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('shows a field error after leaving a half-typed field', () => {
    renderForm();
    fireEvent.change(screen.getByLabelText('Expiration date'), { target: { value: '12' } });
    expect(screen.queryByText("Your card's expiration date is incomplete.")).not.toBeInTheDocument();
    fireEvent.blur(screen.getByLabelText('Expiration date'));
    expect(screen.getByText("Your card's expiration date is incomplete.")).toBeInTheDocument();
  });

  it('confirms the card with the sandbox and returns the payment intent', async () => {
    const confirmRoute = vi.fn<FakeRoute>(() => ({ status: 200, body: { status: 'succeeded', paymentIntentId: 'pi_sbx_1' } }));
    stubFetch({ '/api/sandbox/payment-intents/confirm': confirmRoute });
    const gateway = renderForm();
    typeCard('4242 4242 4242 4242');

    await expect(confirm(gateway)).resolves.toEqual({ status: 'succeeded', paymentIntentId: 'pi_sbx_1' });
    expect(confirmRoute).toHaveBeenCalledWith({
      clientSecret: 'pi_sbx_1_secret_a',
      card: { number: '4242424242424242', expMonth: 12, expYear: 2030, cvc: '123', postalCode: '96815' },
      billingDetails: BILLING,
    });
  });

  it("fails with the server's message on a decline", async () => {
    stubFetch({ '/api/sandbox/payment-intents/confirm': () => ({ status: 402, body: { error: 'Your card was declined.' } }) });
    const gateway = renderForm();
    typeCard('4000 0000 0000 0002');
    await expect(confirm(gateway)).resolves.toEqual({ status: 'failed', message: 'Your card was declined.' });
  });

  it('shows the 3D Secure test page and completes the authentication', async () => {
    const authenticate = vi.fn<FakeRoute>(() => ({ status: 200, body: { status: 'succeeded', paymentIntentId: 'pi_sbx_3ds' } }));
    stubFetch({
      '/api/sandbox/payment-intents/confirm': () => ({ status: 200, body: { status: 'requires_action', paymentIntentId: 'pi_sbx_3ds' } }),
      '/api/sandbox/payment-intents/authenticate': authenticate,
    });
    const gateway = renderForm();
    typeCard('4000 0025 0000 3155');

    const { outcome } = await startConfirm(gateway);
    const dialog = screen.getByRole('dialog', { name: '3D Secure 2 Test Page' });
    expect(screen.getByRole('button', { name: 'Complete authentication' })).toHaveFocus();
    expect(dialog).toBeInTheDocument();

    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Complete authentication' })));
    await expect(outcome).resolves.toEqual({ status: 'succeeded', paymentIntentId: 'pi_sbx_3ds' });
    expect(authenticate).toHaveBeenCalledWith({ clientSecret: 'pi_sbx_1_secret_a', outcome: 'completed' });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('fails when the buyer fails the authentication', async () => {
    stubFetch({
      '/api/sandbox/payment-intents/confirm': () => ({ status: 200, body: { status: 'requires_action', paymentIntentId: 'pi_sbx_3ds' } }),
      '/api/sandbox/payment-intents/authenticate': () => ({ status: 402, body: { error: AUTHENTICATION_FAILED_MESSAGE } }),
    });
    const gateway = renderForm();
    typeCard('4000 0025 0000 3155');

    const { outcome } = await startConfirm(gateway);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Fail authentication' })));
    await expect(outcome).resolves.toEqual({ status: 'failed', message: AUTHENTICATION_FAILED_MESSAGE });
  });

  it('keeps Tab inside the 3D Secure dialog, fails it on Escape, and gives the focus back', async () => {
    const authenticate = vi.fn<FakeRoute>(() => ({ status: 402, body: { error: AUTHENTICATION_FAILED_MESSAGE } }));
    stubFetch({
      '/api/sandbox/payment-intents/confirm': () => ({ status: 200, body: { status: 'requires_action', paymentIntentId: 'pi_sbx_3ds' } }),
      '/api/sandbox/payment-intents/authenticate': authenticate,
    });
    const gateway = renderForm();
    typeCard('4000 0025 0000 3155');
    const cardNumber = screen.getByLabelText('Card number');
    cardNumber.focus();

    const { outcome } = await startConfirm(gateway);
    const dialog = screen.getByRole('dialog', { name: '3D Secure 2 Test Page' });
    const complete = screen.getByRole('button', { name: 'Complete authentication' });
    const fail = screen.getByRole('button', { name: 'Fail authentication' });
    expect(complete).toHaveFocus();
    fail.focus();
    fireEvent.keyDown(dialog, { key: 'Tab' });
    expect(complete).toHaveFocus();
    fireEvent.keyDown(dialog, { key: 'Tab', shiftKey: true });
    expect(fail).toHaveFocus();

    await act(async () => fireEvent.keyDown(dialog, { key: 'Escape' }));
    await expect(outcome).resolves.toEqual({ status: 'failed', message: AUTHENTICATION_FAILED_MESSAGE });
    expect(authenticate).toHaveBeenCalledWith({ clientSecret: 'pi_sbx_1_secret_a', outcome: 'failed' });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(cardNumber).toHaveFocus();
  });
});
