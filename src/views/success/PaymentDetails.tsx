import styled from 'styled-components';
import type { PaymentSuccessRecord } from '../../api/paymentRecord';
import { formatDollars } from '../../domain/pricing';
import { PRODUCT_NAME } from '../../domain/product';
import { BreakableText } from '../shared/BreakableText';
import { CallToActionButton } from '../shared/CallToActionButton';
import { focusOnMount } from '../shared/focusHeading';
import { colors, radii } from '../theme';
import { CredentialRow } from './CredentialRow';
import { PaymentSuccessActor } from './paymentSuccessActor';
import { SignInLinkNotice } from './SignInLinkNotice';
import { TeamSection } from '../team/TeamSection';
import { WhatHappensNext } from './WhatHappensNext';

/** The record's monthly total, stored in dollars, as the page shows it: '$1,000/month'. */
function monthlyTotal(record: PaymentSuccessRecord): string {
  return `${formatDollars(Math.round(record.totalAmount * 100))}/month`;
}

/**
 * The confirmed order: summary, login credentials to save, and the hand-off to the training agreement; without
 * credentials (a sign-in link was mailed instead, docs/decisions/0026), the summary and where to get in. Then
 * what happens next. The heading takes the focus when the details appear, so a screen reader announces them.
 */
export function PaymentDetails({ record }: { record: PaymentSuccessRecord }) {
  const actorRef = PaymentSuccessActor.useActorRef();
  const redirecting = PaymentSuccessActor.useSelector((snapshot) => snapshot.matches('redirecting'));

  return (
    <>
      <Header>
        <CheckCircle />
        <h1 ref={focusOnMount} tabIndex={-1}>
          Payment Successful!
        </h1>
        <Lead>Your AI training subscription has been activated</Lead>
      </Header>

      <Box aria-labelledby="success-summary-title">
        <BoxTitle id="success-summary-title">Order Summary</BoxTitle>
        <Summary>
          <div>
            <dt>Transaction ID</dt>
            <dd>
              <BreakableText text={record.transactionId} />
            </dd>
          </div>
          <div>
            <dt>Product</dt>
            <dd>{record.loginDetails?.productPurchased ?? PRODUCT_NAME}</dd>
          </div>
          <div>
            <dt>Seats</dt>
            <dd>{record.seatCount}</dd>
          </div>
          {record.taxAmount ? (
            <div>
              <dt>Tax</dt>
              <dd>{`${formatDollars(Math.round(record.taxAmount * 100))}/month`}</dd>
            </div>
          ) : null}
          <div>
            <dt>Total</dt>
            <dd>{monthlyTotal(record)}</dd>
          </div>
        </Summary>
      </Box>

      {record.loginDetails ? (
        <>
          <Warning aria-labelledby="credentials-title">
            <WarningTitle id="credentials-title">IMPORTANT: Save Your Login Credentials</WarningTitle>
            <Credentials>
              <CredentialRow field="email" label="Email" value={record.loginDetails.email} />
              <CredentialRow field="password" label="Password" value={record.loginDetails.password} />
            </Credentials>
          </Warning>

          <Notice>You must sign the training agreement before you can access the training platform.</Notice>

          <Action>
            <SignButton type="button" disabled={redirecting} onClick={() => actorRef.send({ type: 'SIGN_AGREEMENT_CLICKED' })}>
              {redirecting ? 'Redirecting...' : 'Sign Training Agreement →'}
            </SignButton>
            <Small>Required to complete account setup</Small>
          </Action>

          <WhatHappensNext email={record.email} />
        </>
      ) : (
        <SignInLinkNotice email={record.email} />
      )}
      {record.token && record.seatCount > 1 && <TeamSection access={{ kind: 'token', token: record.token }} variant="success" />}
    </>
  );
}

function CheckCircle() {
  return (
    <svg width="64" height="64" viewBox="0 0 64 64" aria-hidden="true" focusable="false">
      <circle cx="32" cy="32" r="32" fill={colors.successSoft} />
      <path d="M20 33l8 8 16-17" fill="none" stroke={colors.success} strokeWidth="4" strokeLinecap="round" />
    </svg>
  );
}

const Header = styled.header`
  display: flex;
  flex-direction: column;
  align-items: center;
  gap: 10px;
  text-align: center;

  h1 {
    font-size: 2rem;
  }
  h1:focus {
    outline: none;
  }
`;

const Lead = styled.p`
  color: ${colors.muted};
`;

const Box = styled.section`
  padding: 20px;
  border: 1px solid ${colors.border};
  border-radius: ${radii.medium};
  background: ${colors.page};
`;

const BoxTitle = styled.h2`
  font-size: 1.0625rem;
  margin-bottom: 12px;
`;

const Summary = styled.dl`
  margin: 0;
  display: flex;
  flex-direction: column;
  gap: 8px;

  div {
    display: flex;
    flex-wrap: wrap;
    justify-content: space-between;
    gap: 0 16px;
  }
  dt {
    color: ${colors.muted};
  }
  dd {
    margin: 0;
    font-weight: 600;
    color: ${colors.ink};
    margin-left: auto;
    text-align: right;
    overflow-wrap: anywhere;
  }
`;

const Warning = styled.section`
  padding: 20px;
  border: 2px solid #fb923c;
  border-radius: ${radii.medium};
  background: ${colors.warningSoft};
`;

const WarningTitle = styled.h2`
  font-size: 1.0625rem;
  color: #c2410c;
  margin-bottom: 12px;
`;

const Credentials = styled.dl`
  margin: 0;
  display: flex;
  flex-direction: column;
  gap: 12px;
`;

const Notice = styled.p`
  padding: 14px 16px;
  border-radius: ${radii.medium};
  background: ${colors.brandSoft};
  color: ${colors.brandDark};
  font-weight: 600;
  text-align: center;
`;

const Action = styled.div`
  display: flex;
  flex-direction: column;
  align-items: center;
  gap: 8px;
`;

/** Off only while the agreement site's address is read: it says the page is busy. */
const SignButton = styled(CallToActionButton)`
  width: 100%;

  &:disabled {
    opacity: 0.6;
    cursor: progress;
  }
`;

const Small = styled.small`
  color: ${colors.muted};
`;
