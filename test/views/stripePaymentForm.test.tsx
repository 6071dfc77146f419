/**
 * The Stripe payment form and its gateway, with Stripe.js and @stripe/react-stripe-js mocked at the module
 * boundary (no request to js.stripe.com): when Stripe.js is loaded, what Elements and the Payment Element are
 * given, what confirmPayment sends, and how its results become our PaymentConfirmation.
 */
import { act, render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PublicConfig } from '../../src/contract/checkout';
import type { PaymentGateway } from '../../src/payments/gateway';
import { PaymentForm } from '../../src/views/payment/PaymentForm';
import { resetPublicConfigCache } from '../../src/api/publicConfig';
import { PAYMENT_NOT_COMPLETED_MESSAGE } from '../../src/payments/stripeGateway';
import { resetStripeLoads } from '../../src/payments/stripeLoader';
import { STRIPE_FORM_MESSAGES, StripePaymentForm } from '../../src/views/payment/StripePaymentForm';
import { SANDBOX_CONFIG, stubFetch } from './support/fakeFetch';

interface PaymentElementProps {
  options: Record<string, unknown>;
  onReady: () => void;
  onLoadError: () => void;
}

const stripeMocks = vi.hoisted(() => {
  const stripe = { confirmPayment: vi.fn(), createConfirmationToken: vi.fn() };
  const elements = { name: 'the Elements instance', submit: vi.fn() };
  return {
    stripe,
    elements,
    loadStripe: vi.fn(async (_key: string): Promise<typeof stripe | null> => stripe),
    elementsProps: [] as Array<{ stripe: unknown; options: unknown }>,
    paymentElementProps: [] as PaymentElementProps[],
  };
});

vi.mock('@stripe/stripe-js/pure', () => ({ loadStripe: stripeMocks.loadStripe }));

vi.mock('@stripe/react-stripe-js', () => ({
  Elements: ({ stripe, options, children }: { stripe: unknown; options: unknown; children: ReactNode }) => {
    stripeMocks.elementsProps.push({ stripe, options });
    return <div data-testid="stripe-elements">{children}</div>;
  },
  PaymentElement: (props: PaymentElementProps) => {
    stripeMocks.paymentElementProps.push(props);
    return <div data-testid="payment-element" />;
  },
  useStripe: () => stripeMocks.stripe,
  useElements: () => stripeMocks.elements,
}));

const STRIPE_CONFIG: PublicConfig = { ...SANDBOX_CONFIG, paymentProvider: 'stripe', stripePublishableKey: 'pk_test_referralCheckout' };
const CLIENT_SECRET = 'pi_3Test_secret_Abc';
const BILLING = { name: 'Ada Lovelace', email: 'ada@example.com' };
const RETURN_URL = 'http://localhost/payment-success';
/** What Stripe.js answers createConfirmationToken with: the card's billing address, a Honolulu ZIP. */
const CONFIRMATION_TOKEN = {
  id: 'ctoken_Test',
  payment_method_preview: { billing_details: { address: { country: 'US', postal_code: '96813' } } },
};
const TAXED_SECRET = 'pi_3Taxed_secret_Def';

/** The gateway's two steps: the location from a ConfirmationToken, then the payment of `clientSecret`. */
async function collectAndConfirm(gateway: PaymentGateway, clientSecret = TAXED_SECRET) {
  await gateway.collectLocation({ billingDetails: BILLING, returnUrl: RETURN_URL });
  return gateway.confirmPayment({ clientSecret, billingDetails: BILLING, returnUrl: RETURN_URL });
}

const lastPaymentElement = () => stripeMocks.paymentElementProps.at(-1)!;

beforeEach(() => {
  resetStripeLoads();
  resetPublicConfigCache();
  stripeMocks.loadStripe.mockClear();
  stripeMocks.loadStripe.mockImplementation(async () => stripeMocks.stripe);
  stripeMocks.stripe.confirmPayment.mockReset();
  stripeMocks.elements.submit.mockReset();
  stripeMocks.elements.submit.mockResolvedValue({});
  stripeMocks.stripe.createConfirmationToken.mockReset();
  stripeMocks.stripe.createConfirmationToken.mockResolvedValue({ confirmationToken: CONFIRMATION_TOKEN });
  stripeMocks.elementsProps.length = 0;
  stripeMocks.paymentElementProps.length = 0;
});

afterEach(() => {
  vi.unstubAllGlobals();
});

/** Renders the Stripe form, waits for Stripe.js and the element, and returns the gateway it handed over. */
async function renderReadyForm(disabled = false): Promise<PaymentGateway> {
  const onReady = vi.fn<(gateway: PaymentGateway) => void>();
  render(
    <StripePaymentForm
      publishableKey="pk_test_referralCheckout"
      clientSecret={CLIENT_SECRET}
      disabled={disabled}
      onReady={onReady}
      onCardDetailsChange={vi.fn()}
    />,
  );
  await screen.findByTestId('payment-element');
  act(() => lastPaymentElement().onReady());
  expect(onReady).toHaveBeenCalledTimes(1);
  return onReady.mock.calls[0]![0];
}

