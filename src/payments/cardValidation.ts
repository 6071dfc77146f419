/**
 * The sandbox card form: its fields as typed, checked with the card rules the server also applies
 * (src/domain/cardRules.ts). Pure; `now` is passed in so the expiry check is testable.
 */
import { CARD_ERROR_MESSAGES, cardNumberError, cvcError, digitsOf, expiryError, MAX_CARD_DIGITS } from '../domain/cardRules';

export type CardField = 'number' | 'expiry' | 'cvc' | 'country' | 'postalCode';

/** The card form as typed: card number (spaces allowed), expiry 'MM / YY', security code, country (ISO code), ZIP. */
export interface CardFormValues {
  number: string;
  expiry: string;
  cvc: string;
  country: string;
  postalCode: string;
}

type CardErrors = Partial<Record<CardField, string>>;

/** The order errors are reported in, first to last (the form's field order). */
const CARD_FIELDS: readonly CardField[] = ['number', 'expiry', 'cvc', 'country', 'postalCode'];

/** Month (1–12 unchecked) and four-digit year of an 'MM / YY' expiry; null when it is not four digits. */
export function parseExpiry(expiry: string): { month: number; year: number } | null {
  const digits = digitsOf(expiry);
  if (digits.length !== 4) return null;
  return { month: Number(digits.slice(0, 2)), year: 2000 + Number(digits.slice(2)) };
}

/** The errors of `values`, by field; an empty object means the card may be sent. A card expiring this month (UTC) is valid. */
export function validateCard(values: CardFormValues, now: Date = new Date()): CardErrors {
  const errors: CardErrors = {};
  const number = cardNumberError(digitsOf(values.number));
  if (number) errors.number = number;
  const parsed = parseExpiry(values.expiry);
  const expiry = parsed ? expiryError(parsed.month, parsed.year, now) : CARD_ERROR_MESSAGES.expiryIncomplete;
  if (expiry) errors.expiry = expiry;
  const cvc = cvcError(values.cvc);
  if (cvc) errors.cvc = cvc;
  if (!values.postalCode.trim()) errors.postalCode = CARD_ERROR_MESSAGES.postalCodeIncomplete;
  return errors;
}

/** The first error in field order, or undefined. */
export function firstCardError(errors: CardErrors): string | undefined {
  return CARD_FIELDS.map((field) => errors[field]).find(Boolean);
}

/** Card number as typed, grouped in fours: '4242424242424242' → '4242 4242 4242 4242'. */
export function formatCardNumber(input: string): string {
  return digitsOf(input)
    .slice(0, MAX_CARD_DIGITS)
    .replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** Expiry as typed, shown as 'MM / YY'; a first digit above 1 is read as a one-digit month ('4' → '04 / '). */
export function formatExpiry(input: string): string {
  let digits = digitsOf(input).slice(0, 4);
  if (/^[2-9]/.test(digits)) digits = `0${digits}`.slice(0, 4);
  if (digits.length <= 2) return digits;
  return `${digits.slice(0, 2)} / ${digits.slice(2)}`;
}
