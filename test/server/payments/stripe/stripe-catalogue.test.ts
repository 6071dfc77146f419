/**
 * The Stripe catalogue (server/payments/stripe/catalogue.ts): the graduated tiers bill exactly what the pricing
 * rule in src/domain/pricing.ts says, and an existing Price is checked against them.
 */
import type Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import {
  graduatedTotalCents,
  priceCreateParams,
  priceDifferences,
  SEAT_TIERS,
  STRIPE_PRODUCT_ID,
} from '../../../../server/payments/stripe/catalogue';
import { monthlyTotalCents } from '../../../../src/domain/pricing';
import { fixture } from '../../helpers/stripeDouble';

describe('SEAT_TIERS', () => {
  it('is seat 1 at $500, seat 2 free, every further seat $500', () => {
    expect(SEAT_TIERS).toEqual([
      { up_to: 1, unit_amount: 50_000 },
      { up_to: 2, unit_amount: 0 },
      { up_to: 'inf', unit_amount: 50_000 },
    ]);
  });

  it('gives the same monthly total as the pricing rule for 1 to 100 seats', () => {
    for (let seats = 1; seats <= 100; seats++) {
      expect(graduatedTotalCents(SEAT_TIERS, seats), `${seats} seats`).toBe(monthlyTotalCents(seats));
    }
  });
});

describe('graduatedTotalCents', () => {
  const tiers = [
    { up_to: 10, unit_amount: 100 },
    { up_to: 20, unit_amount: 50 },
    { up_to: 'inf' as const, unit_amount: 10 },
  ];

  it.each([
    [0, 0],
    [1, 100],
    [10, 1_000],
    [11, 1_050],
    [20, 1_500],
    [25, 1_550],
  ])('charges %i units at each tier’s price: %i cents', (quantity, cents) => {
    expect(graduatedTotalCents(tiers, quantity)).toBe(cents);
  });

  it('refuses a quantity the tiers do not reach, or one that is not a whole number', () => {
    expect(() => graduatedTotalCents([{ up_to: 2, unit_amount: 1 }], 3)).toThrow(RangeError);
    expect(() => graduatedTotalCents(tiers, 1.5)).toThrow(RangeError);
    expect(() => graduatedTotalCents(tiers, -1)).toThrow(RangeError);
  });
});

describe('priceCreateParams', () => {
  it('describes a monthly USD graduated tiered Price on our Product, under the lookup key', () => {
    expect(priceCreateParams('chiro_ai_training_monthly', false)).toMatchObject({
      product: STRIPE_PRODUCT_ID,
      currency: 'usd',
      recurring: { interval: 'month', usage_type: 'licensed' },
      billing_scheme: 'tiered',
      tiers_mode: 'graduated',
      tiers: SEAT_TIERS,
      lookup_key: 'chiro_ai_training_monthly',
      transfer_lookup_key: false,
    });
  });
});

describe('priceDifferences', () => {
  it('finds none in the Price setup creates', () => {
    expect(priceDifferences(fixture<Stripe.Price>('price-tiered'))).toEqual([]);
  });

  it('names each way a Price bills differently', () => {
    const price = fixture<Stripe.Price>('price-tiered');
    price.currency = 'eur';
    price.tiers_mode = 'volume';
    price.tiers = price.tiers?.slice(0, 2);
    if (price.recurring) price.recurring.interval = 'year';
    price.tax_behavior = 'inclusive';

    const differences = priceDifferences(price);

    expect(differences).toHaveLength(5);
    expect(differences.join('\n')).toMatch(/tax_behavior is inclusive, expected exclusive/);
    expect(differences.join('\n')).toMatch(/currency is eur/);
    expect(differences.join('\n')).toMatch(/billed every month/);
    expect(differences.join('\n')).toMatch(/not graduated tiered/);
    expect(differences.join('\n')).toMatch(/tiers are/);
  });

  it('notices a flat fee on a tier', () => {
    const price = fixture<Stripe.Price>('price-tiered');
    const firstTier = price.tiers?.[0];
    if (firstTier) firstTier.flat_amount = 100;

    expect(priceDifferences(price)).toEqual([expect.stringMatching(/tiers are/)]);
  });
});