describe('loading Stripe.js', () => {
  it('is not loaded for the sandbox card form', async () => {
    stubFetch();
    render(<PaymentForm clientSecret="pi_sbx_1_secret_a" disabled={false} onReady={vi.fn()} onCardDetailsChange={vi.fn()} />);
    expect(await screen.findByRole('tab', { name: 'Card' })).toBeInTheDocument();
    expect(stripeMocks.loadStripe).not.toHaveBeenCalled();
  });

  it('is loaded with the publishable key when the Stripe form mounts, once per key', async () => {
    stubFetch({ '/api/config': () => ({ status: 200, body: STRIPE_CONFIG }) });
    const { unmount } = render(
      <PaymentForm clientSecret={CLIENT_SECRET} disabled={false} onReady={vi.fn()} onCardDetailsChange={vi.fn()} />,
    );
    await screen.findByTestId('payment-element');
    unmount();
    // The checkout re-creates the form for a new client secret: Stripe.js is not loaded again.
    render(<PaymentForm clientSecret="pi_3Other_secret_Def" disabled={false} onReady={vi.fn()} onCardDetailsChange={vi.fn()} />);
    await screen.findByTestId('payment-element');

    expect(stripeMocks.loadStripe.mock.calls).toEqual([['pk_test_referralCheckout']]);
    expect(stripeMocks.elementsProps.at(-1)).toMatchObject({
      stripe: stripeMocks.stripe,
      options: { clientSecret: 'pi_3Other_secret_Def' },
    });
  });

  it("reads 'Loading payment form...' until the Payment Element is ready", async () => {
    const onReady = vi.fn();
    render(
      <StripePaymentForm
        publishableKey="pk_test_referralCheckout"
        clientSecret={CLIENT_SECRET}
        disabled={false}
        onReady={onReady}
        onCardDetailsChange={vi.fn()}
      />,
    );
    expect(screen.getByText('Loading payment form...')).toBeInTheDocument();
    await screen.findByTestId('payment-element');
    expect(screen.getByText('Loading payment form...')).toBeInTheDocument();
    expect(onReady).not.toHaveBeenCalled();

    act(() => lastPaymentElement().onReady());

    expect(screen.queryByText('Loading payment form...')).not.toBeInTheDocument();
    expect(onReady).toHaveBeenCalledWith(expect.objectContaining({ provider: 'stripe' }));
  });

  it('says so when Stripe.js cannot load, and tries again on the next mount', async () => {
    stripeMocks.loadStripe.mockRejectedValueOnce(new Error('Failed to load Stripe.js'));
    const { unmount } = render(
      <StripePaymentForm
        publishableKey="pk_test_referralCheckout"
        clientSecret={CLIENT_SECRET}
        disabled={false}
        onReady={vi.fn()}
        onCardDetailsChange={vi.fn()}
      />,
    );
    expect(await screen.findByRole('alert')).toHaveTextContent(STRIPE_FORM_MESSAGES.unavailable);
    unmount();

    render(
      <StripePaymentForm
        publishableKey="pk_test_referralCheckout"
        clientSecret={CLIENT_SECRET}
        disabled={false}
        onReady={vi.fn()}
        onCardDetailsChange={vi.fn()}
      />,
    );
    await screen.findByTestId('payment-element');
    expect(stripeMocks.loadStripe).toHaveBeenCalledTimes(2);
  });

  it('says so when the Payment Element fails to load', async () => {
    render(
      <StripePaymentForm
        publishableKey="pk_test_referralCheckout"
        clientSecret={CLIENT_SECRET}
        disabled={false}
        onReady={vi.fn()}
        onCardDetailsChange={vi.fn()}
      />,
    );
    await screen.findByTestId('payment-element');
    act(() => lastPaymentElement().onLoadError());
    expect(screen.getByRole('alert')).toHaveTextContent(STRIPE_FORM_MESSAGES.unavailable);
  });

  it('says card payments are not configured without a publishable key, and loads nothing', async () => {
    render(
      <StripePaymentForm
        publishableKey={null}
        clientSecret={CLIENT_SECRET}
        disabled={false}
        onReady={vi.fn()}
        onCardDetailsChange={vi.fn()}
      />,
    );
    expect(screen.getByRole('alert')).toHaveTextContent(STRIPE_FORM_MESSAGES.notConfigured);
    await act(async () => undefined);
    expect(stripeMocks.loadStripe).not.toHaveBeenCalled();
  });
});

describe('the Payment Element', () => {
  it('is mounted in Elements for the client secret, in tabs with card the only method and no wallets', async () => {
    await renderReadyForm();
    expect(stripeMocks.elementsProps.at(-1)).toEqual({
      stripe: stripeMocks.stripe,
      options: { clientSecret: CLIENT_SECRET, appearance: expect.objectContaining({ theme: 'stripe' }) },
    });
    expect(lastPaymentElement().options).toEqual({
      layout: 'tabs',
      paymentMethodOrder: ['card'],
      wallets: { applePay: 'never', googlePay: 'never' },
      readOnly: false,
    });
  });

  it('is read-only while the order is processed', async () => {
    await renderReadyForm(true);
    expect(lastPaymentElement().options).toMatchObject({ readOnly: true });
  });
});

