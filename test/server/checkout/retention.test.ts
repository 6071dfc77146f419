/**
 * Bounded storage: the sweep deletes checkouts abandoned longer than RETENTION_DAYS with the sandbox's records
 * of them, keeps paid and recent ones (and any payment an order never got), on PGlite and PostgreSQL.
 */
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accountLinks,
  addressDeclines,
  orders,
  outbox,
  sandboxCustomers,
  sandboxSubscriptions,
  webhookEvents,
} from '../../../server/db/schema';
import { reconcileOrders } from '../../../server/checkout/reconcileOrders';
import { confirmSandboxIntent } from '../../../server/payments/sandbox/intents';
import { completePurchase, DATABASES, openCheckout, startTestServer, type TestServer } from '../helper';

const DAY_MS = 24 * 60 * 60 * 1000;

describe.each(DATABASES)('retention on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind, { env: { RETENTION_DAYS: '30' } });
  });
  afterAll(() => server.close());

  async function age(transactionId: string, days: number) {
    const then = new Date(Date.now() - days * DAY_MS);
    await server.db.update(orders).set({ createdAt: then }).where(eq(orders.transactionId, transactionId));
    const subscriptions = await server.db.select().from(sandboxSubscriptions).where(eq(sandboxSubscriptions.transactionId, transactionId));
    await server.db.update(sandboxSubscriptions).set({ createdAt: then }).where(eq(sandboxSubscriptions.transactionId, transactionId));
    await server.db
      .update(sandboxCustomers)
      .set({ createdAt: then })
      .where(
        inArray(
          sandboxCustomers.id,
          subscriptions.map((subscription) => subscription.customerId),
        ),
      );
  }
  const orderExists = async (transactionId: string) =>
    (await server.db.select().from(orders).where(eq(orders.transactionId, transactionId))).length === 1;
  const sandboxRows = async (transactionId: string) =>
    (await server.db.select().from(sandboxSubscriptions).where(eq(sandboxSubscriptions.transactionId, transactionId))).length;

  it('deletes abandoned checkouts past the retention with their sandbox rows, and keeps the rest', async () => {
    const abandoned = await openCheckout(server, 2);
    const recent = await openCheckout(server, 1);
    const { session: paid } = await completePurchase(server, 1);
    const stranded = await openCheckout(server, 1);
    await confirmSandboxIntent(
      server.db,
      stranded.clientSecret,
      { behaviour: 'succeeds', last4: '4242' },
      { name: 'A B', email: 'a@b.co' },
    );
    for (const session of [abandoned, paid, stranded]) await age(session.transactionId, 31);
    await age(recent.transactionId, 29);
    await server.db
      .insert(webhookEvents)
      .values({ eventId: 'evt_old', type: 'invoice.paid', receivedAt: new Date(Date.now() - 31 * DAY_MS) });
    await server.db.insert(addressDeclines).values([
      { address: '203.0.113.7', declines: 5, windowStartedAt: new Date(Date.now() - 2 * DAY_MS) },
      { address: '203.0.113.8', declines: 5 },
    ]);

    const report = await reconcileOrders(server.context());

    expect(report.deleted.abandonedOrders).toBeGreaterThanOrEqual(1);
    expect(report.deleted.webhookEvents).toBeGreaterThanOrEqual(1);
    expect(report.deleted.addressDeclines).toBe(1);
    expect((await server.db.select().from(addressDeclines)).map((row) => row.address)).toEqual(['203.0.113.8']);
    expect(await orderExists(abandoned.transactionId)).toBe(false);
    expect(await sandboxRows(abandoned.transactionId)).toBe(0);
    expect(await server.db.select().from(sandboxCustomers).where(eq(sandboxCustomers.id, abandoned.customerId))).toEqual([]);
    expect(await orderExists(recent.transactionId)).toBe(true);
    expect(await orderExists(paid.transactionId)).toBe(true);
    expect(await sandboxRows(paid.transactionId)).toBe(1);
    expect(await orderExists(stranded.transactionId)).toBe(true);
    expect(await sandboxRows(stranded.transactionId)).toBe(1);
    // Asked before deletion, the provider reported the stranded order paid: it is completed, not deleted.
    expect(report.askedBeforeDeleting).toBeGreaterThanOrEqual(2);
    expect((await server.db.select().from(orders).where(eq(orders.transactionId, stranded.transactionId)))[0]?.status).toBe('paid');
  });

  it('deletes sent outbox rows and spent links past their time, and keeps mail still to send', async () => {
    const { session } = await completePurchase(server, 1);
    const old = new Date(Date.now() - 31 * DAY_MS);
    await server.db.insert(outbox).values([
      {
        kind: 'mail',
        topic: 'renewal_receipt',
        dedupeKey: 'retention:sent',
        transactionId: session.transactionId,
        payload: {},
        status: 'sent',
        createdAt: old,
      },
      {
        kind: 'mail',
        topic: 'renewal_receipt',
        dedupeKey: 'retention:pending',
        transactionId: session.transactionId,
        payload: {},
        status: 'pending',
        createdAt: old,
      },
    ]);
    await server.db.insert(accountLinks).values([
      {
        tokenHash: 'retention-expired',
        transactionId: session.transactionId,
        purpose: 'manage',
        expiresAt: new Date(Date.now() - 2 * DAY_MS),
      },
      { tokenHash: 'retention-live', transactionId: session.transactionId, purpose: 'manage', expiresAt: new Date(Date.now() + DAY_MS) },
    ]);

    const report = await reconcileOrders(server.context());

    expect(report.deleted.outbox).toBe(1);
    expect(report.deleted.accountLinks).toBe(1);
    expect(
      (
        await server.db
          .select()
          .from(outbox)
          .where(inArray(outbox.dedupeKey, ['retention:sent', 'retention:pending']))
      ).map((row) => row.dedupeKey),
    ).toEqual(['retention:pending']);
    expect((await server.db.select().from(accountLinks)).map((row) => row.tokenHash)).toEqual(['retention-live']);
  });
});
