import { lazy, Suspense, useEffect, useState } from 'react';
import styled from 'styled-components';
import { colors } from '../theme';
import type { PublicConfig } from '../../contract/checkout';
import { LoadingPaymentForm } from './LoadingPaymentForm';
import type { PaymentFormProps } from './PaymentFormProps';
import { loadPublicConfig } from '../../api/publicConfig';
import { SandboxCardForm } from './SandboxCardForm';

/** Stripe's Payment Element and its libraries load only when Stripe is the provider (the sandbox never needs them). */
const StripePaymentForm = lazy(() => import('./StripePaymentForm').then((module) => ({ default: module.StripePaymentForm })));

type ConfigState = { status: 'loading' } | { status: 'ready'; config: PublicConfig } | { status: 'failed'; message: string };

/** The public configuration, read once per page load (GET /api/config). */
function usePublicConfig(): ConfigState {
  const [state, setState] = useState<ConfigState>({ status: 'loading' });
  useEffect(() => {
    let current = true;
    loadPublicConfig().then(
      (config) => current && setState({ status: 'ready', config }),
      (error: unknown) => current && setState({ status: 'failed', message: error instanceof Error ? error.message : String(error) }),
    );
    return () => {
      current = false;
    };
  }, []);
  return state;
}

/**
 * The card payment form for the server's provider: the sandbox card form, or Stripe's Payment Element.
 * Mount it keyed by client secret and update counter, so it is re-created when either changes (spec §4).
 */
export function PaymentForm(props: PaymentFormProps) {
  const state = usePublicConfig();
  if (state.status === 'loading') return <LoadingPaymentForm />;
  if (state.status === 'failed') return <Failure role="alert">{state.message}</Failure>;
  if (state.config.paymentProvider === 'sandbox') return <SandboxCardForm {...props} />;
  return (
    <Suspense fallback={<LoadingPaymentForm />}>
      <StripePaymentForm {...props} publishableKey={state.config.stripePublishableKey} />
    </Suspense>
  );
}

const Failure = styled.p`
  padding: 16px 0;
  color: ${colors.danger};
`;