describe('the location and the payment', () => {
  it('reads the country and ZIP from a ConfirmationToken made after elements.submit(), with the billing details', async () => {
    const gateway = await renderReadyForm();
    await expect(gateway.collectLocation({ billingDetails: BILLING, returnUrl: RETURN_URL })).resolves.toEqual({
      status: 'collected',
      location: { country: 'US', postalCode: '96813' },
    });
    expect(stripeMocks.elements.submit).toHaveBeenCalledTimes(1);
    expect(stripeMocks.stripe.createConfirmationToken).toHaveBeenCalledWith({
      elements: stripeMocks.elements,
      params: {
        return_url: RETURN_URL,
        payment_method_data: { billing_details: { name: 'Ada Lovelace', email: 'ada@example.com' } },
      },
    });
  });

  it('leaves an incomplete card to the Payment Element, and says why Stripe.js refused another', async () => {
    const gateway = await renderReadyForm();
    stripeMocks.elements.submit.mockResolvedValueOnce({ error: { type: 'validation_error', message: 'Your card number is incomplete.' } });
    await expect(gateway.collectLocation({ billingDetails: BILLING, returnUrl: RETURN_URL })).resolves.toEqual({ status: 'incomplete' });
    stripeMocks.stripe.createConfirmationToken.mockResolvedValueOnce({ error: { type: 'card_error', message: 'Your card was declined.' } });
    await expect(gateway.collectLocation({ billingDetails: BILLING, returnUrl: RETURN_URL })).resolves.toEqual({
      status: 'failed',
      message: 'Your card was declined.',
    });
  });

  it("confirms the checkout's current PaymentIntent (replaced for tax) with the token, redirect 'if_required'", async () => {
    const gateway = await renderReadyForm();
    stripeMocks.stripe.confirmPayment.mockResolvedValue({ paymentIntent: { id: 'pi_3Taxed', status: 'succeeded' } });

    await collectAndConfirm(gateway);

    expect(stripeMocks.stripe.confirmPayment).toHaveBeenCalledWith({
      clientSecret: TAXED_SECRET,
      confirmParams: { return_url: RETURN_URL, confirmation_token: 'ctoken_Test' },
      redirect: 'if_required',
    });
  });

  it('never confirms without a collected card', async () => {
    const gateway = await renderReadyForm();
    await expect(gateway.confirmPayment({ clientSecret: TAXED_SECRET, billingDetails: BILLING, returnUrl: RETURN_URL })).resolves.toEqual({
      status: 'failed',
      message: PAYMENT_NOT_COMPLETED_MESSAGE,
    });
    expect(stripeMocks.stripe.confirmPayment).not.toHaveBeenCalled();
  });

  it.each([
    ['succeeded', { paymentIntent: { id: 'pi_3Test', status: 'succeeded' } }, { status: 'succeeded', paymentIntentId: 'pi_3Test' }],
    ['processing', { paymentIntent: { id: 'pi_3Test', status: 'processing' } }, { status: 'processing', paymentIntentId: 'pi_3Test' }],
    [
      'a decline',
      { error: { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' } },
      { status: 'failed', message: 'Your card was declined.' },
    ],
    [
      'an error without a message',
      { error: { type: 'api_error' } },
      { status: 'failed', message: 'An error occurred during payment. Please try again.' },
    ],
    [
      'requires_payment_method',
      { paymentIntent: { id: 'pi_3Test', status: 'requires_payment_method' } },
      { status: 'failed', message: PAYMENT_NOT_COMPLETED_MESSAGE },
    ],
    [
      'requires_action',
      { paymentIntent: { id: 'pi_3Test', status: 'requires_action' } },
      { status: 'failed', message: PAYMENT_NOT_COMPLETED_MESSAGE },
    ],
  ])('maps %s', async (_case, result, confirmation) => {
    const gateway = await renderReadyForm();
    stripeMocks.stripe.confirmPayment.mockResolvedValue(result);

    await expect(collectAndConfirm(gateway)).resolves.toEqual(confirmation);
  });

  it('rejects when Stripe.js itself fails (the checkout shows its payment error)', async () => {
    const gateway = await renderReadyForm();
    stripeMocks.stripe.confirmPayment.mockRejectedValue(new Error('network down'));
    await expect(collectAndConfirm(gateway)).rejects.toThrow('network down');
  });
});

describe('the checkout’s payment form host', () => {
  it('hands the checkout the Stripe gateway once the element is ready', async () => {
    stubFetch({ '/api/config': () => ({ status: 200, body: STRIPE_CONFIG }) });
    const onReady = vi.fn();
    render(<PaymentForm clientSecret={CLIENT_SECRET} disabled={false} onReady={onReady} onCardDetailsChange={vi.fn()} />);
    await screen.findByTestId('payment-element');
    act(() => lastPaymentElement().onReady());
    await waitFor(() => expect(onReady).toHaveBeenCalledWith(expect.objectContaining({ provider: 'stripe' })));
  });
});
