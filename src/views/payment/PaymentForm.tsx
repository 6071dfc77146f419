import { useMachine } from '@xstate/react';
import { lazy, Suspense } from 'react';
import styled from 'styled-components';
import { colors } from '../theme';
import { LoadingPaymentForm } from './LoadingPaymentForm';
import type { PaymentFormProps } from './PaymentFormProps';
import { publicConfigMachine } from '../../machines/publicConfigMachine';
import { SandboxCardForm } from './SandboxCardForm';

/** Stripe's Payment Element and its libraries load only when Stripe is the provider (the sandbox never needs them). */
const StripePaymentForm = lazy(() => import('./StripePaymentForm').then((module) => ({ default: module.StripePaymentForm })));

/**
 * The card payment form for the server's provider: the sandbox card form, or Stripe's Payment Element.
 * Mount it keyed by client secret and update counter, so it is re-created when either changes (spec §4). Its
 * configuration comes through publicConfigMachine.
 */
export function PaymentForm(props: PaymentFormProps) {
  const [snapshot] = useMachine(publicConfigMachine);
  const { config, error } = snapshot.context;
  if (snapshot.matches('failed')) return <Failure role="alert">{error}</Failure>;
  if (!config) return <LoadingPaymentForm />;
  if (config.paymentProvider === 'sandbox') return <SandboxCardForm {...props} />;
  return (
    <Suspense fallback={<LoadingPaymentForm />}>
      <StripePaymentForm {...props} publishableKey={config.stripePublishableKey} />
    </Suspense>
  );
}

const Failure = styled.p`
  padding: 16px 0;
  color: ${colors.danger};
`;
