/**
 * The seat buttons' hints (spec §9 tooltips): what a button does, or why it is off — a team has at least 1 seat
 * (spec §5), at most the server's MAX_SEATS, and the seats are locked while the server confirms a change or a payment is under way (spec §4).
 */
import { FREE_SEAT_NUMBER, formatDollars, MIN_SEATS, SEAT_PRICE_CENTS, seatLimitNotice } from '../../domain/pricing';

interface SeatButtonState {
  seats: number;
  /** The most seats sold (the statechart's maxSeats). */
  maxSeats: number;
  /** The statechart's seat lock (its `seatsLocked` tag). */
  locked: boolean;
  /** Call 2 is in flight (the lock's most common reason). */
  updating: boolean;
}

/** The hints of the − and + buttons. */
export function seatButtonHints({ seats, maxSeats, locked, updating }: SeatButtonState): { remove: string; add: string } {
  if (locked) {
    const why = updating ? 'Wait until your team size is updated' : 'Your team size cannot change right now';
    return { remove: why, add: why };
  }
  return {
    remove: seats <= MIN_SEATS ? `Your team has at least ${MIN_SEATS} seat` : 'Remove a seat',
    add:
      seats >= maxSeats
        ? seatLimitNotice(maxSeats)
        : seats + 1 === FREE_SEAT_NUMBER
          ? 'Add a seat: your second seat is free'
          : `Add a seat: ${formatDollars(SEAT_PRICE_CENTS)}/month`,
  };
}
