/**
 * What we sell as Stripe objects: one Product and one monthly USD Price whose graduated tiers reproduce
 * src/domain/pricing.ts (Stripe docs, "Tiered pricing"). Cents.
 */
import type Stripe from 'stripe';
import { FREE_SEAT_NUMBER, seatPriceCents } from '../../../src/domain/pricing';
import { PRODUCT_ID, PRODUCT_NAME } from '../../../src/domain/product';

/** Stripe accepts a chosen id on create, which makes setup findable and repeatable. */
export const STRIPE_PRODUCT_ID = 'prod_chiro_ai_training';

export const DEFAULT_PRICE_LOOKUP_KEY = 'chiro_ai_training_monthly';

const PRICE_CURRENCY = 'usd';

const PRICE_INTERVAL = 'month';

interface SeatTier {
  up_to: number | 'inf';
  unit_amount: number;
}

/** Seats with the same price share a tier up to the free seat; the last tier is open (`'inf'`). */
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

export const SEAT_TIERS: readonly Readonly<SeatTier>[] = Object.freeze(tiersFromPricingRule().map((t) => Object.freeze(t)));

/** @throws RangeError when `quantity` is not an integer ≥ 0 or the tiers do not reach it. */
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

/** "Training Services - Live Virtual" (docs.stripe.com/tax/tax-codes; docs/decisions/0070). */
export const STRIPE_TAX_CODE = 'txcd_20060045';

export function productCreateParams(): Stripe.ProductCreateParams {
  return { id: STRIPE_PRODUCT_ID, name: PRODUCT_NAME, tax_code: STRIPE_TAX_CODE, metadata: { product_id: PRODUCT_ID } };
}

/** `transfer_lookup_key`: a lookup key belongs to one Price at a time. */
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
    // docs/decisions/0070: tax is added to the price, never taken out of it.
    tax_behavior: 'exclusive',
    metadata: { product_id: PRODUCT_ID },
  };
}

/** Needs `expand: ['tiers']` (Stripe leaves them out by default). */
export function priceDifferences(price: Stripe.Price): string[] {
  const problems: string[] = [];
  if (price.currency !== PRICE_CURRENCY) problems.push(`currency is ${price.currency}, expected ${PRICE_CURRENCY}`);
  const recurring = price.recurring;
  if (recurring?.interval !== PRICE_INTERVAL || recurring.interval_count !== 1 || recurring.usage_type !== 'licensed') {
    problems.push(`is not a licensed price billed every ${PRICE_INTERVAL}`);
  }
  if (price.billing_scheme !== 'tiered' || price.tiers_mode !== 'graduated') problems.push('is not graduated tiered');
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
