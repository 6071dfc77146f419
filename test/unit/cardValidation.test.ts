import { describe, expect, it } from 'vitest';
import { CARD_ERROR_MESSAGES } from '../../src/domain/cardRules';
import { firstCardError, formatCardNumber, formatExpiry, validateCard } from '../../src/payments/cardValidation';

const NOW = new Date(Date.UTC(2026, 10, 22));
const VALID = { number: '4242 4242 4242 4242', expiry: '12 / 30', cvc: '123', country: 'US', postalCode: '96815' };

describe('sandbox card rules', () => {
  it('accepts a valid test card', () => {
    expect(validateCard(VALID, NOW)).toEqual({});
  });

  it("reports Stripe's messages, in field order", () => {
    expect(validateCard({ number: '', expiry: '', cvc: '', country: 'US', postalCode: ' ' }, NOW)).toEqual({
      number: CARD_ERROR_MESSAGES.numberIncomplete,
      expiry: "Your card's expiration date is incomplete.",
      cvc: "Your card's security code is incomplete.",
      postalCode: 'Your postal code is incomplete.',
    });
    expect(validateCard({ ...VALID, number: '4242 4242 4242 4241' }, NOW).number).toBe('Your card number is invalid.');
    expect(firstCardError(validateCard({ ...VALID, cvc: '12', postalCode: '' }, NOW))).toBe("Your card's security code is incomplete.");
  });

  it('accepts a card expiring this month and refuses last month', () => {
    expect(validateCard({ ...VALID, expiry: '11 / 26' }, NOW)).toEqual({});
    expect(validateCard({ ...VALID, expiry: '10 / 26' }, NOW).expiry).toBe("Your card's expiration date is in the past.");
    expect(validateCard({ ...VALID, expiry: '13 / 30' }, NOW).expiry).toBe(CARD_ERROR_MESSAGES.expiryMonthInvalid);
  });

  it('accepts 3 or 4 digit security codes only', () => {
    expect(validateCard({ ...VALID, cvc: '1234' }, NOW)).toEqual({});
    expect(validateCard({ ...VALID, cvc: '12a' }, NOW).cvc).toBe(CARD_ERROR_MESSAGES.cvcIncomplete);
  });

  it('formats the number in fours and the expiry as MM / YY', () => {
    expect(formatCardNumber('4242424242424242')).toBe('4242 4242 4242 4242');
    expect(formatExpiry('1230')).toBe('12 / 30');
    expect(formatExpiry('4')).toBe('04');
    expect(formatExpiry('12')).toBe('12');
  });
});
