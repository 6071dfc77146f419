import { useEffect, useRef } from 'react';
import styled from 'styled-components';
import { formatDollars, monthlyTotalCents } from '../../domain/pricing';
import { taxNameOf } from '../../domain/tax';
import { colors, radii } from '../theme';
import { CheckoutActor } from './checkoutActor';
import { selectPendingSeats, selectQuotedTax } from './checkoutSelectors';
import { SubmitButton } from './SubmitButton';

/**
 * The step where the total changes with tax (decision 0071): the new monthly total, shown also in the order
 * summary, and a button that pays exactly it. The pay button takes the focus, so a keyboard buyer lands on it.
 */
export function TaxConfirmation() {
  const actorRef = CheckoutActor.useActorRef();
  const tax = CheckoutActor.useSelector(selectQuotedTax);
  const seats = CheckoutActor.useSelector(selectPendingSeats);
  const payRef = useRef<HTMLButtonElement>(null);
  useEffect(() => payRef.current?.focus(), []);
  if (!tax) return null;
  const total = formatDollars(monthlyTotalCents(seats) + tax.taxCents);
  return (
    <Panel role="group" aria-labelledby="tax-confirmation-title">
      <Title id="tax-confirmation-title">{`Your total is ${total}/month with tax`}</Title>
      <p>{`Your location owes ${taxNameOf(tax.taxState)}: ${formatDollars(tax.taxCents)} a month.`}</p>
      <SubmitButton ref={payRef} type="button" onClick={() => actorRef.send({ type: 'TAX_CONFIRMED' })}>
        {`Pay ${total} monthly`}
      </SubmitButton>
      <Back type="button" onClick={() => actorRef.send({ type: 'TAX_DECLINED' })}>
        Change card details
      </Back>
    </Panel>
  );
}

const Panel = styled.div`
  display: flex;
  flex-direction: column;
  gap: 8px;
  padding: 16px;
  border: 1px solid ${colors.border};
  border-radius: ${radii.medium};
  background: ${colors.surface};
  color: ${colors.ink};
`;

const Title = styled.p`
  font-size: 1.0625rem;
  font-weight: 700;
`;

const Back = styled.button`
  align-self: center;
  border: none;
  background: none;
  color: ${colors.brand};
  text-decoration: underline;
  cursor: pointer;
`;
