/** The order detail's team: each seat given to someone, with its status and when (read-only). */
import type { TeamSeat } from '../../contract/team';
import { seatOneGiven, seatOneHolder } from '../../domain/team';
import { Card, Muted, SubHeading, Table } from '../shared/panelStyles';

const when = (iso: string | null) =>
  iso ? new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }) : '—';

/** A person's training agreement (docs/decisions/0063): signed on a day, or still pending. */
const agreementWords = (signedAt: string | null) => (signedAt ? `Signed ${when(signedAt)}` : 'Not signed yet');

/** Who holds seat 1 (docs/decisions/0038): the buyer, or the person the buyer gave it to. */
function seatOneText(seats: TeamSeat[]): string {
  const holder = seatOneHolder(seats);
  if (holder !== 'buyer') return `Seat 1: ${holder.name} <${holder.email}>, given by the buyer (who still manages the subscription).`;
  const offered = seatOneGiven(seats);
  return offered ? `Seat 1: the buyer’s until ${offered.name} <${offered.email}> accepts it (invited).` : 'Seat 1: the buyer’s.';
}

/**
 * Who holds seat 1, then every seat given to someone (seat 1 too when given away), revoked ones included; for each
 * person, whether they signed the training agreement (the buyer's while the buyer holds seat 1).
 */
export function OrderSeats({ seats, buyerAgreementSignedAt }: { seats: TeamSeat[]; buyerAgreementSignedAt: string | null }) {
  return (
    <>
      <SubHeading>Team seats</SubHeading>
      <Card>
        <p data-testid="seat-one">{seatOneText(seats)}</p>
        {seatOneHolder(seats) === 'buyer' && (
          <p data-testid="buyer-agreement">{`The buyer’s agreement: ${agreementWords(buyerAgreementSignedAt)}.`}</p>
        )}
        {seats.length === 0 ? (
          <Muted>No seat given beyond the buyer’s.</Muted>
        ) : (
          <Table aria-label="Team seats">
            <thead>
              <tr>
                <th>Seat</th>
                <th>Person</th>
                <th>Status</th>
                <th>Invited</th>
                <th>Claimed</th>
                <th>Revoked</th>
                <th>Agreement</th>
              </tr>
            </thead>
            <tbody>
              {seats.map((seat) => (
                <tr key={seat.id}>
                  <td>{seat.seatNumber}</td>
                  <td>{`${seat.name} <${seat.email}>`}</td>
                  <td>{seat.status}</td>
                  <td>{when(seat.invitedAt)}</td>
                  <td>{when(seat.claimedAt)}</td>
                  <td>{when(seat.revokedAt)}</td>
                  <td>{seat.status === 'invited' ? '—' : agreementWords(seat.agreementSignedAt)}</td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </Card>
    </>
  );
}
