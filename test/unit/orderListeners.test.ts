/**
 * The lifecycle's listeners (server/checkout/orderListeners.ts, docs/decisions/0061 and 0066): announcements reach
 * each feature in the order given, and the retention sweep gathers every feature's part of it, by name.
 */
import { describe, expect, it } from 'vitest';
import { orderListeners } from '../../server/checkout/orderListeners';
import type { Transaction } from '../../server/db/client';

/** The listeners never touch the transaction here: they only record what they were told. */
const tx = {} as Transaction;
const period = { retentionDays: 30 };

describe('orderListeners', () => {
  it('announces to the features that listen, one after another in the order given', async () => {
    const heard: string[] = [];
    const listeners = orderListeners([
      { signInLinkWanted: async (_tx, { transactionId }) => void heard.push(`first ${transactionId}`) },
      { sweepExpired: async () => ({ oidcRecords: 1 }) },
      { signInLinkWanted: async (_tx, { transactionId }) => void heard.push(`second ${transactionId}`) },
    ]);
    await listeners.announce(tx, 'signInLinkWanted', { transactionId: 'txn_1' });
    expect(heard).toEqual(['first txn_1', 'second txn_1']);
  });

  it("gathers each feature's part of the retention sweep under its own names, and runs none of the announcements", async () => {
    const heard: string[] = [];
    const listeners = orderListeners([
      { sweepExpired: async () => ({ oidcRecords: 3 }), signInLinkWanted: async () => void heard.push('announced') },
      {},
      { sweepExpired: async () => ({ partnerLinks: 2 }) },
    ]);
    expect(await listeners.sweepExpired(tx, period)).toEqual({ oidcRecords: 3, partnerLinks: 2 });
    expect(heard).toEqual([]);
  });

  it("hands each part the sweep's retention period", async () => {
    const listeners = orderListeners([
      { sweepExpired: async (_tx, { retentionDays }) => ({ outbox: retentionDays }) },
      { sweepExpired: async (_tx, { retentionDays }) => ({ accountLinks: retentionDays + 1 }) },
    ]);
    expect(await listeners.sweepExpired(tx, { retentionDays: 7 })).toEqual({ outbox: 7, accountLinks: 8 });
  });

  it("lets a part's error through, so the sweep's transaction rolls back", async () => {
    const listeners = orderListeners([
      {
        sweepExpired: async () => {
          throw new Error('database gone');
        },
      },
    ]);
    await expect(listeners.sweepExpired(tx, period)).rejects.toThrow('database gone');
  });

  it('sweeps nothing when no feature has a part', async () => {
    expect(await orderListeners([]).sweepExpired(tx, period)).toEqual({});
  });
});
