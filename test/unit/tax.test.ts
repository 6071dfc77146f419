import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { monthlyTotalCents } from '../../src/domain/pricing';
import {
  DEFAULT_TAX_REGISTRATIONS,
  formatTaxRate,
  normalizeTaxLocation,
  placeZip,
  refundedTaxCents,
  TAX_LOCATION_MESSAGES,
  taxCents,
  taxLocationRefusal,
} from '../../src/domain/tax';

describe('taxCents (decision 0072: half up, once per invoice)', () => {
  it.each([
    [50_000, 47_120, 2_356],
    [100_000, 47_120, 4_712],
    [4_950_000, 47_120, 233_244],
    [50_000, 0, 0],
    [0, 47_120, 0],
    // 1 cent at 50 % is exactly half a cent: up. 1 cent at 49.9999 % is just under: down.
    [1, 500_000, 1],
    [1, 499_999, 0],
    [3, 500_000, 2],
  ])('%i cents at %i millionths is %i cents', (amount, rate, tax) => {
    expect(taxCents(amount, rate)).toBe(tax);
  });

  it('is within half a cent of the exact tax, never negative, and grows with the amount', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), fc.integer({ min: 0, max: 1_000_000 }), (amount, rate) => {
        const tax = taxCents(amount, rate);
        const exact = (amount * rate) / 1_000_000;
        expect(Number.isInteger(tax)).toBe(true);
        expect(tax).toBeGreaterThanOrEqual(0);
        expect(Math.abs(tax - exact)).toBeLessThanOrEqual(0.5);
        expect(taxCents(amount + 1, rate)).toBeGreaterThanOrEqual(tax);
      }),
    );
  });

  it.each([
    [-1, 47_120],
    [1.5, 47_120],
    [100, -1],
    [100, 0.5],
    [Number.MAX_SAFE_INTEGER, 1_000_000],
  ])('refuses %s cents at %s millionths', (amount, rate) => {
    expect(() => taxCents(amount, rate)).toThrow(RangeError);
  });

  it("the defaults tax a Hawaii team of N seats at 4.712 % of the seats' total and an Arizona team at 0", () => {
    const rate = (state: string) => DEFAULT_TAX_REGISTRATIONS.find((registration) => registration.state === state)!.rateMillionths;
    expect(formatTaxRate(rate('HI'))).toBe('4.712%');
    expect(taxCents(monthlyTotalCents(1), rate('HI'))).toBe(2_356);
    expect(taxCents(monthlyTotalCents(2), rate('HI'))).toBe(2_356);
    expect(taxCents(monthlyTotalCents(3), rate('AZ'))).toBe(0);
  });
});

describe('where a location is', () => {
  it.each([
    ['96813', 'HI'],
    ['96720', 'HI'],
    ['96898', 'HI'],
    ['85004', 'AZ'],
    ['86515', 'AZ'],
    ['10001', 'elsewhere'],
    ['96910', 'elsewhere'],
    ['86601', 'elsewhere'],
    ['00501', 'elsewhere'],
    ['00012', 'unplaced'],
  ])('ZIP %s is %s', (zip, place) => {
    expect(placeZip(zip)).toBe(place);
  });

  it.each([
    [{ country: 'US', postalCode: '96813' }, null],
    [{ country: 'us', postalCode: ' 96813-0001 ' }, null],
    [
      { country: 'CA', postalCode: 'K1A 0B1' },
      { field: 'country', message: TAX_LOCATION_MESSAGES.countryNotSold },
    ],
    [
      { country: 'US', postalCode: '9681' },
      { field: 'postalCode', message: TAX_LOCATION_MESSAGES.postalCodeInvalid },
    ],
    [
      { country: 'US', postalCode: '968134' },
      { field: 'postalCode', message: TAX_LOCATION_MESSAGES.postalCodeInvalid },
    ],
    [
      { country: 'US', postalCode: '' },
      { field: 'postalCode', message: TAX_LOCATION_MESSAGES.postalCodeInvalid },
    ],
  ])('%o is refused as %o', (location, refusal) => {
    expect(taxLocationRefusal(location)).toEqual(refusal);
  });

  it('keeps the five digits of a ZIP+4 and upper-cases the country', () => {
    expect(normalizeTaxLocation({ country: 'us', postalCode: '96813-1234' })).toEqual({ country: 'US', postalCode: '96813' });
  });
});

describe('refundedTaxCents (decision 0074: the tax share of a refund, half up; all of it on a full refund)', () => {
  it.each([
    // $1,047.12 paid with $47.12 tax.
    [10_001, 104_712, 4_712, 450], // 450.04…
    [26_178, 52_356, 2_356, 1_178], // exactly half
    [104_712, 104_712, 4_712, 4_712],
    [200_000, 104_712, 4_712, 4_712], // more than was paid: still the whole tax
    [0, 52_356, 2_356, 0],
    [10_000, 50_000, 0, 0], // untaxed
    // Exactly half a cent goes up, just under goes down: 1 × 1 ÷ 2 = 0.5; 1 × 1 ÷ 3 = 0.33.
    [1, 2, 1, 1],
    [1, 3, 1, 0],
  ])('%i cents refunded of %i paid with %i tax returns %i cents of tax', (refunded, paid, tax, share) => {
    expect(refundedTaxCents(refunded, paid, tax)).toBe(share);
  });

  it('is within half a cent of the exact share, never more than the tax, and grows with the refund', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000_000 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (paid, taxPart, refundPart) => {
          const tax = Math.floor(paid * taxPart * 0.5);
          const refunded = Math.floor(paid * refundPart);
          const share = refundedTaxCents(refunded, paid, tax);
          expect(Math.abs(share - (refunded * tax) / paid)).toBeLessThanOrEqual(0.5);
          expect(share).toBeGreaterThanOrEqual(0);
          expect(share).toBeLessThanOrEqual(tax);
          expect(refundedTaxCents(Math.min(refunded + 1, paid), paid, tax)).toBeGreaterThanOrEqual(share);
        },
      ),
    );
  });

  it.each([
    [-1, 100, 10],
    [1.5, 100, 10],
    [1, -100, 0],
    [1, 100, -1],
    [1, 100, 101],
  ])('refuses %s refunded of %s paid with %s tax', (refunded, paid, tax) => {
    expect(() => refundedTaxCents(refunded, paid, tax)).toThrow(RangeError);
  });
});
