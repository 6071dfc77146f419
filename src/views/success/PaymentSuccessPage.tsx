import { useEffect, useRef } from 'react';
import styled from 'styled-components';
import { Link, useLocation, useSearch } from 'wouter';
import type { InspectionEvent, Observer } from 'xstate';
import { paymentSuccessMachine } from '../../machines/paymentSuccessMachine';
import { PAGE_PATHS } from '../../domain/pagePaths';
import { ActionButton } from '../shared/ActionButton';
import { BreakableText } from '../shared/BreakableText';
import { focusOnMount } from '../shared/focusHeading';
import { SiteHeader } from '../shared/SiteHeader';
import { LoadingStatus } from '../shared/Spinner';
import { usePageTitle } from '../shared/usePageTitle';
import { notify } from '../toasts/lazyToasts';
import { colors, media, radii, shadows } from '../theme';
import { PaymentDetails } from './PaymentDetails';
import { PaymentSuccessActor, type PaymentSuccessLogic } from './paymentSuccessActor';

export interface PaymentSuccessPageProps {
  /** The success-page statechart; tests pass one with its actors replaced. */
  machine?: PaymentSuccessLogic;
  /** Leaves for the success site; tests pass a spy. */
  redirect?: (url: string) => void;
  /** XState inspection observer (the Stately inspector in development). */
  inspect?: Observer<InspectionEvent>;
}

const browserRedirect = (url: string) => window.location.assign(url);

/**
 * The confirmation page (/payment-success): reads the stored payment record, or finalizes from the address's
 * PaymentIntent parameters after a 3-D Secure redirect return, and hands the buyer on; once handed on, it sends the
 * buyer to /account for the team. Without a record, a buyer whose purchase this browser remembers is sent to
 * /account; anyone else back to the checkout (spec §4).
 */
export function PaymentSuccessPage({ machine = paymentSuccessMachine, redirect = browserRedirect, inspect }: PaymentSuccessPageProps) {
  const search = useSearch();
  usePageTitle('Payment Successful');
  return (
    <PaymentSuccessActor.Provider logic={machine} options={{ input: { search }, inspect }}>
      <PaymentSuccessContent redirect={redirect} />
    </PaymentSuccessActor.Provider>
  );
}

function usePaymentSuccessEvents(redirect: (url: string) => void): void {
  const actorRef = PaymentSuccessActor.useActorRef();
  const [, navigate] = useLocation();
  const redirectRef = useRef(redirect);
  useEffect(() => {
    redirectRef.current = redirect;
  });
  useEffect(() => {
    const subscriptions = [
      actorRef.on('toast', (event) => notify(event.toast)),
      actorRef.on('redirectRequested', (event) => redirectRef.current(event.url)),
      // The record is stored now; the PaymentIntent's client secret leaves the address bar and the history.
      actorRef.on('paymentReturnConsumed', () => navigate('/payment-success', { replace: true })),
    ];
    return () => subscriptions.forEach((subscription) => subscription.unsubscribe());
  }, [actorRef, navigate]);
}

function PaymentSuccessContent({ redirect }: { redirect: (url: string) => void }) {
  usePaymentSuccessEvents(redirect);
  const loading = PaymentSuccessActor.useSelector((snapshot) => snapshot.hasTag('loading'));
  const record = PaymentSuccessActor.useSelector((snapshot) => snapshot.context.record);
  const unreadable = PaymentSuccessActor.useSelector((snapshot) => snapshot.hasTag('unreadable'));
  const canRetry = PaymentSuccessActor.useSelector((snapshot) => snapshot.can({ type: 'RETURN_RETRY_CLICKED' }));
  const actorRef = PaymentSuccessActor.useActorRef();
  const handedOff = PaymentSuccessActor.useSelector((snapshot) => snapshot.matches('handedOff'));
  const knownPurchaseEmail = PaymentSuccessActor.useSelector((snapshot) =>
    snapshot.matches('purchaseKnown') ? snapshot.context.knownPurchaseEmail : null,
  );

  return (
    <>
      <SiteHeader>
        <Link href={PAGE_PATHS.account}>Your account</Link>
      </SiteHeader>
      <Page>
        <Panel>
          {loading ? (
            <LoadingStatus>Loading payment details...</LoadingStatus>
          ) : handedOff ? (
            // The agreement site redeems the token: nothing here uses it again (docs/decisions/0053).
            <Missing>
              <h1 ref={focusOnMount} tabIndex={-1}>
                On to your training agreement
              </h1>
              <p>
                Your order went on to the training agreement, so this page no longer manages your team. Invite, revoke and reassign seats
                from your account page: we email you a sign-in link.
              </p>
              <Link href={PAGE_PATHS.account}>Manage your team from your account</Link>
            </Missing>
          ) : record ? (
            <PaymentDetails record={record} />
          ) : knownPurchaseEmail ? (
            <Missing>
              <h1 ref={focusOnMount} tabIndex={-1}>
                Your purchase is complete
              </h1>
              <p>
                This browser bought a subscription for{' '}
                <strong>
                  <BreakableText text={knownPurchaseEmail} />
                </strong>{' '}
                today. Its details were shown once; your account has everything now: seats, card, invoices and new login credentials.
              </p>
              <Link href={PAGE_PATHS.account}>Manage your subscription</Link>
            </Missing>
          ) : (
            <Missing>
              <h1 ref={focusOnMount} tabIndex={-1}>
                {unreadable ? 'We could not read your payment details' : 'No payment found'}
              </h1>
              <p>
                {unreadable
                  ? 'Please contact support if you completed a purchase.'
                  : 'This page is shown after a purchase. Start from the checkout to place an order.'}
              </p>
              {canRetry && (
                <ActionButton type="button" onClick={() => actorRef.send({ type: 'RETURN_RETRY_CLICKED' })}>
                  Try again
                </ActionButton>
              )}
              <Link href="/">Return to checkout</Link>
            </Missing>
          )}
        </Panel>
      </Page>
    </>
  );
}

const Page = styled.main`
  min-height: calc(100vh - 64px);
  padding: 48px 16px;
  display: flex;
  justify-content: center;
  align-items: flex-start;

  ${media.narrow} {
    padding: 24px 12px;
  }
`;

const Panel = styled.div`
  width: min(640px, 100%);
  padding: 32px;
  display: flex;
  flex-direction: column;
  gap: 20px;
  background: ${colors.surface};
  border: 1px solid ${colors.border};
  border-radius: ${radii.large};
  box-shadow: ${shadows.card};

  ${media.narrow} {
    padding: 20px;
  }
`;

const Missing = styled.div`
  display: flex;
  flex-direction: column;
  align-items: center;
  gap: 12px;
  text-align: center;

  h1 {
    font-size: 1.5rem;
  }
  h1:focus {
    outline: none;
  }
  a {
    font-weight: 700;
  }
`;
