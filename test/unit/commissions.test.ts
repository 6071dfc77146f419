import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  commissionCents,
  describeRule,
  earnedEntryState,
  formatCents,
  refundedShareCents,
  roundHalfUpCents,
  shortName,
} from '../../src/domain/commissions';

describe('roundHalfUpCents (docs/decisions/0035: half up to the cent, per invoice)', () => {
  it.each([
    [6, 10, 1],
    [5, 10, 1],
    [4, 10, 0],
    [15, 10, 2],
    [25, 10, 3],
    [0, 7, 0],
  ])('%i / %i → %i', (numerator, denominator, expected) => {
    expect(roundHalfUpCents(numerator, denominator)).toBe(expected);
  });

  it('agrees with Math.floor(x + 0.5) on exact fractions', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), fc.integer({ min: 1, max: 10_000 }), (numerator, denominator) => {
        expect(roundHalfUpCents(numerator, denominator)).toBe(Math.floor((2 * numerator + denominator) / (2 * denominator)));
      }),
    );
  });

  it('refuses negative or fractional input', () => {
    expect(() => roundHalfUpCents(-1, 10)).toThrow(RangeError);
    expect(() => roundHalfUpCents(1.5, 10)).toThrow(RangeError);
    expect(() => roundHalfUpCents(1, 0)).toThrow(RangeError);
  });
});

describe('commissionCents', () => {
  const twentyPercent = { kind: 'percent' as const, percentBasisPoints: 2000, months: null };

  it('takes 20 % of a $1,000 invoice: $200.00', () => {
    expect(commissionCents(twentyPercent, 100_000, 3, 1)).toBe(20_000);
  });

  it('rounds each invoice half up: 20 % of 3 ¢ is 1 ¢, 12.5 % of 4 ¢ is 1 ¢, 10 % of 4 ¢ is 0 ¢', () => {
    expect(commissionCents(twentyPercent, 3, 1, 1)).toBe(1);
    expect(commissionCents({ kind: 'percent', percentBasisPoints: 1250, months: null }, 4, 1, 1)).toBe(1);
    expect(commissionCents({ kind: 'percent', percentBasisPoints: 1000, months: null }, 4, 1, 1)).toBe(0);
  });

  it('pays a flat amount per paid seat', () => {
    expect(commissionCents({ kind: 'flat', flatCentsPerSeat: 1_000, months: null }, 100_000, 3, 7)).toBe(3_000);
  });

  it('earns only in the first N months when the rule says so', () => {
    const firstThree = { kind: 'percent' as const, percentBasisPoints: 2000, months: 3 };
    expect(commissionCents(firstThree, 50_000, 1, 3)).toBe(10_000);
    expect(commissionCents(firstThree, 50_000, 1, 4)).toBe(0);
  });
});

describe('refundedShareCents', () => {
  it('takes everything back for a full refund, the share rounded half up for a partial one', () => {
    expect(refundedShareCents(20_000, 100_000, 100_000)).toBe(20_000);
    expect(refundedShareCents(20_000, 100_000, 50_000)).toBe(10_000);
    expect(refundedShareCents(1, 3, 1)).toBe(0);
    expect(refundedShareCents(1, 2, 1)).toBe(1);
  });
});

describe('earnedEntryState', () => {
  const earnedAt = new Date('2026-01-01T00:00:00Z');
  const base = { earnedAt, netCents: 20_000, amountCents: 20_000, batch: null };
  it('is held for 30 days, then payable', () => {
    expect(earnedEntryState({ ...base, now: new Date('2026-01-31T00:00:00Z') })).toBe('held');
    expect(earnedEntryState({ ...base, now: new Date('2026-02-01T00:00:00Z') })).toBe('payable');
  });
  it('is reversed when nothing is left, in a payout or paid by its batch', () => {
    const now = new Date('2026-03-01T00:00:00Z');
    expect(earnedEntryState({ ...base, netCents: 0, now })).toBe('reversed');
    expect(earnedEntryState({ ...base, batch: 'created', now })).toBe('in_payout');
    expect(earnedEntryState({ ...base, batch: 'paid', now })).toBe('paid');
  });
});

describe('texts', () => {
  it('shows cents always, and rules in words', () => {
    expect(formatCents(20_000)).toBe('$200.00');
    expect(formatCents(-150)).toBe('-$1.50');
    expect(describeRule({ kind: 'percent', percentBasisPoints: 2000, months: null })).toBe('20 % of each invoice');
    expect(describeRule({ kind: 'flat', flatCentsPerSeat: 1000, months: 3 })).toBe('$10.00 per seat per month, first 3 months');
  });
  it('names a practice by first name and initial', () => {
    expect(shortName('Ada Lovelace')).toBe('Ada L.');
    expect(shortName('Cher')).toBe('Cher');
    expect(shortName(null)).toBe('A practice');
  });
});
