/** The console order page's team: who holds each seat and who has signed the training agreement (docs/decisions/0063). */
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TeamSeat } from '../../src/contract/team';
import { OrderSeats } from '../../src/views/admin/OrderSeats';

const seat = (overrides: Partial<TeamSeat>): TeamSeat => ({
  id: '00000000-0000-4000-8000-000000000002',
  seatNumber: 2,
  status: 'claimed',
  email: 'bo@example.com',
  name: 'Bo Chen',
  invitedAt: '2026-01-05T09:00:00.000Z',
  claimedAt: '2026-01-05T10:00:00.000Z',
  revokedAt: null,
  agreementSignedAt: null,
  ...overrides,
});

describe('the console’s team seats', () => {
  it('shows who signed the agreement and who has not yet, the buyer included', () => {
    render(
      <OrderSeats
        buyerAgreementSignedAt="2026-01-05T11:30:00.000Z"
        seats={[
          seat({ agreementSignedAt: '2026-01-06T08:00:00.000Z' }),
          seat({ id: '00000000-0000-4000-8000-000000000003', seatNumber: 3, email: 'cy@example.com', name: 'Cy Diaz' }),
          seat({ id: '00000000-0000-4000-8000-000000000004', seatNumber: 4, status: 'invited', email: 'di@example.com', claimedAt: null }),
        ]}
      />,
    );
    expect(screen.getByTestId('buyer-agreement')).toHaveTextContent('The buyer’s agreement: Signed Jan 5, 2026, 11:30 AM.');
    const rows = within(screen.getByRole('table', { name: 'Team seats' })).getAllByRole('row');
    expect(within(rows[0]!).getByRole('columnheader', { name: 'Agreement' })).toBeInTheDocument();
    expect(rows[1]).toHaveTextContent('Signed Jan 6, 2026, 8:00 AM');
    expect(rows[2]).toHaveTextContent('Not signed yet');
    // An invitation nobody accepted has no one to sign yet.
    expect(rows[3]).not.toHaveTextContent(/Signed|Not signed/);
  });

  it('says the buyer has not signed while their agreement is pending', () => {
    render(<OrderSeats buyerAgreementSignedAt={null} seats={[]} />);
    expect(screen.getByTestId('buyer-agreement')).toHaveTextContent('The buyer’s agreement: Not signed yet.');
  });
});
