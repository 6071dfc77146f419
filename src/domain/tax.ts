/**
 * Sales tax on the subscription: where the buyer is, whether the business is registered there, and what the tax is
 * in integer cents. Shared by the page (the location's field messages) and the server (the sandbox's tax, the
 * quote the page shows). Rates and their sources: docs/decisions/0070; rounding: docs/decisions/0072.
 *
 * - Only the United States is sold to (prices in USD, a US audience); a location is its country and ZIP code, as
 *   the card tab of Stripe's Payment Element collects them.
 * - The state is read from the ZIP's first three digits (USPS ZIP prefixes): 967–968 Hawaii, 850–865 Arizona.
 *   Prefixes 000–004 are not in use by the USPS: no address has them.
 * - The tax of an amount at a rate is rounded half up to the cent, once per invoice.
 */

/** Countries the checkout sells to (ISO 3166-1 alpha-2). */
const SOLD_COUNTRIES = ['US'] as const;

/** The countries the card form offers, as Stripe's Payment Element lists them (name by code); only US is sold to. */
export const CARD_FORM_COUNTRIES: Readonly<Record<string, string>> = {
  US: 'United States',
  CA: 'Canada',
  GB: 'United Kingdom',
  AU: 'Australia',
  MX: 'Mexico',
};

/** Where the buyer is, as the card form collected it. */
export interface TaxLocation {
  /** ISO 3166-1 alpha-2, upper case. */
  country: string;
  /** The ZIP code as typed (five digits, or ZIP+4). */
  postalCode: string;
}

/** The states the business registered to collect tax in (decision 0070). */
export type TaxState = 'HI' | 'AZ';

/** A registration: its state and the rate charged there, in millionths of the amount (47 120 = 4.712 %). */
export interface TaxRegistration {
  state: TaxState;
  rateMillionths: number;
}

/** The name of a state's tax as the page and the receipts say it. */
const TAX_NAMES: Readonly<Record<TaxState, string>> = {
  HI: 'Hawaii general excise tax',
  AZ: 'Arizona transaction privilege tax',
};

/** The name of the tax of `state` ('Hawaii general excise tax'), or 'sales tax' for a state we hold no name of. */
export function taxNameOf(state: string | null): string {
  return state !== null && state in TAX_NAMES ? TAX_NAMES[state as TaxState] : 'sales tax';
}

/**
 * The tax's name where a line of its own names it (a receipt, the manage page): the state's tax
 * ('Hawaii general excise tax'), 'Sales tax (CA)' for a state we hold no name of, 'Sales tax' without a state.
 */
export function taxLabelOf(state: string | null): string {
  if (state !== null && state in TAX_NAMES) return TAX_NAMES[state as TaxState];
  return state ? `Sales tax (${state})` : 'Sales tax';
}

/**
 * The defaults (decision 0070): Hawaii's 4 % general excise tax with the 0.5 % county surcharge every county levies,
 * passed on at the Department of Taxation's maximum pass-on rate 4.712 % (4.5 % ÷ 95.5 %); Arizona's transaction
 * privilege tax does not reach a live, virtual training service, so its rate is 0 until the owner says otherwise.
 */
export const DEFAULT_TAX_REGISTRATIONS: readonly TaxRegistration[] = [
  { state: 'HI', rateMillionths: 47_120 },
  { state: 'AZ', rateMillionths: 0 },
];

/** Why a location is refused, in words at its field. */
export const TAX_LOCATION_MESSAGES = {
  countryNotSold: 'We can only sell to buyers in the United States.',
  postalCodeInvalid: 'Your ZIP code is invalid.',
  notPlaceable: 'We could not find this ZIP code. Please check it.',
} as const;

export type TaxLocationField = 'country' | 'postalCode';

/** A refused location: the field to show it at and why. */
export interface TaxLocationRefusal {
  field: TaxLocationField;
  message: string;
}

const US_ZIP = /^(\d{5})(-?\d{4})?$/;

