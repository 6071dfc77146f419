import { describe, expect, it } from 'vitest';
import { fullName, hasFieldErrors, validateCheckoutForm } from '../../src/domain/validation';

const valid = { firstName: 'Ada', lastName: 'Palmer', email: 'ada@example.com' };

describe('validateCheckoutForm (spec §5)', () => {
  it('accepts a complete form', () => {
    expect(validateCheckoutForm(valid)).toEqual({});
    expect(hasFieldErrors(validateCheckoutForm(valid))).toBe(false);
  });

  it('requires every field, trimming blanks', () => {
    expect(validateCheckoutForm({ firstName: '  ', lastName: '', email: '' })).toEqual({
      firstName: 'First name is required',
      lastName: 'Last name is required',
      email: 'Email is required',
    });
  });

  it.each(['ada', 'ada@', 'ada@example', '@example.com', 'ada@example.', 'a da@example.com'])('calls %j invalid', (email) => {
    expect(validateCheckoutForm({ ...valid, email }).email).toBe('Email is invalid');
  });

  it.each(['a@b.co', 'ada.palmer+chiro@clinic.example.org'])('accepts %j', (email) => {
    expect(validateCheckoutForm({ ...valid, email }).email).toBeUndefined();
  });
});

describe('fullName', () => {
  it('joins first and last name with one space', () => {
    expect(fullName({ firstName: ' Ada ', lastName: 'Palmer ' })).toBe('Ada Palmer');
  });
});
