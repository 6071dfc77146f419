/** What the checkout chart's unit tests share: the session call 1 answers, and the browser's storage in memory. */
import type { SubscriptionSession } from '../../../src/contract/checkout';

export const session: SubscriptionSession = {
  clientSecret: 'pi_1_secret_a',
  subscriptionId: 'sub_1',
  subscriptionItemId: 'si_1',
  customerId: 'cus_1',
  transactionId: 'txn_1',
};

/** A `localStorage` or `sessionStorage` the chart keeps its records in, here in memory (the unit tests run in Node). */
export function memoryStorage(): Pick<Storage, 'getItem' | 'setItem' | 'removeItem' | 'clear'> {
  const items = new Map<string, string>();
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
    clear: () => items.clear(),
  };
}
