/** An order's status in the owner's words: one rule, src/domain/orderStatus.ts. */
import { describe, expect, it } from 'vitest';
import { orderStanding, orderStatusWords } from '../../src/domain/orderStatus';

const order = { status: 'paid', cancelAt: null, pastDueSince: null, refundedCents: 0 };

describe('orderStatusWords', () => {
  it('says Active, Cancels on…, Past due since…, Cancelled, Refunded, Not paid', () => {
    expect(orderStatusWords(order)).toBe('Active');
    expect(orderStatusWords({ ...order, cancelAt: '2026-12-24T23:30:00.000Z' })).toBe('Cancels on Dec 24, 2026');
    expect(orderStatusWords({ ...order, status: 'past_due', pastDueSince: '2026-11-24T00:10:00.000Z' })).toBe(
      'Past due since Nov 24, 2026',
    );
    expect(orderStatusWords({ ...order, status: 'cancelled', cancelAt: '2026-12-24T00:00:00.000Z' })).toBe('Cancelled');
    expect(orderStatusWords({ ...order, status: 'cancelled', refundedCents: 50_000 })).toBe('Refunded');
    expect(orderStatusWords({ ...order, status: 'open' })).toBe('Not paid');
  });

  it('puts a past-due order with a scheduled cancellation under past due (the payment is what needs the owner)', () => {
    expect(orderStanding({ ...order, status: 'past_due', cancelAt: '2026-12-24T00:00:00.000Z' })).toBe('past_due');
  });

  it('an open dispute comes first, with its evidence deadline: the owner must answer it, whatever else holds', () => {
    expect(orderStatusWords({ ...order, disputed: true, disputeDueBy: '2026-12-03T23:59:59.000Z' })).toBe(
      'Disputed: evidence due Dec 3, 2026',
    );
    expect(orderStanding({ ...order, status: 'cancelled', refundedCents: 50_000, disputed: true, disputeDueBy: null })).toBe('disputed');
    expect(orderStatusWords({ ...order, status: 'past_due', disputed: true, disputeDueBy: null })).toBe('Disputed');
    expect(orderStanding({ ...order, disputed: false })).toBe('active');
  });
});
