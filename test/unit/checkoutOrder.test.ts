/**
 * The order the checkout pays and finalizes, and the record the success page reads (spec §3; the tax,
 * docs/decisions/0071), read from the statechart's context by src/machines/checkoutOrder.ts. The expected amounts
 * come from the price list (src/domain/pricing.ts) and the quote, in dollars as spec §3 stores them.
 */
import { describe, expect, it } from 'vitest';
import type { PendingPayment } from '../../src/api/pendingPayment';
import type { FinalizeResponse, SubscriptionSession } from '../../src/contract/checkout';
import { monthlyTotalCents } from '../../src/domain/pricing';
import { finalizeInput, orderOf, paymentRecord } from '../../src/machines/checkoutOrder';
import type { QuotedTax } from '../../src/machines/checkoutTax';

const session: SubscriptionSession = {
  clientSecret: 'pi_7_secret_b',
  subscriptionId: 'sub_7',
  subscriptionItemId: 'si_7',
  customerId: 'cus_7',
  transactionId: 'txn_7',
};

/** What the buyer typed, with the spaces a buyer leaves around it. */
const form = { firstName: ' Ada ', lastName: ' Lovelace ', email: ' ada@example.com ' };

/** A checkout at `seats` confirmed seats, paid with the session's ids, before any pending payment. */
function context(seats: number, taxQuote: QuotedTax | null = null) {
  return { pendingPayment: null, session, confirmedSeats: seats, form, taxQuote };
}

const finalized: FinalizeResponse = {
  success: true,
  token: 'tok_7',
  loginDetails: { email: 'ada@example.com', password: 'pw-7', productPurchased: 'AI training' },
  signInLinkEmailed: false,
};

describe('orderOf', () => {
  it("is the session's order for the confirmed seats, with the buyer's name joined and email trimmed (spec §3)", () => {
    expect(orderOf(context(3))).toEqual({
      transactionId: 'txn_7',
      subscriptionId: 'sub_7',
      customerId: 'cus_7',
      seats: 3,
      totalAmount: monthlyTotalCents(3) / 100,
      name: 'Ada Lovelace',
      email: 'ada@example.com',
    });
  });

  it('adds the quoted tax to the total and names it, when the quote is for the confirmed seats', () => {
    const order = orderOf(context(3, { seats: 3, taxCents: 4_712, taxState: 'HI' }));
    expect(order.totalAmount).toBe((monthlyTotalCents(3) + 4_712) / 100);
    expect(order.taxAmount).toBe(4_712 / 100);
  });

  it('leaves out a quote for other seats, and a quote of no tax: the total is the seats alone, with no tax named', () => {
    for (const quote of [
      { seats: 2, taxCents: 4_712, taxState: 'HI' },
      { seats: 3, taxCents: 0, taxState: null },
    ]) {
      const order = orderOf(context(3, quote));
      expect(order.totalAmount, JSON.stringify(quote)).toBe(monthlyTotalCents(3) / 100);
      expect('taxAmount' in order, JSON.stringify(quote)).toBe(false);
    }
  });

  it('is the resumed payment as it was remembered, whatever the page holds now', () => {
    const pendingPayment: PendingPayment = {
      transactionId: 'txn_old',
      subscriptionId: 'sub_old',
      customerId: 'cus_old',
      seats: 5,
      totalAmount: monthlyTotalCents(5) / 100,
      name: 'Grace Hopper',
      email: 'grace@example.com',
      savedAt: 1_700_000_000_000,
    };
    expect(orderOf({ ...context(3), pendingPayment })).toBe(pendingPayment);
  });
});

describe('paymentRecord', () => {
  it("is the finalize answer plus seatCount, totalAmount, email, name and transactionId (spec §3 'paymentSuccess')", () => {
    expect(paymentRecord(context(2), finalized)).toEqual({
      ...finalized,
      seatCount: 2,
      totalAmount: monthlyTotalCents(2) / 100,
      email: 'ada@example.com',
      name: 'Ada Lovelace',
      transactionId: 'txn_7',
    });
  });

  it('names the tax of a taxed order, and only then', () => {
    const taxed = paymentRecord(context(2, { seats: 2, taxCents: 2_356, taxState: 'HI' }), finalized);
    expect(taxed).toMatchObject({ totalAmount: (monthlyTotalCents(2) + 2_356) / 100, taxAmount: 2_356 / 100 });
    expect('taxAmount' in paymentRecord(context(2, { seats: 2, taxCents: 0, taxState: null }), finalized)).toBe(false);
  });
});

describe('finalizeInput', () => {
  it("sends the order's ids and the buyer who paid (spec §7 call 3)", () => {
    expect(finalizeInput(context(4))).toEqual({
      order: expect.objectContaining({ subscriptionId: 'sub_7', customerId: 'cus_7', transactionId: 'txn_7' }),
      billingDetails: { name: 'Ada Lovelace', email: 'ada@example.com' },
    });
  });
});
