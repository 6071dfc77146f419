/**
 * The server owns an order's completion: a payment the provider accepted completes its order without the
 * browser (the sandbox's payment event at confirmation, the reconciliation sweep for what no event reached), and
 * completion re-checks what was paid for under the order's lock. On PGlite and PostgreSQL.
 */
import { verify } from '@node-rs/argon2';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FinalizeResponse } from '../../../src/contract/checkout';
import { accounts, orders, sandboxCustomers, sandboxSubscriptions } from '../../../server/db/schema';
import { reconcileOrders } from '../../../server/checkout/reconcileOrders';
import { confirmSandboxIntent } from '../../../server/payments/sandbox/intents';
import { DATABASES, finalize, handedOut, openCheckout, payWithCard, startTestServer, TEST_CARDS, type TestServer } from '../helper';

describe.each(DATABASES)('order completion on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(() => server.close());

  const orderRow = async (transactionId: string) =>
    (await server.db.select().from(orders).where(eq(orders.transactionId, transactionId)))[0];
  const accountsOf = (transactionId: string) => server.db.select().from(accounts).where(eq(accounts.transactionId, transactionId));
  const customerRow = async (id: string) => (await server.db.select().from(sandboxCustomers).where(eq(sandboxCustomers.id, id)))[0];

  /** Pays like a buyer whose server process died right after taking the payment: no payment event ran. */
  async function payWithoutEvent(clientSecret: string) {
    const outcome = await confirmSandboxIntent(
      server.db,
      clientSecret,
      { behaviour: 'succeeds', last4: '4242' },
      { name: 'Ada Palmer', email: 'ada@example.com' },
    );
    expect(outcome.kind).toBe('succeeded');
  }

  it('completes the order at the accepted card confirmation, before any finalize: paid, one account, buyer on the customer', async () => {
    const session = await openCheckout(server, 3);
    expect((await payWithCard(server, session.clientSecret)).json()).toMatchObject({ status: 'succeeded' });

    expect(await orderRow(session.transactionId)).toMatchObject({
      status: 'paid',
      quantity: 3,
      amountCents: 100_000,
      email: 'ada@example.com',
      name: 'Ada Palmer',
    });
    const [account, ...more] = await accountsOf(session.transactionId);
    expect(more).toHaveLength(0);
    expect(account).toMatchObject({ email: 'ada@example.com', passwordHash: null });
    expect(await customerRow(session.customerId)).toMatchObject({ email: 'ada@example.com', name: 'Ada Palmer' });

    // The browser's finalize, when it comes, hands over working credentials for that one account.
    const finalized = handedOut((await finalize(server, session)).json<FinalizeResponse>());
    const [withPassword] = await accountsOf(session.transactionId);
    expect(await verify(withPassword!.passwordHash!, finalized.loginDetails.password)).toBe(true);
    expect(await accountsOf(session.transactionId)).toHaveLength(1);
  });

  it('completes the order after an authentication challenge, and a repeated confirmation changes nothing', async () => {
    const session = await openCheckout(server, 1);
    await payWithCard(server, session.clientSecret, TEST_CARDS.authentication);
    expect(await orderRow(session.transactionId)).toMatchObject({ status: 'open' });
    await server.post('/api/sandbox/payment-intents/authenticate', { clientSecret: session.clientSecret, outcome: 'completed' });
    expect(await orderRow(session.transactionId)).toMatchObject({ status: 'paid' });
    await server.post('/api/sandbox/payment-intents/authenticate', { clientSecret: session.clientSecret, outcome: 'completed' });
    expect(await accountsOf(session.transactionId)).toHaveLength(1);
  });

  it('leaves a declined order open and without an account', async () => {
    const session = await openCheckout(server, 1);
    expect((await payWithCard(server, session.clientSecret, TEST_CARDS.declined)).statusCode).toBe(402);
    expect(await orderRow(session.transactionId)).toMatchObject({ status: 'open' });
    expect(await accountsOf(session.transactionId)).toHaveLength(0);
  });

  it('the sweep completes a paid order no event reached, once, and leaves unpaid ones open', async () => {
    const paid = await openCheckout(server, 2);
    const unpaid = await openCheckout(server, 1);
    await payWithoutEvent(paid.clientSecret);
    expect(await orderRow(paid.transactionId)).toMatchObject({ status: 'open' });

    const report = await reconcileOrders(server.context());
    expect(report.completed).toBeGreaterThanOrEqual(1);
    expect(report.failed).toBe(0);
    expect(await orderRow(paid.transactionId)).toMatchObject({ status: 'paid', email: 'ada@example.com' });
    expect(await accountsOf(paid.transactionId)).toHaveLength(1);
    expect(await customerRow(paid.customerId)).toMatchObject({ email: 'ada@example.com' });
    expect(await orderRow(unpaid.transactionId)).toMatchObject({ status: 'open', reconciledAt: expect.any(Date) });
    expect(await accountsOf(unpaid.transactionId)).toHaveLength(0);

    await reconcileOrders(server.context());
    expect(await accountsOf(paid.transactionId)).toHaveLength(1);
    expect((await finalize(server, paid)).statusCode).toBe(200);
  });

  it('after any sweep, no paid subscription belongs to an order that is not paid', async () => {
    for (let i = 0; i < 5; i += 1) await payWithoutEvent((await openCheckout(server, 1 + i)).clientSecret);
    await reconcileOrders(server.context(), { batchSize: 1000 });
    const stranded = await server.db
      .select({ transactionId: orders.transactionId })
      .from(sandboxSubscriptions)
      .innerJoin(orders, eq(orders.subscriptionId, sandboxSubscriptions.id))
      .where(eq(sandboxSubscriptions.status, 'active'));
    const statuses = await Promise.all(stranded.map(async ({ transactionId }) => (await orderRow(transactionId))!.status));
    expect(statuses.length).toBeGreaterThanOrEqual(5);
    expect(statuses.filter((status) => status !== 'paid')).toEqual([]);
  });

  it('the sweep does not ask about open orders older than its window', async () => {
    const old = await openCheckout(server, 1);
    await payWithoutEvent(old.clientSecret);
    await server.db
      .update(orders)
      .set({ createdAt: new Date(Date.now() - 25 * 60 * 60 * 1000) })
      .where(eq(orders.transactionId, old.transactionId));
    await reconcileOrders(server.context(), { batchSize: 1000 });
    expect(await orderRow(old.transactionId)).toMatchObject({ status: 'open', reconciledAt: null });
  });

  describe('when a seat change moves the order between the payment check and the completion', () => {
    let moving: TestServer;
    let moveDuringFinalize: (() => Promise<unknown>) | null = null;
    beforeAll(async () => {
      moving = await server.derive({
        wrapProvider: (sandbox) => ({
          ...sandbox,
          async retrieveSubscriptionPayment(id) {
            const payment = await sandbox.retrieveSubscriptionPayment(id);
            const move = moveDuringFinalize;
            moveDuringFinalize = null;
            if (move) await move();
            return payment;
          },
        }),
      });
    });
    afterAll(() => moving.close());

    it('completes nothing (409) when the order is no longer on the subscription that was verified', async () => {
      const session = await openCheckout(moving, 1);
      await payWithoutEvent(session.clientSecret);
      // Written as a change that slipped in would leave it: another subscription, three seats.
      moveDuringFinalize = () =>
        moving.db
          .update(orders)
          .set({ subscriptionId: 'sub_sbx_other', quantity: 3, amountCents: 100_000 })
          .where(eq(orders.transactionId, session.transactionId));

      const response = await finalize(moving, session);

      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({ error: 'This checkout was changed in another window. Please refresh the page and try again.' });
      expect(await orderRow(session.transactionId)).toMatchObject({ status: 'open', quantity: 3 });
      expect(await accountsOf(session.transactionId)).toHaveLength(0);
    });
  });

  describe('with a subscription the provider reports cancelled', () => {
    let cancelling: TestServer;
    beforeAll(async () => {
      cancelling = await server.derive({
        wrapProvider: (sandbox) => ({
          ...sandbox,
          async retrieveSubscriptionPayment(id) {
            const payment = await sandbox.retrieveSubscriptionPayment(id);
            return payment && { ...payment, state: 'canceled' };
          },
        }),
      });
    });
    afterAll(() => cancelling.close());

    it('finalize refuses it (402) even though its first invoice was paid', async () => {
      const session = await openCheckout(cancelling, 1);
      await payWithoutEvent(session.clientSecret);
      expect((await finalize(cancelling, session)).statusCode).toBe(402);
      expect(await accountsOf(session.transactionId)).toHaveLength(0);
    });
  });
});
