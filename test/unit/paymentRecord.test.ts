import { describe, expect, it } from 'vitest';
import {
  clearPaymentRecord,
  PAYMENT_RECORD_KEY,
  readPaymentRecord,
  savePaymentRecord,
  type PaymentSuccessRecord,
} from '../../src/api/paymentRecord';

function memoryStorage() {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
}

const record: PaymentSuccessRecord = {
  success: true,
  token: 't',
  loginDetails: { email: 'a@b.co', password: 'x'.repeat(20), productPurchased: 'P' },
  seatCount: 1,
  totalAmount: 500,
  email: 'a@b.co',
  name: 'A B',
  transactionId: 'txn',
};

describe('stored payment record (spec §3)', () => {
  it("round-trips under the key 'paymentSuccess'", () => {
    const storage = memoryStorage();
    savePaymentRecord(record, storage);
    expect([...storage.items.keys()]).toEqual([PAYMENT_RECORD_KEY]);
    expect(PAYMENT_RECORD_KEY).toBe('paymentSuccess');
    expect(readPaymentRecord(storage)).toEqual({ kind: 'found', record });
    clearPaymentRecord(storage);
    expect(readPaymentRecord(storage)).toEqual({ kind: 'missing' });
  });

  it('calls unparsable or wrongly shaped data corrupt', () => {
    const storage = memoryStorage();
    storage.setItem(PAYMENT_RECORD_KEY, '{not json');
    expect(readPaymentRecord(storage)).toEqual({ kind: 'corrupt' });
    storage.setItem(PAYMENT_RECORD_KEY, JSON.stringify({ success: true }));
    expect(readPaymentRecord(storage)).toEqual({ kind: 'corrupt' });
  });
});
