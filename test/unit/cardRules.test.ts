/** The one card rule the sandbox card form and the sandbox server share (src/domain/cardRules.ts). */
import { describe, expect, it } from 'vitest';
import { CARD_ERROR_MESSAGES, cardNumberError, cvcError, expiryError, fourDigitYear, passesLuhn } from '../../src/domain/cardRules';
import { checkSandboxCard } from '../../server/payments/sandbox/cards';
import { validateCard } from '../../src/payments/cardValidation';

describe('card rules', () => {
  it('checks the Luhn sum on digits only', () => {
    expect(passesLuhn('4242424242424242')).toBe(true);
    expect(passesLuhn('4000002500003155')).toBe(true);
    expect(passesLuhn('4242424242424241')).toBe(false);
    expect(passesLuhn('')).toBe(false);
    expect(passesLuhn('4242 4242')).toBe(false);
  });

  it('takes 12 to 19 digits: fewer is incomplete, more or a failed checksum invalid', () => {
    expect(cardNumberError('500000000009')).toBeUndefined(); // 12 digits, Luhn-valid
    expect(cardNumberError('50000000000')).toBe(CARD_ERROR_MESSAGES.numberIncomplete); // 11
    expect(cardNumberError('4242 4242 4242 4242')).toBeUndefined();
    expect(cardNumberError('4000000000000000006')).toBeUndefined(); // 19, Luhn-valid
    expect(cardNumberError('40000000000000000002')).toBe(CARD_ERROR_MESSAGES.numberInvalid); // 20, Luhn-valid
    expect(cardNumberError('4242-4242-4242-4242')).toBe(CARD_ERROR_MESSAGES.numberInvalid);
  });

  it('keeps a card good through the last day of its expiry month, in UTC', () => {
    const lastMomentOfNovember = new Date(Date.UTC(2026, 10, 30, 23, 59, 59));
    const firstMomentOfDecember = new Date(Date.UTC(2026, 11, 1, 0, 0, 0));
    expect(expiryError(11, 26, lastMomentOfNovember)).toBeUndefined();
    expect(expiryError(11, 2026, firstMomentOfDecember)).toBe(CARD_ERROR_MESSAGES.expiryPast);
    expect(expiryError(1, 2027, firstMomentOfDecember)).toBeUndefined();
    expect(expiryError(0, 2030, firstMomentOfDecember)).toBe(CARD_ERROR_MESSAGES.expiryMonthInvalid);
    expect(expiryError(13, 2030, firstMomentOfDecember)).toBe(CARD_ERROR_MESSAGES.expiryMonthInvalid);
    expect(fourDigitYear(30)).toBe(2030);
    expect(fourDigitYear(2030)).toBe(2030);
  });

  it('takes a 3 or 4 digit security code', () => {
    expect(cvcError('123')).toBeUndefined();
    expect(cvcError(' 1234 ')).toBeUndefined();
    expect(cvcError('12')).toBe(CARD_ERROR_MESSAGES.cvcIncomplete);
    expect(cvcError('12345')).toBe(CARD_ERROR_MESSAGES.cvcIncomplete);
  });

  it('gives the card form and the sandbox server the same answer at a month boundary', () => {
    // 23:30 on 30 November in UTC is already 1 December east of UTC: both sides still take a card expiring 11/26.
    const now = new Date(Date.UTC(2026, 10, 30, 23, 30));
    const form = { number: '4242 4242 4242 4242', expiry: '11 / 26', cvc: '123', country: 'US', postalCode: '10001' };
    expect(validateCard(form, now)).toEqual({});
    expect(checkSandboxCard({ number: form.number, expMonth: 11, expYear: 2026, cvc: '123', postalCode: '10001' }, now).ok).toBe(true);
    const next = new Date(Date.UTC(2026, 11, 1, 0, 30));
    expect(validateCard(form, next).expiry).toBe(CARD_ERROR_MESSAGES.expiryPast);
    expect(checkSandboxCard({ number: form.number, expMonth: 11, expYear: 2026, cvc: '123', postalCode: '10001' }, next)).toEqual({
      ok: false,
      message: CARD_ERROR_MESSAGES.expiryPast,
    });
  });
});
