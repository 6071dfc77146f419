import { useRef } from 'react';
import styled from 'styled-components';
import { useOfferReferrer } from '../../content/offerReferrer';
import { TOASTS } from '../../machines/toasts';
import { ActionButton } from '../shared/ActionButton';
import { Card } from '../shared/Card';
import { LoadingStatus } from '../shared/Spinner';
import { usePageTitle } from '../shared/usePageTitle';
import { colors } from '../theme';
import { CheckoutActor } from './checkoutActor';
import { selectInitFailed, selectResume, selectSession } from './checkoutSelectors';
import { CheckoutForm } from './CheckoutForm';
import { RecentPurchaseNotice, ResumeNotice } from './OrderNotices';
import { useCheckoutEvents } from './useCheckoutEvents';
import { useLeaveWarning } from './useLeaveWarning';

/**
 * The right-hand panel: this browser's recent order if any, then a spinner until the payment session exists and
 * the payment form; while an earlier payment of this browser is being finalized, that instead. It also carries the
 * page's own effects (what the machine emits: toasts, scrolling to the form, focus, the move to the success page;
 * the leave warning; the title), being the one part of the page that is always there and always live.
 */
export function PaymentPanel() {
  const anchorRef = useRef<HTMLElement>(null);
  const firstNameRef = useRef<HTMLInputElement>(null);
  useCheckoutEvents({ checkoutForm: anchorRef, firstName: firstNameRef });
  useLeaveWarning();
  usePageTitle(`For Friends of Dr. ${useOfferReferrer().name} Only`);
  const hasSession = CheckoutActor.useSelector(selectSession) !== null;
  const initFailed = CheckoutActor.useSelector(selectInitFailed);
  const resuming = CheckoutActor.useSelector(selectResume) !== null;
  const actorRef = CheckoutActor.useActorRef();

  return (
    <Panel ref={anchorRef} id="checkout-form" aria-label="Checkout">
      <RecentPurchaseNotice />
      {resuming ? (
        <ResumeNotice />
      ) : hasSession ? (
        <CheckoutForm firstNameRef={firstNameRef} />
      ) : initFailed ? (
        <InitError role="alert">
          <p>{TOASTS.initializationError.description}</p>
          <ActionButton type="button" onClick={() => actorRef.send({ type: 'INIT_RETRY_CLICKED' })}>
            Try again
          </ActionButton>
        </InitError>
      ) : (
        <LoadingStatus size={28}>Initializing secure checkout...</LoadingStatus>
      )}
    </Panel>
  );
}

const Panel = styled(Card)`
  scroll-margin-top: 96px;
`;

const InitError = styled.div`
  display: flex;
  flex-direction: column;
  align-items: center;
  gap: 12px;
  padding: 24px 8px;
  color: ${colors.danger};
  text-align: center;

  & > button {
    align-self: center;
  }
`;
