import { describe, expect, it } from 'vitest';
import { passesLuhn } from '../../../../src/domain/cardRules';
import { checkSandboxCard, TEST_CARDS_ONLY, type SandboxCard } from '../../../../server/payments/sandbox/cards';

const now = new Date('2026-06-15T12:00:00Z');
const card = (overrides: Partial<SandboxCard> = {}): SandboxCard => ({
  number: '4242 4242 4242 4242',
  expMonth: 12,
  expYear: 2030,
  cvc: '123',
  postalCode: '10001',
  ...overrides,
});

describe('sandbox card rules', () => {
  it.each([
    ['4242424242424242', 'succeeds'],
    ['4000 0000 0000 0002', 'declined'],
    ['4000000000009995', 'insufficient_funds'],
    ['4000 0025 0000 3155', 'requires_authentication'],
  ])('%s behaves as %s and keeps only the last four digits', (number, behaviour) => {
    expect(checkSandboxCard(card({ number }), now)).toEqual({ ok: true, behaviour, last4: number.slice(-4) });
  });

  it('refuses a real-looking card that passes Luhn', () => {
    expect(passesLuhn('5555555555554444')).toBe(true);
    expect(checkSandboxCard(card({ number: '5555 5555 5555 4444' }), now)).toEqual({ ok: false, message: TEST_CARDS_ONLY });
  });

  it.each([
    [{ number: '4242424242424241' }, 'Your card number is invalid.'],
    [{ number: '4242' }, 'Your card number is incomplete.'],
    [{ expMonth: 5, expYear: 2026 }, "Your card's expiration date is in the past."],
    [{ expMonth: 12, expYear: 25 }, "Your card's expiration date is in the past."],
    [{ expYear: 1999 }, "Your card's expiration date is in the past."],
    [{ expMonth: 13 }, "Your card's expiration month is invalid."],
    [{ cvc: '12' }, "Your card's security code is incomplete."],
    [{ cvc: '12a' }, "Your card's security code is incomplete."],
  ])('refuses %j', (overrides, message) => {
    expect(checkSandboxCard(card(overrides), now)).toEqual({ ok: false, message });
  });

  it('accepts the current month and two-digit years', () => {
    expect(checkSandboxCard(card({ expMonth: 6, expYear: 2026 }), now).ok).toBe(true);
    expect(checkSandboxCard(card({ expMonth: 1, expYear: 27, cvc: '1234' }), now).ok).toBe(true);
  });
});
