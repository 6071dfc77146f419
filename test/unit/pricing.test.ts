import { describe, expect, it } from 'vitest';
import { formatDollars, monthlySavingCents, monthlyTotalCents, SEAT_PRICE_CENTS, seatPriceCents } from '../../src/domain/pricing';

describe('monthlyTotalCents (spec §9)', () => {
  it.each([
    [1, 50_000],
    [2, 50_000],
    [3, 100_000],
    [4, 150_000],
    [10, 450_000],
    [100, 4_950_000],
  ])('%i seats cost %i cents a month', (seats, cents) => {
    expect(monthlyTotalCents(seats)).toBe(cents);
  });

  it('equals the sum of the per-seat prices for 1 to 100 seats', () => {
    for (let seats = 1; seats <= 100; seats++) {
      let sum = 0;
      for (let seat = 1; seat <= seats; seat++) sum += seatPriceCents(seat);
      expect(monthlyTotalCents(seats)).toBe(sum);
      expect(monthlyTotalCents(seats)).toBe(seats <= 2 ? SEAT_PRICE_CENTS : SEAT_PRICE_CENTS + (seats - 2) * SEAT_PRICE_CENTS);
    }
  });

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])('refuses %s seats', (seats) => {
    expect(() => monthlyTotalCents(seats)).toThrow(RangeError);
  });
});

describe('seatPriceCents', () => {
  it('makes only seat 2 free', () => {
    expect(seatPriceCents(1)).toBe(50_000);
    expect(seatPriceCents(2)).toBe(0);
    expect(seatPriceCents(3)).toBe(50_000);
  });
});

describe('monthlySavingCents', () => {
  it('saves $500 from two seats on', () => {
    expect(monthlySavingCents(1)).toBe(0);
    expect(monthlySavingCents(2)).toBe(50_000);
    expect(monthlySavingCents(7)).toBe(50_000);
  });
});

describe('formatDollars', () => {
  it('writes whole dollars the way the spec does', () => {
    expect(formatDollars(50_000)).toBe('$500');
    expect(formatDollars(100_000)).toBe('$1,000');
    expect(formatDollars(0)).toBe('$0');
    expect(formatDollars(600_000)).toBe('$6,000');
  });
  it('keeps cents when there are some', () => {
    expect(formatDollars(1_050)).toBe('$10.50');
  });
  it('refuses fractional cents', () => {
    expect(() => formatDollars(10.5)).toThrow(RangeError);
  });
});
