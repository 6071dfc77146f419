/**
 * The stored payment-success record (spec §3): kept in session storage under 'paymentSuccess' between the
 * checkout and the success page.
 */
import type { FinalizeResponse } from '../contract/checkout';

/** The session-storage key, verbatim from spec §3. */
export const PAYMENT_RECORD_KEY = 'paymentSuccess';

/**
 * All fields of the finalize response plus seatCount, totalAmount (dollars per month, as the spec names it),
 * email, name (first and last joined) and transactionId.
 */
export interface PaymentSuccessRecord extends FinalizeResponse {
  seatCount: number;
  /** Monthly total in dollars (spec §3 "total amount (dollars per month)"). */
  totalAmount: number;
  email: string;
  name: string;
  transactionId: string;
}

export type PaymentRecordReading = { kind: 'found'; record: PaymentSuccessRecord } | { kind: 'missing' } | { kind: 'corrupt' };

type RecordStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

function sessionStore(): RecordStorage {
  return globalThis.sessionStorage;
}

/** Writes `record` to session storage. */
export function savePaymentRecord(record: PaymentSuccessRecord, storage: RecordStorage = sessionStore()): void {
  storage.setItem(PAYMENT_RECORD_KEY, JSON.stringify(record));
}

/** Removes the record (spec §4: cleared when the buyer goes on to sign the agreement). */
export function clearPaymentRecord(storage: RecordStorage = sessionStore()): void {
  storage.removeItem(PAYMENT_RECORD_KEY);
}

function isString(value: unknown): value is string {
  return typeof value === 'string';
}

function isPaymentSuccessRecord(value: unknown): value is PaymentSuccessRecord {
  if (!value || typeof value !== 'object') return false;
  const record = value as Record<string, unknown>;
  const login = record.loginDetails as Record<string, unknown> | undefined;
  return (
    typeof record.success === 'boolean' &&
    (record.token === undefined || record.token === null || isString(record.token)) &&
    !!login &&
    typeof login === 'object' &&
    isString(login.email) &&
    isString(login.password) &&
    isString(login.productPurchased) &&
    Number.isInteger(record.seatCount) &&
    typeof record.totalAmount === 'number' &&
    isString(record.email) &&
    isString(record.name) &&
    isString(record.transactionId)
  );
}

/** Reads the record: found, missing, or corrupt (not JSON, or not the record's shape). */
export function readPaymentRecord(storage: RecordStorage = sessionStore()): PaymentRecordReading {
  const raw = storage.getItem(PAYMENT_RECORD_KEY);
  if (raw === null) return { kind: 'missing' };
  try {
    const parsed: unknown = JSON.parse(raw);
    return isPaymentSuccessRecord(parsed) ? { kind: 'found', record: parsed } : { kind: 'corrupt' };
  } catch {
    return { kind: 'corrupt' };
  }
}
