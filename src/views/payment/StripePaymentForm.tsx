import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import type { Appearance, Stripe, StripePaymentElementOptions } from '@stripe/stripe-js';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import styled from 'styled-components';
import { colors } from '../theme';
import { elementColors } from './elementColors';
import { LoadingPaymentForm } from './LoadingPaymentForm';
import type { PaymentFormProps } from './PaymentFormProps';
import { createStripeGateway } from '../../payments/stripeGateway';
import { loadStripeOnce } from '../../payments/stripeLoader';

interface StripePaymentFormProps extends PaymentFormProps {
  /** Stripe's publishable key from GET /api/config; null when the server has none. */
  publishableKey: string | null;
}

export const STRIPE_FORM_MESSAGES = {
  notConfigured: 'Card payments are not configured. Please contact support.',
  unavailable: 'The secure payment form could not be loaded. Please check your connection and refresh the page.',
} as const;

/**
 * The Payment Element's options (Stripe.js reference, "Create the Payment Element"): tabs layout and card only
 * (spec §9 "Payment layout: tabs, card as the only method"; the server's subscription allows
 * payment_method_types ['card']), and no Apple Pay or Google Pay, which would otherwise appear beside a card.
 */
const PAYMENT_ELEMENT_OPTIONS = {
  layout: 'tabs',
  paymentMethodOrder: ['card'],
  wallets: { applePay: 'never', googlePay: 'never' },
} as const satisfies StripePaymentElementOptions;

/** The Elements theme, matching the sandbox card form's colours (src/views/shared/TextField.tsx). */
const APPEARANCE: Appearance = {
  theme: 'stripe',
  variables: {
    colorPrimary: elementColors.focus,
    colorText: elementColors.text,
    colorDanger: elementColors.danger,
    borderRadius: '5px',
  },
};

type StripeLoad = { status: 'loading' } | { status: 'ready'; stripe: Stripe } | { status: 'failed' };

/** Loads Stripe.js for `publishableKey` when the form mounts (one load per key for the page: stripeLoader.ts). */
function useStripeJs(publishableKey: string | null): StripeLoad {
  const [load, setLoad] = useState<StripeLoad>({ status: 'loading' });
  useEffect(() => {
    if (!publishableKey) return;
    let current = true;
    loadStripeOnce(publishableKey).then(
      (stripe) => current && setLoad(stripe ? { status: 'ready', stripe } : { status: 'failed' }),
      () => current && setLoad({ status: 'failed' }),
    );
    return () => {
      current = false;
    };
  }, [publishableKey]);
  return load;
}

/**
 * Stripe's Payment Element for `clientSecret`: 'Loading payment form...' until the element is ready, then it
 * hands the checkout a Stripe gateway (stripeGateway.ts) through `onReady`. The parent re-creates it when the
 * client secret or the update counter changes (spec §4), so Elements is made once per client secret.
 */
export function StripePaymentForm({ publishableKey, clientSecret, disabled, onReady, onCardDetailsChange }: StripePaymentFormProps) {
  const load = useStripeJs(publishableKey);
  if (!publishableKey) return <Failure role="alert">{STRIPE_FORM_MESSAGES.notConfigured}</Failure>;
  if (load.status === 'failed') return <Failure role="alert">{STRIPE_FORM_MESSAGES.unavailable}</Failure>;
  if (load.status === 'loading') return <LoadingPaymentForm />;
  return (
    <Elements stripe={load.stripe} options={{ clientSecret, appearance: APPEARANCE }}>
      <PaymentElementForm disabled={disabled} onReady={onReady} onCardDetailsChange={onCardDetailsChange} />
    </Elements>
  );
}

function PaymentElementForm({ disabled, onReady, onCardDetailsChange }: Omit<PaymentFormProps, 'clientSecret'>) {
  const stripe = useStripe();
  const elements = useElements();
  const [status, setStatus] = useState<'loading' | 'ready' | 'failed'>('loading');
  const onReadyRef = useRef(onReady);
  const onCardDetailsChangeRef = useRef(onCardDetailsChange);
  const cardEmpty = useRef(true);
  useEffect(() => {
    onReadyRef.current = onReady;
    onCardDetailsChangeRef.current = onCardDetailsChange;
  });
  // Locked while the order is processed (spec §5: "disabled while processing").
  const options = useMemo(() => ({ ...PAYMENT_ELEMENT_OPTIONS, readOnly: disabled }), [disabled]);

  const handleReady = useCallback(() => {
    if (!stripe || !elements) return;
    setStatus('ready');
    onReadyRef.current(createStripeGateway(stripe, elements));
  }, [stripe, elements]);

  if (status === 'failed') return <Failure role="alert">{STRIPE_FORM_MESSAGES.unavailable}</Failure>;
  return (
    <>
      {status === 'loading' && <LoadingPaymentForm />}
      <PaymentElement
        options={options}
        onReady={handleReady}
        onLoadError={() => setStatus('failed')}
        onChange={(event) => {
          // Stripe's `change` event: `empty` is true while the element's fields hold nothing.
          if (event.empty === cardEmpty.current) return;
          cardEmpty.current = event.empty;
          onCardDetailsChangeRef.current(event.empty);
        }}
      />
    </>
  );
}

const Failure = styled.p`
  padding: 16px 0;
  color: ${colors.danger};
`;
