/**
 * The card rules, once, for the sandbox card form (src/payments/cardValidation.ts) and the sandbox server that
 * confirms the card (server/payments/sandbox/cards.ts), with the messages Stripe's Payment Element shows. Pure.
 *
 * - Number: 12 to 19 digits (ISO/IEC 7812 issuer numbers in use, Maestro's 12 to Visa's 19) passing Luhn.
 * - Expiry: month 1-12; a card is good through the last day of its expiry month, in UTC, so the page and the
 *   server judge the same month whatever the buyer's time zone.
 * - Security code: 3 or 4 digits.
 */

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

const MIN_CARD_DIGITS = 12;
export const MAX_CARD_DIGITS = 19;

/** Only the digits of `text`. */
export function digitsOf(text: string): string {
  return text.replace(/\D/g, '');
}

/** The Luhn mod-10 checksum every card number satisfies; false for anything but digits. */
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

/** What is wrong with a card number given as digits (spaces allowed), or undefined. */
export function cardNumberError(number: string): string | undefined {
  const digits = number.replace(/ /g, '');
  if (!/^\d*$/.test(digits)) return CARD_ERROR_MESSAGES.numberInvalid;
  if (digits.length < MIN_CARD_DIGITS) return CARD_ERROR_MESSAGES.numberIncomplete;
  if (digits.length > MAX_CARD_DIGITS || !passesLuhn(digits)) return CARD_ERROR_MESSAGES.numberInvalid;
  return undefined;
}

/** A card's year as four digits: 26 → 2026. */
export function fourDigitYear(year: number): number {
  return year < 100 ? 2000 + year : year;
}

/** What is wrong with an expiry of `month` (1-12) and `year` (two or four digits) at `now`, or undefined. */
export function expiryError(month: number, year: number, now: Date): string | undefined {
  if (!Number.isInteger(month) || month < 1 || month > 12) return CARD_ERROR_MESSAGES.expiryMonthInvalid;
  const expiryMonth = fourDigitYear(year) * 12 + (month - 1);
  if (expiryMonth < now.getUTCFullYear() * 12 + now.getUTCMonth()) return CARD_ERROR_MESSAGES.expiryPast;
  return undefined;
}

/** What is wrong with a security code, or undefined: 3 or 4 digits. */
export function cvcError(cvc: string): string | undefined {
  return /^\d{3,4}$/.test(cvc.trim()) ? undefined : CARD_ERROR_MESSAGES.cvcIncomplete;
}
