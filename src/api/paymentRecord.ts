/**
 * The stored payment-success record (spec §3): kept in session storage under 'paymentSuccess' between the
 * checkout and the success page.
 */
import type { FinalizeResponse } from '../contract/checkout';

/** The session-storage key, verbatim from spec §3. */
export const PAYMENT_RECORD_KEY = 'paymentSuccess';

/**
 * All fields of the finalize response plus seatCount, totalAmount (dollars per month, as the spec names it),
 * email, name (first and last joined) and transactionId. Without credentials (`loginDetails` null) when finalize
 * mailed a sign-in link instead (docs/decisions/0026).
 */
export interface PaymentSuccessRecord extends FinalizeResponse {
  seatCount: number;
  /** Monthly total in dollars (spec §3 "total amount (dollars per month)"), tax included. */
  totalAmount: number;
  /** The monthly tax in it, in dollars, shown as its own line; absent or 0 untaxed (docs/decisions/0071). */
  taxAmount?: number;
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

function isLoginDetails(value: unknown): boolean {
  if (!value || typeof value !== 'object') return false;
  const login = value as Record<string, unknown>;
  return isString(login.email) && isString(login.password) && isString(login.productPurchased);
}

/**
 * The record's shape: with credentials (`loginDetails`), or without them once a sign-in link was mailed instead
 * (`loginDetails` null, `signInLinkEmailed` true; docs/decisions/0026). A record stored before `signInLinkEmailed`
 * existed has credentials and no such field.
 */
function isPaymentSuccessRecord(
  value: unknown,
): value is Omit<PaymentSuccessRecord, 'signInLinkEmailed'> & { signInLinkEmailed?: boolean } {
  if (!value || typeof value !== 'object') return false;
  const record = value as Record<string, unknown>;
  const credentials = isLoginDetails(record.loginDetails)
    ? record.signInLinkEmailed === undefined || record.signInLinkEmailed === false
    : record.loginDetails === null && record.signInLinkEmailed === true;
  return (
    typeof record.success === 'boolean' &&
    (record.token === undefined || record.token === null || isString(record.token)) &&
    credentials &&
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
    if (!isPaymentSuccessRecord(parsed)) return { kind: 'corrupt' };
    return { kind: 'found', record: { ...parsed, token: parsed.token ?? null, signInLinkEmailed: parsed.signInLinkEmailed === true } };
  } catch {
    return { kind: 'corrupt' };
  }
}
