import styled from 'styled-components';
import { benefitPhrases } from '../../content/offer';
import { deliverableForSeat } from '../../domain/deliverables';
import { formatDollars, monthlyTotalCents, seatPriceCents } from '../../domain/pricing';
import { taxNameOf } from '../../domain/tax';
import { Card, CardTitle } from '../shared/Card';
import { colors } from '../theme';
import { CheckoutActor } from './checkoutActor';
import { selectPendingSeats, selectQuotedTax } from './checkoutSelectors';
import { monthlyTotalText } from './priceLines';

/** How a seat's price reads in the summary: '$500', or '$0 (FREE)' for the free seat. */
function seatPriceText(seat: number): string {
  const cents = seatPriceCents(seat);
  return cents === 0 ? `${formatDollars(0)} (FREE)` : formatDollars(cents);
}

/**
 * The order summary: one row per pending seat with its deliverable and price, the monthly total and the tax note;
 * once the buyer's location owes tax, the seats' subtotal, the tax line and the total with tax (decision 0071).
 */
export function OrderSummary() {
  const seats = CheckoutActor.useSelector(selectPendingSeats);
  const tax = CheckoutActor.useSelector(selectQuotedTax);
  const seatNumbers = Array.from({ length: seats }, (_, index) => index + 1);

  return (
    <Card aria-labelledby="order-summary-title">
      <CardTitle id="order-summary-title">Order Summary</CardTitle>
      <Table>
        <thead>
          <tr>
            <th scope="col">Seat #</th>
            <th scope="col">Deliverable</th>
            <Amount as="th" scope="col">
              Price
            </Amount>
          </tr>
        </thead>
        <tbody>
          {seatNumbers.map((seat) => (
            <tr key={seat}>
              <td>{seat}</td>
              <td>{deliverableForSeat(seat, benefitPhrases)}</td>
              <Amount>{seatPriceText(seat)}</Amount>
            </tr>
          ))}
        </tbody>
      </Table>
      {tax && (
        <>
          <Line>
            <span>Subtotal</span>
            <span>{monthlyTotalText(seats)}</span>
          </Line>
          <Line>
            <TaxName>{taxNameOf(tax.taxState)}</TaxName>
            <span data-testid="summary-tax">{formatDollars(tax.taxCents)}</span>
          </Line>
        </>
      )}
      <Total>
        <span>Total (monthly)</span>
        <strong data-testid="summary-total">
          {tax ? formatDollars(monthlyTotalCents(seats) + tax.taxCents) : monthlyTotalText(seats)}
        </strong>
      </Total>
      <TaxNote>HI & AZ residents may see applicable GET/sales tax.</TaxNote>
    </Card>
  );
}

const Table = styled.table`
  width: 100%;
  border-collapse: collapse;
  font-size: 0.9375rem;

  th,
  td {
    padding: 10px 8px;
    border-bottom: 1px solid ${colors.border};
    text-align: left;
  }
  th {
    font-size: 0.8125rem;
    text-transform: uppercase;
    letter-spacing: 0.04em;
    white-space: nowrap;
    color: ${colors.muted};
  }
`;

const Amount = styled.td`
  && {
    text-align: right;
    white-space: nowrap;
  }
  font-weight: 600;
  color: ${colors.ink};
`;

const TaxName = styled.span`
  &::first-letter {
    text-transform: uppercase;
  }
`;

const Line = styled.p`
  display: flex;
  justify-content: space-between;
  margin-top: 10px;
  font-size: 0.9375rem;
  color: ${colors.ink};
`;

const Total = styled.p`
  display: flex;
  justify-content: space-between;
  margin-top: 16px;
  font-size: 1.125rem;
  font-weight: 700;
  color: ${colors.ink};
`;

const TaxNote = styled.p`
  margin-top: 6px;
  font-size: 0.8125rem;
  color: ${colors.muted};
`;
