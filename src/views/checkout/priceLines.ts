/**
 * The seat selector's price lines for a team of `seats`, derived from the pricing module: first seat, the free
 * second seat, the further seats, and the monthly total.
 */
import { FREE_SEAT_NUMBER, formatDollars, monthlyTotalCents, SEAT_PRICE_CENTS, seatPriceCents } from '../../domain/pricing';

interface PriceLine {
  label: string;
  amount: string;
}

function priceText(cents: number): string {
  return cents === 0 ? 'FREE' : formatDollars(cents);
}

/** One line per kind of seat the team has: 'First seat', 'Second seat', 'Additional seats (N × $500)'. */
export function priceLines(seats: number): PriceLine[] {
  const lines: PriceLine[] = [{ label: 'First seat', amount: priceText(seatPriceCents(1)) }];
  if (seats >= FREE_SEAT_NUMBER) lines.push({ label: 'Second seat', amount: priceText(seatPriceCents(FREE_SEAT_NUMBER)) });
  const additional = Math.max(0, seats - FREE_SEAT_NUMBER);
  if (additional > 0) {
    const seatNumbers = Array.from({ length: additional }, (_, index) => FREE_SEAT_NUMBER + 1 + index);
    const cents = seatNumbers.reduce((sum, seat) => sum + seatPriceCents(seat), 0);
    lines.push({ label: `Additional seats (${additional} × ${formatDollars(SEAT_PRICE_CENTS)})`, amount: priceText(cents) });
  }
  return lines;
}

/** The monthly total for `seats`, formatted: '$500', '$1,000'. */
export function monthlyTotalText(seats: number): string {
  return formatDollars(monthlyTotalCents(seats));
}
