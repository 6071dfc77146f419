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
  signInLinkEmailed: false,
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

  it('keeps a record without credentials, when finalize mailed a sign-in link instead (decision 0026)', () => {
    const storage = memoryStorage();
    const withoutCredentials: PaymentSuccessRecord = { ...record, token: null, loginDetails: null, signInLinkEmailed: true };
    savePaymentRecord(withoutCredentials, storage);
    expect(readPaymentRecord(storage)).toEqual({ kind: 'found', record: withoutCredentials });
  });

  it('reads a record stored before signInLinkEmailed existed as one with credentials', () => {
    const storage = memoryStorage();
    const { signInLinkEmailed: _, ...older } = record;
    storage.setItem(PAYMENT_RECORD_KEY, JSON.stringify(older));
    expect(readPaymentRecord(storage)).toEqual({ kind: 'found', record });
  });

  it.each([
    ['no credentials and no sign-in link', { loginDetails: null, signInLinkEmailed: false }],
    ['no credentials and no flag', { loginDetails: null, signInLinkEmailed: undefined }],
    ['credentials and a sign-in link', { signInLinkEmailed: true }],
    ['credentials without a password', { loginDetails: { email: 'a@b.co', productPurchased: 'P' } }],
  ])('calls a record with %s corrupt', (_, change) => {
    const storage = memoryStorage();
    storage.setItem(PAYMENT_RECORD_KEY, JSON.stringify({ ...record, ...change }));
    expect(readPaymentRecord(storage)).toEqual({ kind: 'corrupt' });
  });

  it('calls unparsable or wrongly shaped data corrupt', () => {
    const storage = memoryStorage();
    storage.setItem(PAYMENT_RECORD_KEY, '{not json');
    expect(readPaymentRecord(storage)).toEqual({ kind: 'corrupt' });
    storage.setItem(PAYMENT_RECORD_KEY, JSON.stringify({ success: true }));
    expect(readPaymentRecord(storage)).toEqual({ kind: 'corrupt' });
  });
});