/** The location with its country upper-cased and its ZIP trimmed to its five digits (ZIP+4's extension dropped). */
export function normalizeTaxLocation(location: TaxLocation): TaxLocation {
  const country = location.country.trim().toUpperCase();
  const match = US_ZIP.exec(location.postalCode.trim());
  return { country, postalCode: match?.[1] ?? location.postalCode.trim() };
}

/** Why `location` cannot be taxed (a country not sold to, a ZIP that is not one), or null when it is well formed. */
export function taxLocationRefusal(location: TaxLocation): TaxLocationRefusal | null {
  const country = location.country.trim().toUpperCase();
  if (!(SOLD_COUNTRIES as readonly string[]).includes(country)) return { field: 'country', message: TAX_LOCATION_MESSAGES.countryNotSold };
  if (!US_ZIP.test(location.postalCode.trim())) return { field: 'postalCode', message: TAX_LOCATION_MESSAGES.postalCodeInvalid };
  return null;
}

/**
 * Where a well-formed US ZIP is, for tax: a registered state, 'elsewhere' (a US state where the business is not
 * registered), or 'unplaced' (a prefix the USPS does not use).
 */
export function placeZip(postalCode: string): TaxState | 'elsewhere' | 'unplaced' {
  const prefix = Number(postalCode.trim().slice(0, 3));
  if (prefix <= 4) return 'unplaced';
  if (prefix >= 967 && prefix <= 968) return 'HI';
  if (prefix >= 850 && prefix <= 865) return 'AZ';
  return 'elsewhere';
}

/**
 * The tax on `amountCents` at `rateMillionths`, in cents, rounded half up (decision 0072).
 * @throws RangeError when either is not a non-negative integer, or the product is beyond exact integers.
 */
export function taxCents(amountCents: number, rateMillionths: number): number {
  if (!Number.isInteger(amountCents) || amountCents < 0)
    throw new RangeError(`Amount must be non-negative integer cents, got ${amountCents}`);
  if (!Number.isInteger(rateMillionths) || rateMillionths < 0)
    throw new RangeError(`Rate must be non-negative millionths, got ${rateMillionths}`);
  const scaled = amountCents * rateMillionths;
  if (!Number.isSafeInteger(scaled)) throw new RangeError('Amount times rate is beyond exact integers');
  return Math.floor((scaled + 500_000) / 1_000_000);
}

/**
 * The tax a refund returns: its share of the payment's tax, in proportion to the part of the payment refunded,
 * `refundedCents × taxCents ÷ paidCents` rounded half up to the cent (decision 0072's rule); the whole tax once the
 * whole payment is refunded. Stripe Tax splits a refund the same way, "in proportion to the refunded amount … based
 * on the original tax rate" (Stripe docs, "Refunds and credit notes"; docs/decisions/0074). All amounts in cents;
 * `paidCents` is what was charged, tax included.
 * @throws RangeError when an amount is not a non-negative integer, or the tax is more than was paid.
 */
export function refundedTaxCents(refundedCents: number, paidCents: number, taxCentsPaid: number): number {
  for (const [name, cents] of [
    ['Refund', refundedCents],
    ['Payment', paidCents],
    ['Tax', taxCentsPaid],
  ] as const)
    if (!Number.isInteger(cents) || cents < 0) throw new RangeError(`${name} must be non-negative integer cents, got ${cents}`);
  if (taxCentsPaid > paidCents) throw new RangeError(`Tax ${taxCentsPaid} is more than the payment ${paidCents}`);
  if (refundedCents >= paidCents) return taxCentsPaid;
  // Half up in integers: floor((2 × refund × tax + paid) ÷ (2 × paid)).
  return Math.floor((2 * refundedCents * taxCentsPaid + paidCents) / (2 * paidCents));
}

/** A rate in millionths as a percentage for people: 47 120 → '4.712%'. */
export function formatTaxRate(rateMillionths: number): string {
  return `${Number((rateMillionths / 10_000).toFixed(4))}%`;
}
