/**
 * The sandbox card form's field rules, with the messages Stripe's Payment Element shows. Pure; `now` is passed
 * in so the expiry check is testable.
 */

export type CardField = 'number' | 'expiry' | 'cvc' | 'postalCode';

/** The card form as typed: card number (spaces allowed), expiry 'MM / YY', security code, ZIP. */
export interface CardFormValues {
  number: string;
  expiry: string;
  cvc: string;
  postalCode: string;
}

export type CardErrors = Partial<Record<CardField, string>>;

/** Stripe's wording. */
export const CARD_ERROR_MESSAGES = {
  numberIncomplete: 'Your card number is incomplete.',
  numberInvalid: 'Your card number is invalid.',
  expiryIncomplete: "Your card's expiration date is incomplete.",
  expiryMonthInvalid: "Your card's expiration month is invalid.",
  expiryPast: "Your card's expiration date is in the past.",
  cvcIncomplete: "Your card's security code is incomplete.",
  postalCodeIncomplete: 'Your postal code is incomplete.',
} as const;

/** The order errors are reported in, first to last (the form's field order). */
export const CARD_FIELDS: readonly CardField[] = ['number', 'expiry', 'cvc', 'postalCode'];

const MIN_CARD_DIGITS = 13;
const MAX_CARD_DIGITS = 19;

/** Only the digits of `text`. */
export function digitsOf(text: string): string {
  return text.replace(/\D/g, '');
}

/** The Luhn checksum every card number satisfies. */
export function passesLuhn(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** Month (1–12 unchecked) and four-digit year of an 'MM / YY' expiry; null when it is not four digits. */
export function parseExpiry(expiry: string): { month: number; year: number } | null {
  const digits = digitsOf(expiry);
  if (digits.length !== 4) return null;
  return { month: Number(digits.slice(0, 2)), year: 2000 + Number(digits.slice(2)) };
}

function numberError(number: string): string | undefined {
  const digits = digitsOf(number);
  if (digits.length < MIN_CARD_DIGITS) return CARD_ERROR_MESSAGES.numberIncomplete;
  if (digits.length > MAX_CARD_DIGITS || !passesLuhn(digits)) return CARD_ERROR_MESSAGES.numberInvalid;
  return undefined;
}

function expiryError(expiry: string, now: Date): string | undefined {
  const parsed = parseExpiry(expiry);
  if (!parsed) return CARD_ERROR_MESSAGES.expiryIncomplete;
  if (parsed.month < 1 || parsed.month > 12) return CARD_ERROR_MESSAGES.expiryMonthInvalid;
  const currentMonth = now.getFullYear() * 12 + now.getMonth();
  if (parsed.year * 12 + (parsed.month - 1) < currentMonth) return CARD_ERROR_MESSAGES.expiryPast;
  return undefined;
}

/** The errors of `values`, by field; an empty object means the card may be sent. A card expiring this month is valid. */
export function validateCard(values: CardFormValues, now: Date = new Date()): CardErrors {
  const errors: CardErrors = {};
  const number = numberError(values.number);
  if (number) errors.number = number;
  const expiry = expiryError(values.expiry, now);
  if (expiry) errors.expiry = expiry;
  if (!/^\d{3,4}$/.test(values.cvc.trim())) errors.cvc = CARD_ERROR_MESSAGES.cvcIncomplete;
  if (!values.postalCode.trim()) errors.postalCode = CARD_ERROR_MESSAGES.postalCodeIncomplete;
  return errors;
}

/** The first error in field order, or undefined. */
export function firstCardError(errors: CardErrors): string | undefined {
  return CARD_FIELDS.map((field) => errors[field]).find(Boolean);
}

/** Card number as typed, grouped in fours: '4242424242424242' → '4242 4242 4242 4242'. */
export function formatCardNumber(input: string): string {
  return digitsOf(input).slice(0, MAX_CARD_DIGITS).replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** Expiry as typed, shown as 'MM / YY'; a first digit above 1 is read as a one-digit month ('4' → '04 / '). */
export function formatExpiry(input: string): string {
  let digits = digitsOf(input).slice(0, 4);
  if (/^[2-9]/.test(digits)) digits = `0${digits}`.slice(0, 4);
  if (digits.length <= 2) return digits;
  return `${digits.slice(0, 2)} / ${digits.slice(2)}`;
}
