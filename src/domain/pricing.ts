/**
 * Seat pricing: the one rule for what a team of N seats costs a month.
 * Source: spec §1 and §9 ("Total is $500 for 1 or 2 seats, otherwise $500 + (seats - 2) * $500").
 * Shared by the page (display) and the server (the price authority). All money is integer cents.
 */

/** Price of one paid seat per month, in cents ($500). */
export const SEAT_PRICE_CENTS = 50_000;

/** The seat that is free (spec §1: "the second seat is free"). */
export const FREE_SEAT_NUMBER = 2;

/** Smallest team (spec §5: "Seat count cannot go below 1"). */
export const MIN_SEATS = 1;

/**
 * The most seats sold when the server's MAX_SEATS is not set (server/config.ts reads this default), and the
 * checkout's limit in a page the server did not fill in (the build's, a test's).
 */
export const DEFAULT_MAX_SEATS = 100;

/** The element that carries `{ maxSeats }`, the server's MAX_SEATS, in every page it sends (server/referrals/offerPage.ts). */
export const CHECKOUT_LIMITS_ELEMENT_ID = 'checkout-limits';

/** Why '+' stopped at `maxSeats`, in words at the count box. */
export function seatLimitNotice(maxSeats: number): string {
  return `At most ${maxSeats} seats can be bought here. For a larger team, please contact us.`;
}

/**
 * Why a typed seat count is refused, in words at the count box, or null when `text` is a whole number from
 * MIN_SEATS to `maxSeats` (spaces around it allowed).
 */
export function seatEntryRefusal(text: string, maxSeats: number): string | null {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return `Type a number of seats, from ${MIN_SEATS} to ${maxSeats}.`;
  const seats = Number(trimmed);
  if (seats < MIN_SEATS) return `Your team has at least ${MIN_SEATS} seat.`;
  return seats > maxSeats ? seatLimitNotice(maxSeats) : null;
}

/** True when `seats` is a whole number of at least one seat. */
export function isValidSeatCount(seats: number): boolean {
  return Number.isInteger(seats) && seats >= MIN_SEATS;
}

function assertSeatCount(seats: number): void {
  if (!isValidSeatCount(seats)) {
    throw new RangeError(`Seat count must be an integer of at least ${MIN_SEATS}, got ${seats}`);
  }
}

/**
 * Monthly price of one seat, by its 1-based position in the team, in cents.
 * @throws RangeError when `seatNumber` is not an integer ≥ 1.
 */
export function seatPriceCents(seatNumber: number): number {
  assertSeatCount(seatNumber);
  return seatNumber === FREE_SEAT_NUMBER ? 0 : SEAT_PRICE_CENTS;
}

/**
 * Monthly total for a team of `seats`, in cents: 1 or 2 seats → 50 000; each seat after the second adds 50 000.
 * @throws RangeError when `seats` is not an integer ≥ 1.
 */
export function monthlyTotalCents(seats: number): number {
  assertSeatCount(seats);
  const paidSeats = seats >= FREE_SEAT_NUMBER ? seats - 1 : seats;
  return paidSeats * SEAT_PRICE_CENTS;
}

/** What the free seat saves a month, in cents, for a team of `seats` (0 below two seats). */
export function monthlySavingCents(seats: number): number {
  assertSeatCount(seats);
  return seats >= FREE_SEAT_NUMBER ? SEAT_PRICE_CENTS : 0;
}

/**
 * Formats cents as whole US dollars the way the spec writes prices: 50000 → "$500", 100000 → "$1,000".
 * Cents are kept when present (1050 → "$10.50").
 */
export function formatDollars(cents: number): string {
  if (!Number.isInteger(cents)) throw new RangeError(`Money must be integer cents, got ${cents}`);
  const whole = cents % 100 === 0;
  return new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: whole ? 0 : 2,
    maximumFractionDigits: whole ? 0 : 2,
  }).format(cents / 100);
}

/** Cents to dollars for the edges the spec names in dollars (the stored payment record's totalAmount). */
export function centsToDollars(cents: number): number {
  return cents / 100;
}
