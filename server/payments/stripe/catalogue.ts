/**
 * What we sell, as Stripe objects: one Product and one monthly USD Price with graduated tiers that reproduce
 * the pricing rule in src/domain/pricing.ts (seat 1: $500, seat 2: $0, seat 3 and after: $500 each).
 *
 * Graduated tiers charge each unit at the price of the tier it falls in, so the total for N seats is the sum
 * of the per-seat prices (Stripe docs, "Tiered pricing": graduated; Prices API: `billing_scheme: 'tiered'`,
 * `tiers_mode: 'graduated'`, `tiers[].up_to` with `'inf'` for the last tier). All amounts are integer cents.
 */
import type Stripe from 'stripe';
import { FREE_SEAT_NUMBER, seatPriceCents } from '../../../src/domain/pricing';
import { PRODUCT_ID, PRODUCT_NAME } from '../../../src/domain/product';

/** The Stripe Product's id. Stripe accepts a caller-chosen id on create, which makes setup findable and repeatable. */
export const STRIPE_PRODUCT_ID = 'prod_chiro_ai_training';

/** Lookup key of the monthly Price when STRIPE_PRICE_LOOKUP_KEY is not set. */
export const DEFAULT_PRICE_LOOKUP_KEY = 'chiro_ai_training_monthly';

/** The Price's currency (ISO code, lower case, as Stripe writes it). */
const PRICE_CURRENCY = 'usd';

/** The Price bills once a month. */
const PRICE_INTERVAL = 'month';

/** One graduated tier: seats up to and including `up_to` cost `unit_amount` cents each. */
interface SeatTier {
  up_to: number | 'inf';
  unit_amount: number;
}

/**
 * Builds the tiers from the pricing rule: consecutive seats with the same price share a tier, up to the free
 * seat; every seat after it costs what the seat after it costs, so the last tier is open (`'inf'`).
 */
function tiersFromPricingRule(): SeatTier[] {
  const tiers: SeatTier[] = [];
  for (let seat = 1; seat <= FREE_SEAT_NUMBER; seat++) {
    const price = seatPriceCents(seat);
    const last = tiers.at(-1);
    if (last && last.unit_amount === price) last.up_to = seat;
    else tiers.push({ up_to: seat, unit_amount: price });
  }
  tiers.push({ up_to: 'inf', unit_amount: seatPriceCents(FREE_SEAT_NUMBER + 1) });
  return tiers;
}

/** The monthly Price's tiers: [{ up_to: 1, 50000 }, { up_to: 2, 0 }, { up_to: 'inf', 50000 }]. */
export const SEAT_TIERS: readonly Readonly<SeatTier>[] = Object.freeze(tiersFromPricingRule().map((t) => Object.freeze(t)));

/**
 * What Stripe would charge for `quantity` seats under graduated `tiers`, in cents: each seat at its tier's price.
 * @throws RangeError when `quantity` is not an integer ≥ 0 or the tiers do not reach it.
 */
export function graduatedTotalCents(tiers: readonly SeatTier[], quantity: number): number {
  if (!Number.isInteger(quantity) || quantity < 0) throw new RangeError(`Quantity must be an integer ≥ 0, got ${quantity}`);
  let total = 0;
  let previousUpTo = 0;
  for (const tier of tiers) {
    const upTo = tier.up_to === 'inf' ? Number.POSITIVE_INFINITY : tier.up_to;
    const seatsInTier = Math.max(0, Math.min(quantity, upTo) - previousUpTo);
    total += seatsInTier * tier.unit_amount;
    if (quantity <= upTo) return total;
    previousUpTo = upTo;
  }
  throw new RangeError(`Tiers end at ${previousUpTo} seats, below ${quantity}`);
}

/**
 * The training's Stripe tax code: "Training Services - Live Virtual" (Stripe's tax code list,
 * docs.stripe.com/tax/tax-codes): live trainings, build calls and office hours over video (decision 0070).
 */
export const STRIPE_TAX_CODE = 'txcd_20060045';

/** The Product, as created by `npm run stripe:setup`, with the training's tax code. */
export function productCreateParams(): Stripe.ProductCreateParams {
  return { id: STRIPE_PRODUCT_ID, name: PRODUCT_NAME, tax_code: STRIPE_TAX_CODE, metadata: { product_id: PRODUCT_ID } };
}

/**
 * The monthly Price, as created by `npm run stripe:setup`. `transfer_lookup_key` moves the lookup key from an
 * archived Price that still holds it (Stripe: a lookup key belongs to one Price at a time).
 */
export function priceCreateParams(lookupKey: string, transferLookupKey: boolean): Stripe.PriceCreateParams {
  return {
    product: STRIPE_PRODUCT_ID,
    currency: PRICE_CURRENCY,
    recurring: { interval: PRICE_INTERVAL, usage_type: 'licensed' },
    billing_scheme: 'tiered',
    tiers_mode: 'graduated',
    tiers: SEAT_TIERS.map((tier) => ({ up_to: tier.up_to, unit_amount: tier.unit_amount })),
    lookup_key: lookupKey,
    transfer_lookup_key: transferLookupKey,
    nickname: `${PRODUCT_NAME}: seat 1 $500, seat 2 free, seat 3+ $500`,
    // Tax is added to the seats' price, never taken out of it (decision 0070).
    tax_behavior: 'exclusive',
    metadata: { product_id: PRODUCT_ID },
  };
}

/**
 * Why an existing Price does not bill like the pricing rule, one line per difference; empty when it does.
 * Needs the Price listed or retrieved with `expand: ['tiers']` (Stripe leaves `tiers` out by default).
 */
export function priceDifferences(price: Stripe.Price): string[] {
  const problems: string[] = [];
  if (price.currency !== PRICE_CURRENCY) problems.push(`currency is ${price.currency}, expected ${PRICE_CURRENCY}`);
  const recurring = price.recurring;
  if (recurring?.interval !== PRICE_INTERVAL || recurring.interval_count !== 1 || recurring.usage_type !== 'licensed') {
    problems.push(`is not a licensed price billed every ${PRICE_INTERVAL}`);
  }
  if (price.billing_scheme !== 'tiered' || price.tiers_mode !== 'graduated') problems.push('is not graduated tiered');
  // Stripe writes the open last tier as `up_to: null`.
  const tiers = (price.tiers ?? []).map((tier) => ({
    up_to: tier.up_to ?? 'inf',
    unit_amount: tier.unit_amount,
    flat_amount: tier.flat_amount ?? 0,
  }));
  const sameTiers =
    tiers.length === SEAT_TIERS.length &&
    tiers.every((tier, i) => {
      const expected = SEAT_TIERS[i];
      return expected && tier.up_to === expected.up_to && tier.unit_amount === expected.unit_amount && tier.flat_amount === 0;
    });
  if (!sameTiers) problems.push(`tiers are ${JSON.stringify(tiers)}, expected ${JSON.stringify(SEAT_TIERS)}`);
  if (price.tax_behavior !== 'exclusive') problems.push(`tax_behavior is ${price.tax_behavior ?? 'unset'}, expected exclusive`);
  return problems;
}
