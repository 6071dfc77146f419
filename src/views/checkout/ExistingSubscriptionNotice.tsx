import { useActorRef, useSelector } from '@xstate/react';
import { useEffect } from 'react';
import styled from 'styled-components';
import { Link } from 'wouter';
import { PAGE_PATHS } from '../../domain/pagePaths';
import { existingSubscriptionMachine } from '../../machines/existingSubscriptionMachine';
import { colors, radii } from '../theme';
import { CheckoutActor } from './checkoutActor';

/**
 * Under the email field: 'You already have a subscription: manage it' when the email typed already has an active
 * subscription this browser holds (src/machines/existingSubscriptionMachine.ts, decision 0031). Buying again stays
 * possible (another team is a deliberate purchase); the notice only says where the first one is managed.
 */
export function ExistingSubscriptionNotice({ machine = existingSubscriptionMachine }: { machine?: typeof existingSubscriptionMachine }) {
  const email = CheckoutActor.useSelector((snapshot) => snapshot.context.form.email);
  const checkRef = useActorRef(machine);
  const found = useSelector(checkRef, (snapshot) => snapshot.matches('found'));
  useEffect(() => {
    checkRef.send({ type: 'EMAIL_CHANGED', email });
  }, [checkRef, email]);
  // A live region that is always there, so the notice is read out when it appears.
  return (
    <div aria-live="polite">
      {found && (
        <Notice>
          You already have a subscription: <Link href={PAGE_PATHS.account}>manage it</Link>.
        </Notice>
      )}
    </div>
  );
}

const Notice = styled.p`
  margin: 0;
  padding: 10px 12px;
  border: 1px solid #fdba74;
  border-radius: ${radii.small};
  background: ${colors.warningSoft};
  color: #9a3412;
  font-size: 0.875rem;
  font-weight: 600;

  a {
    color: ${colors.brandDark};
    font-weight: 700;
  }
`;
