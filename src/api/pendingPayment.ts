/**
 * What this browser remembers about a payment in local storage, so it survives a reload and a closed tab
 * (docs/decisions/0006 and 0007). No card data and no secret beyond what the page already holds: the order's ids,
 * the seats, the monthly total in dollars, and the buyer's name and email.
 *
 * - 'pendingPayment': written just before the card payment is confirmed; dropped when the payment is refused or
 *   finalized. A page that opens with one resumes that checkout: it finalizes it (paid) or drops it (not paid).
 * - 'recentPurchase': written when a purchase is finalized; for 24 hours the checkout shows a notice with the
 *   order, so the buyer does not buy twice by accident.
 */

/** The order and buyer of a payment this browser started. */
export interface RememberedOrder {
  transactionId: string;
  subscriptionId: string;
  customerId: string;
  seats: number;
  /** Monthly total in dollars (spec §3), tax included. */
  totalAmount: number;
  /** The monthly tax in it, in dollars; absent or 0 untaxed (docs/decisions/0071). */
  taxAmount?: number;
  name: string;
  email: string;
}

export interface PendingPayment extends RememberedOrder {
  /** When the payment was started, ms since the epoch. */
  savedAt: number;
}

export interface RecentPurchase extends RememberedOrder {
  /** When the purchase was finalized, ms since the epoch. */
  completedAt: number;
}

export const PENDING_PAYMENT_KEY = 'pendingPayment';
export const RECENT_PURCHASE_KEY = 'recentPurchase';

/** How long either record counts: 24 hours, in ms. */
const REMEMBERED_FOR_MS = 24 * 60 * 60 * 1000;

type Store = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** Local storage, or nothing where there is none (a server render, a browser that refuses it). */
function localStore(): Store | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
}

function isRememberedOrder(value: unknown): value is RememberedOrder {
  if (!value || typeof value !== 'object') return false;
  const record = value as Record<string, unknown>;
  return (
    ['transactionId', 'subscriptionId', 'customerId', 'name', 'email'].every(
      (key) => typeof record[key] === 'string' && record[key] !== '',
    ) &&
    Number.isInteger(record.seats) &&
    typeof record.totalAmount === 'number'
  );
}

/** Reads `key` as a record stamped at `stampKey`; a missing, unreadable or older-than-24-h one is dropped: null. */
function readStamped<T extends RememberedOrder>(key: string, stampKey: keyof T & string, now: number, store = localStore()): T | null {
  let raw: string | null = null;
  try {
    raw = store?.getItem(key) ?? null;
  } catch {
    return null;
  }
  if (raw === null) return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    const stamp = parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>)[stampKey] : undefined;
    if (isRememberedOrder(parsed) && typeof stamp === 'number' && now - stamp >= 0 && now - stamp < REMEMBERED_FOR_MS) return parsed as T;
  } catch {
    // unreadable: dropped below
  }
  forget(key, store);
  return null;
}

function write(key: string, value: unknown, store = localStore()): void {
  try {
    store?.setItem(key, JSON.stringify(value));
  } catch {
    // Storage full or refused: the server still completes the order; only the resume after a reload is lost.
  }
}

function forget(key: string, store = localStore()): void {
  try {
    store?.removeItem(key);
  } catch {
    // nothing to do
  }
}

/** The pending payment, unless it is older than 24 hours or unreadable (then it is dropped). */
export function readPendingPayment(now: number = Date.now(), store?: Store): PendingPayment | null {
  return readStamped<PendingPayment>(PENDING_PAYMENT_KEY, 'savedAt', now, store ?? localStore());
}

export function savePendingPayment(payment: PendingPayment, store?: Store): void {
  write(PENDING_PAYMENT_KEY, payment, store ?? localStore());
}

export function forgetPendingPayment(store?: Store): void {
  forget(PENDING_PAYMENT_KEY, store ?? localStore());
}

/** The purchase finalized in this browser in the last 24 hours, or null. */
export function readRecentPurchase(now: number = Date.now(), store?: Store): RecentPurchase | null {
  return readStamped<RecentPurchase>(RECENT_PURCHASE_KEY, 'completedAt', now, store ?? localStore());
}

export function rememberPurchase(purchase: RecentPurchase, store?: Store): void {
  write(RECENT_PURCHASE_KEY, purchase, store ?? localStore());
}

/** The email of this browser's pending payment (the redirect return proves itself with it), or null. */
export function pendingPaymentEmail(now: number = Date.now(), store?: Store): string | null {
  return readPendingPayment(now, store)?.email ?? null;
}
