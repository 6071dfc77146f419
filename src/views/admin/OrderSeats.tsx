/** The order detail's team (issue 22): each seat given to someone, with its status and when (read-only). */
import type { TeamSeat } from '../../contract/team';
import { Card, Muted, SubHeading, Table } from '../shared/panelStyles';

const when = (iso: string | null) =>
  iso ? new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }) : '—';

/** Seat 1 is the buyer's; the rows are seats 2 and on, revoked ones included. */
export function OrderSeats({ seats }: { seats: TeamSeat[] }) {
  return (
    <>
      <SubHeading>Team seats</SubHeading>
      <Card>
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
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </Card>
    </>
  );
}
