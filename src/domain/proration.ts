/**
 * What a seat change in the middle of a paid month costs now (docs/decisions/0045). Both providers compute it
 * the way Stripe prorates (Stripe docs, "Prorations"): by the seconds left in the current period, as two lines,
 * the unused time of the old seats credited and the remaining time of the new seats charged, each rounded half up
 * to the cent on its own, then netted. Money in integer cents; times in whole seconds.
 */
import { roundHalfUpCents } from './commissions';
import { monthlyTotalCents } from './pricing';

/** A seat change at `atSeconds` within the paid period [periodStartSeconds, periodEndSeconds). */
interface SeatChangeMoment {
  fromSeats: number;
  toSeats: number;
  periodStartSeconds: number;
  periodEndSeconds: number;
  atSeconds: number;
}

/** The two proration lines and what they come to, in cents. */
export interface Proration {
  /** The new seats for the time left (≥ 0). */
  chargeCents: number;
  /** The old seats' unused time, given back (≥ 0). */
  creditCents: number;
  /** chargeCents − creditCents: charged now when > 0, a credit on the next invoice when < 0. */
  netCents: number;
  /** The seconds left in the period that the lines cover. */
  secondsLeft: number;
}

/**
 * The proration of a seat change. A change at or after the period's end costs nothing (the renewal bills the new
 * seats); one before its start is prorated as for the whole period.
 * @throws RangeError for seat counts below one or a period that is not at least one second long.
 */
export function seatChangeProration(moment: SeatChangeMoment): Proration {
  const { fromSeats, toSeats, periodStartSeconds, periodEndSeconds, atSeconds } = moment;
  const periodSeconds = Math.round(periodEndSeconds) - Math.round(periodStartSeconds);
  if (!(periodSeconds >= 1)) throw new RangeError(`A billing period must last at least one second, got ${periodSeconds}`);
  const secondsLeft = Math.min(periodSeconds, Math.max(0, Math.round(periodEndSeconds) - Math.round(atSeconds)));
  const chargeCents = roundHalfUpCents(monthlyTotalCents(toSeats) * secondsLeft, periodSeconds);
  const creditCents = roundHalfUpCents(monthlyTotalCents(fromSeats) * secondsLeft, periodSeconds);
  return { chargeCents, creditCents, netCents: chargeCents - creditCents, secondsLeft };
}

/**
 * How long a seat change's quoted amount holds: the buyer confirms the amount the manage page showed, prorated at
 * the moment of the preview (Stripe: `proration_date` on the preview and on the update, Stripe docs, "Prorations":
 * "Preview a proration"), so a few seconds between them cannot move it by a cent; an older quote is asked again.
 */
export const SEAT_QUOTE_SECONDS = 15 * 60;

/** True when a quote made at `quotedSeconds` may still be charged at `nowSeconds` (Unix seconds, one clock). */
export function seatQuoteHolds(quotedSeconds: number, nowSeconds: number): boolean {
  return Number.isInteger(quotedSeconds) && quotedSeconds <= nowSeconds && nowSeconds - quotedSeconds <= SEAT_QUOTE_SECONDS;
}
