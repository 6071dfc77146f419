import type { RefObject } from 'react';
import styled from 'styled-components';
import { TOASTS } from '../../machines/toasts';
import { Card } from '../shared/Card';
import { LoadingStatus } from '../shared/Spinner';
import { colors } from '../theme';
import { CheckoutActor } from './checkoutActor';
import { selectInitFailed, selectSession } from './checkoutSelectors';
import { CheckoutForm } from './CheckoutForm';

interface PaymentPanelProps {
  /** The scroll target of 'go to the checkout form'. */
  anchorRef: RefObject<HTMLElement | null>;
  firstNameRef: RefObject<HTMLInputElement | null>;
}

/** The right-hand panel: a spinner until the payment session exists, then the payment form. */
export function PaymentPanel({ anchorRef, firstNameRef }: PaymentPanelProps) {
  const hasSession = CheckoutActor.useSelector(selectSession) !== null;
  const initFailed = CheckoutActor.useSelector(selectInitFailed);

  return (
    <Panel ref={anchorRef} id="checkout-form" aria-label="Checkout">
      {hasSession ? (
        <CheckoutForm firstNameRef={firstNameRef} />
      ) : initFailed ? (
        <InitError role="alert">{TOASTS.initializationError.description}</InitError>
      ) : (
        <LoadingStatus size={28}>Initializing secure checkout...</LoadingStatus>
      )}
    </Panel>
  );
}

const Panel = styled(Card)`
  scroll-margin-top: 96px;
`;

const InitError = styled.p`
  padding: 24px 8px;
  color: ${colors.danger};
  text-align: center;
`;
