import styled from 'styled-components';
import { ActionButton } from '../shared/ActionButton';
import { Link } from 'wouter';
import { formatDollars } from '../../domain/pricing';
import { LoadingStatus } from '../shared/Spinner';
import { colors, radii } from '../theme';
import { CheckoutActor } from './checkoutActor';
import { selectFinalizeFailed, selectRecentPurchase, selectResume } from './checkoutSelectors';

/** The copy of the charged-but-not-finalized notices (docs/decisions/0006). */
const ORDER_NOTICES = {
  paymentReceived: 'Payment received, completing your order…',
  paymentReceivedDetail: 'Your card was charged once. We are creating your login; this does not charge you again.',
  retry: 'Complete my order',
  checking: 'Checking your earlier payment…',
  checkFailed: 'We could not check your earlier payment yet. It is safe to try again: you will not be charged twice.',
  checkAgain: 'Check again',
} as const;

/**
 * After a charge whose finalize failed: says the payment was received and offers the retry, which finalizes only
 * (the card is never confirmed again). Announced as a status, not an error: nothing is wrong with the payment.
 */
export function PaymentReceivedNotice() {
  const actorRef = CheckoutActor.useActorRef();
  const failed = CheckoutActor.useSelector(selectFinalizeFailed);
  if (!failed) return null;
  return (
    <Notice role="status">
      <strong>{ORDER_NOTICES.paymentReceived}</strong>
      <span>{ORDER_NOTICES.paymentReceivedDetail}</span>
      <ActionButton type="button" onClick={() => actorRef.send({ type: 'ORDER_RETRY_CLICKED' })}>
        {ORDER_NOTICES.retry}
      </ActionButton>
    </Notice>
  );
}

/** While the page finalizes a payment this browser started earlier, or offers to check it again. */
export function ResumeNotice() {
  const actorRef = CheckoutActor.useActorRef();
  const resume = CheckoutActor.useSelector(selectResume);
  if (resume === 'checking') return <LoadingStatus size={28}>{ORDER_NOTICES.checking}</LoadingStatus>;
  if (resume !== 'failed') return null;
  return (
    <Notice role="status">
      <strong>{ORDER_NOTICES.checkFailed}</strong>
      <ActionButton type="button" onClick={() => actorRef.send({ type: 'ORDER_RETRY_CLICKED' })}>
        {ORDER_NOTICES.checkAgain}
      </ActionButton>
    </Notice>
  );
}

/**
 * This browser bought in the last 24 hours (docs/decisions/0007): the order, and a link to its success page. Buying
 * again stays possible below; it is just no longer an accident.
 */
export function RecentPurchaseNotice() {
  const purchase = CheckoutActor.useSelector(selectRecentPurchase);
  if (!purchase) return null;
  const seats = `${purchase.seats} ${purchase.seats === 1 ? 'seat' : 'seats'}`;
  return (
    <Notice aria-label="Your recent order">
      <strong>You already bought in this browser today</strong>
      <span>{`${seats}, ${formatDollars(Math.round(purchase.totalAmount * 100))}/month, for ${purchase.email}.`}</span>
      <Link href="/payment-success">View your order and login details</Link>
      <span>To buy for another team, fill in the form below.</span>
    </Notice>
  );
}

const Notice = styled.section`
  display: flex;
  flex-direction: column;
  gap: 8px;
  margin-bottom: 16px;
  padding: 16px;
  border: 1px solid ${colors.border};
  border-left: 4px solid ${colors.brand};
  border-radius: ${radii.medium};
  background: ${colors.surface};
  font-size: 0.9375rem;

  a {
    font-weight: 700;
  }
`;
