import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { monthlyTotalCents } from '../../src/domain/pricing';
import { SEAT_QUOTE_SECONDS, seatChangeProration, seatQuoteHolds } from '../../src/domain/proration';

const DAY = 24 * 60 * 60;
const MONTH = 30 * DAY;

describe('seatChangeProration (docs/decisions/0045: by the seconds left, two lines rounded half up)', () => {
  it('charges half a month of one more paid seat in the middle of a 30-day period', () => {
    const proration = seatChangeProration({
      fromSeats: 2,
      toSeats: 3,
      periodStartSeconds: 0,
      periodEndSeconds: MONTH,
      atSeconds: 15 * DAY,
    });
    expect(proration).toEqual({ chargeCents: 50_000, creditCents: 25_000, netCents: 25_000, secondsLeft: 15 * DAY });
  });

  it('charges nothing for the free second seat', () => {
    const proration = seatChangeProration({ fromSeats: 1, toSeats: 2, periodStartSeconds: 0, periodEndSeconds: MONTH, atSeconds: DAY });
    expect(proration.netCents).toBe(0);
  });

  it('credits the unused time of a seat taken away', () => {
    const proration = seatChangeProration({
      fromSeats: 4,
      toSeats: 3,
      periodStartSeconds: 0,
      periodEndSeconds: MONTH,
      atSeconds: 20 * DAY,
    });
    expect(proration.netCents).toBe(-Math.round((50_000 * 10) / 30));
  });

  it('rounds each line half up on its own, then nets them', () => {
    // 1 second left of 3: 100 000 / 3 = 33 333.33 → 33 333; 50 000 / 3 = 16 666.67 → 16 667.
    const proration = seatChangeProration({ fromSeats: 1, toSeats: 3, periodStartSeconds: 0, periodEndSeconds: 3, atSeconds: 2 });
    expect(proration).toEqual({ chargeCents: 33_333, creditCents: 16_667, netCents: 16_666, secondsLeft: 1 });
  });

  it('costs nothing at or after the end of the period, and a whole month before its start', () => {
    expect(
      seatChangeProration({ fromSeats: 1, toSeats: 5, periodStartSeconds: 0, periodEndSeconds: MONTH, atSeconds: MONTH }).netCents,
    ).toBe(0);
    expect(
      seatChangeProration({ fromSeats: 1, toSeats: 5, periodStartSeconds: 0, periodEndSeconds: MONTH, atSeconds: MONTH + 9 }).netCents,
    ).toBe(0);
    expect(seatChangeProration({ fromSeats: 1, toSeats: 3, periodStartSeconds: 0, periodEndSeconds: MONTH, atSeconds: -5 }).netCents).toBe(
      50_000,
    );
  });

  it('refuses a period shorter than a second and seat counts below one', () => {
    expect(() => seatChangeProration({ fromSeats: 1, toSeats: 3, periodStartSeconds: 5, periodEndSeconds: 5, atSeconds: 5 })).toThrow(
      RangeError,
    );
    expect(() => seatChangeProration({ fromSeats: 0, toSeats: 3, periodStartSeconds: 0, periodEndSeconds: 5, atSeconds: 1 })).toThrow(
      RangeError,
    );
  });

  it('never charges more than the full difference, and is integer cents with the sign of the change', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 1, max: 31 * DAY }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (fromSeats, toSeats, periodSeconds, share) => {
          const atSeconds = Math.floor(periodSeconds * share);
          const { netCents, chargeCents, creditCents } = seatChangeProration({
            fromSeats,
            toSeats,
            periodStartSeconds: 0,
            periodEndSeconds: periodSeconds,
            atSeconds,
          });
          const full = monthlyTotalCents(toSeats) - monthlyTotalCents(fromSeats);
          expect(Number.isInteger(netCents)).toBe(true);
          expect(Math.abs(netCents)).toBeLessThanOrEqual(Math.abs(full) + 1);
          expect(Math.sign(netCents) === Math.sign(full) || netCents === 0).toBe(true);
          expect(chargeCents).toBeLessThanOrEqual(monthlyTotalCents(toSeats));
          expect(creditCents).toBeLessThanOrEqual(monthlyTotalCents(fromSeats));
        },
      ),
    );
  });
});

describe('a seat change’s quote (docs/decisions/0045)', () => {
  it('holds from the second it was made for fifteen minutes, on one clock', () => {
    const quoted = 1_768_000_000;
    expect(SEAT_QUOTE_SECONDS).toBe(900);
    expect(seatQuoteHolds(quoted, quoted)).toBe(true);
    expect(seatQuoteHolds(quoted, quoted + 900)).toBe(true);
    expect(seatQuoteHolds(quoted, quoted + 901)).toBe(false);
    // A quote from the future would prorate less time: never charged.
    expect(seatQuoteHolds(quoted + 1, quoted)).toBe(false);
    expect(seatQuoteHolds(quoted + 0.5, quoted + 1)).toBe(false);
  });
});
