/** The team's rules both sides share (docs/decisions/0032-seat-rules.md). */

/** Days an invitation link works. */
export const INVITATION_LINK_DAYS = 7;

/** The practice an invitation names: the buyer's (the checkout asks no practice name). */
export const practiceName = (buyerName: string) => `${buyerName}’s practice`;

/**
 * Who holds seat 1 (docs/decisions/0038-seat-one-to-someone-else.md): the buyer, unless seat 1 was given to
 * someone who claimed it. A seat-1 invitation not yet accepted leaves the buyer's login on seat 1. `seats` are the
 * order's seats given to someone (status as the team shows it); the buyer manages the subscription either way.
 */
export function seatOneHolder<T extends { seatNumber: number; status: string }>(seats: readonly T[]): T | 'buyer' {
  return seats.find((seat) => seat.seatNumber === 1 && seat.status === 'claimed') ?? 'buyer';
}

/** The seat-1 invitation or holder on the order (invited or claimed), if seat 1 was given to someone. */
export function seatOneGiven<T extends { seatNumber: number; status: string }>(seats: readonly T[]): T | undefined {
  return seats.find((seat) => seat.seatNumber === 1 && (seat.status === 'invited' || seat.status === 'claimed'));
}
