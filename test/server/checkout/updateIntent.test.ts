import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, sandboxSubscriptions } from '../../../server/db/schema';
import { DATABASES, finalize, openCheckout, payWithCard, startTestServer, updateBody, type TestServer } from '../helper';

const UPDATE = '/api/update-anon-subscription-intent';

describe.each(DATABASES)('POST /api/update-anon-subscription-intent on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(() => server.close());

  const subscriptionRow = async (id: string) =>
    (await server.db.select().from(sandboxSubscriptions).where(eq(sandboxSubscriptions.id, id)))[0];
  const orderRow = async (transactionId: string) =>
    (await server.db.select().from(orders).where(eq(orders.transactionId, transactionId)))[0];

  it('replaces the unpaid subscription: new ids and client secret, old one cancelled, order repriced', async () => {
    const session = await openCheckout(server, 1);
    const response = await server.post(UPDATE, updateBody(session, 4));
    expect(response.statusCode).toBe(200);
    const updated = response.json();
    expect(Object.keys(updated).sort()).toEqual(['clientSecret', 'subscriptionId', 'subscriptionItemId', 'taxCents']);
    expect(updated.subscriptionId).not.toBe(session.subscriptionId);
    expect(updated.subscriptionItemId).not.toBe(session.subscriptionItemId);
    expect(updated.clientSecret).not.toBe(session.clientSecret);

    expect(await subscriptionRow(session.subscriptionId)).toMatchObject({ status: 'canceled', paymentStatus: 'canceled' });
    const replacement = await subscriptionRow(updated.subscriptionId);
    expect(replacement).toMatchObject({ status: 'incomplete', quantity: 4, amountDueCents: 150_000, customerId: session.customerId });
    expect(await orderRow(session.transactionId)).toMatchObject({
      quantity: 4,
      amountCents: 150_000,
      subscriptionId: updated.subscriptionId,
      subscriptionItemId: updated.subscriptionItemId,
      clientSecret: updated.clientSecret,
      paymentIntentId: replacement?.paymentIntentId,
      revision: 1,
    });

    // The old client secret can no longer be paid.
    const stale = await payWithCard(server, session.clientSecret);
    expect(stale.statusCode).toBe(400);
    expect(stale.json()).toEqual({ error: expect.any(String) });

    // A second change chains from the new subscription.
    const again = await server.post(UPDATE, updateBody({ ...session, ...updated }, 2));
    expect(again.statusCode).toBe(200);
    expect(await orderRow(session.transactionId)).toMatchObject({ quantity: 2, amountCents: 50_000, revision: 2 });
  });

  it('returns the current session unchanged for the same quantity', async () => {
    const session = await openCheckout(server, 2);
    const response = await server.post(UPDATE, updateBody(session, 2));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      clientSecret: session.clientSecret,
      subscriptionId: session.subscriptionId,
      subscriptionItemId: session.subscriptionItemId,
      taxCents: 0,
    });
    expect(await orderRow(session.transactionId)).toMatchObject({ revision: 0 });
  });

  it('refuses stale subscription ids with 409 and unknown transactions with 404', async () => {
    const session = await openCheckout(server, 1);
    const updated = (await server.post(UPDATE, updateBody(session, 3))).json();
    const stale = await server.post(UPDATE, updateBody(session, 5));
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toEqual({ error: expect.any(String) });
    // A combination that is not the order's is as unknown as an unknown order.
    const wrongItem = await server.post(UPDATE, { ...updateBody({ ...session, ...updated }, 5), subscriptionItemId: 'si_sbx_nope' });
    expect(wrongItem.statusCode).toBe(404);
    expect(wrongItem.json()).toEqual({ error: 'Unknown checkout' });
    const unknown = await server.post(UPDATE, { ...updateBody(session, 2), transactionId: '00000000-0000-0000-0000-000000000000' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: 'Unknown checkout' });
    expect(await orderRow(session.transactionId)).toMatchObject({ quantity: 3, subscriptionId: updated.subscriptionId });
  });

  it("checks every id before any answer differs: ids not the order's are 404 like an unknown order, paid or not", async () => {
    const paid = await openCheckout(server, 1);
    expect((await payWithCard(server, paid.clientSecret)).statusCode).toBe(200);
    expect((await finalize(server, paid)).statusCode).toBe(200);
    const open = await openCheckout(server, 1);
    const other = await openCheckout(server, 1);
    const unknown = await server.post(UPDATE, { ...updateBody(open, 2), transactionId: '00000000-0000-0000-0000-000000000000' });
    expect(unknown.statusCode).toBe(404);
    for (const session of [paid, open]) {
      const guesses = [
        { subscriptionId: 'sub_sbx_guess', subscriptionItemId: 'si_sbx_guess' },
        { subscriptionId: other.subscriptionId, subscriptionItemId: other.subscriptionItemId },
        { subscriptionId: 'sub_sbx_guess', subscriptionItemId: session.subscriptionItemId },
        { subscriptionId: session.subscriptionId, subscriptionItemId: 'si_sbx_guess' },
      ];
      for (const guess of guesses) {
        const response = await server.post(UPDATE, { ...updateBody(session, 3), ...guess });
        expect([response.statusCode, response.body], JSON.stringify(guess)).toEqual([unknown.statusCode, unknown.body]);
      }
    }
    expect(await orderRow(open.transactionId)).toMatchObject({ quantity: 1, revision: 0 });
    // With its own ids, the paid order still says so.
    expect((await server.post(UPDATE, updateBody(paid, 3))).json()).toEqual({ error: 'This order has already been paid.' });
  });

  it('lets only one of two concurrent changes win; the order stays consistent with its subscription', async () => {
    const session = await openCheckout(server, 1);
    const responses = await Promise.all([server.post(UPDATE, updateBody(session, 3)), server.post(UPDATE, updateBody(session, 5))]);
    const statuses = responses.map((r) => r.statusCode).sort();
    expect(statuses[0]).toBe(200);
    expect(statuses[1]).toBeGreaterThanOrEqual(409);
    const order = await orderRow(session.transactionId);
    const current = await subscriptionRow(order!.subscriptionId);
    expect(current).toMatchObject({ status: 'incomplete', quantity: order!.quantity });
    expect(order!.amountCents).toBe(current!.amountDueCents);
  });

  it('refuses a seat change once the order is paid (409) and leaves it as paid', async () => {
    const session = await openCheckout(server, 1);
    expect((await payWithCard(server, session.clientSecret)).statusCode).toBe(200);

    // Paid but not yet finalized: the paid subscription is never cancelled by a seat change.
    const beforeFinalize = await server.post(UPDATE, updateBody(session, 3));
    expect(beforeFinalize.statusCode).toBe(409);
    expect(beforeFinalize.json()).toEqual({ error: 'This order has already been paid.' });
    expect(await subscriptionRow(session.subscriptionId)).toMatchObject({ status: 'active' });
    expect(await orderRow(session.transactionId)).toMatchObject({ quantity: 1, subscriptionId: session.subscriptionId });

    expect((await finalize(server, session)).statusCode).toBe(200);
    const afterFinalize = await server.post(UPDATE, updateBody(session, 3));
    expect(afterFinalize.statusCode).toBe(409);
    expect(afterFinalize.json()).toEqual({ error: 'This order has already been paid.' });
  });

  it.each([
    ['quantity 0', { quantity: 0 }],
    ['quantity 1.5', { quantity: 1.5 }],
    ['quantity 101', { quantity: 101 }],
    ['quantity "3"', { quantity: '3' }],
    ['an extra field', { amount: 1 }],
    ['a wrong productId', { productId: 'other' }],
    ['an empty subscriptionId', { subscriptionId: '' }],
  ])('answers 400 and changes nothing for %s', async (_, change) => {
    const session = await openCheckout(server, 1);
    const response = await server.post(UPDATE, { ...updateBody(session, 2), ...change });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: expect.any(String) });
    expect(await orderRow(session.transactionId)).toMatchObject({ quantity: 1, revision: 0 });
  });

  it('answers 400 for a missing field', async () => {
    const session = await openCheckout(server, 1);
    const { transactionId: _, ...body } = updateBody(session, 2);
    const response = await server.post(UPDATE, body);
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe('Transaction id is required.');
  });

  it('lets one of several concurrent changes win; the others answer 409, never a 5xx, and leave nothing payable', async () => {
    const session = await openCheckout(server, 1);
    const responses = await Promise.all([2, 3, 4, 5, 6].map((quantity) => server.post(UPDATE, updateBody(session, quantity))));
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status !== 200 && status !== 409)).toEqual([]);
    for (const response of responses.filter((r) => r.statusCode === 409)) {
      expect(response.json().error).toMatch(/Seats are being updated|changed in another window/);
    }
    const order = await orderRow(session.transactionId);
    const rows = await server.db.select().from(sandboxSubscriptions).where(eq(sandboxSubscriptions.transactionId, session.transactionId));
    expect(rows.filter((row) => row.status !== 'canceled').map((row) => row.id)).toEqual([order!.subscriptionId]);
    expect(order).toMatchObject({ seatChangeLockedUntil: null, seatChangeAttempt: null });
  });

  describe('when the provider fails to cancel the replaced subscription once', () => {
    let flaky: TestServer;
    let failNextCancel = false;
    beforeAll(async () => {
      flaky = await server.derive({
        wrapProvider: (sandbox) => ({
          ...sandbox,
          async cancelUnpaidSubscription(id, key) {
            if (failNextCancel) {
              failNextCancel = false;
              throw new Error('connection reset');
            }
            return sandbox.cancelUnpaidSubscription(id, key);
          },
        }),
      });
    });
    afterAll(() => flaky.close());

    it('answers 502 and keeps the order; later changes to any count, the first one included, go through on fresh subscriptions', async () => {
      const session = await openCheckout(flaky, 1);
      failNextCancel = true;
      const refused = await flaky.post(UPDATE, updateBody(session, 3));
      expect(refused.statusCode).toBe(502);
      expect(await orderRow(session.transactionId)).toMatchObject({
        quantity: 1,
        subscriptionId: session.subscriptionId,
        seatChangeAttempt: null,
      });

      const toFour = await flaky.post(UPDATE, updateBody(session, 4));
      expect(toFour.statusCode).toBe(200);
      const toThree = await flaky.post(UPDATE, updateBody({ ...session, ...toFour.json() }, 3));
      expect(toThree.statusCode).toBe(200);
      const current = await subscriptionRow(toThree.json().subscriptionId);
      expect(current).toMatchObject({ status: 'incomplete', quantity: 3 });
      const rows = await server.db.select().from(sandboxSubscriptions).where(eq(sandboxSubscriptions.transactionId, session.transactionId));
      expect(rows.filter((row) => row.status !== 'canceled').map((row) => row.id)).toEqual([current!.id]);
    });
  });

  describe('when a payment lands between the paid check and the cancel', () => {
    let racing: TestServer;
    /** A payment made by another tab while the change runs: right after the change's paid check. */
    let payDuringChange: (() => Promise<unknown>) | null = null;
    beforeAll(async () => {
      racing = await server.derive({
        wrapProvider: (sandbox) => ({
          ...sandbox,
          async retrieveSubscriptionPayment(id) {
            const payment = await sandbox.retrieveSubscriptionPayment(id);
            const pay = payDuringChange;
            payDuringChange = null;
            if (pay) await pay();
            return payment;
          },
        }),
      });
    });
    afterAll(() => racing.close());

    it('keeps the paid subscription, cancels the replacement and answers 409', async () => {
      const session = await openCheckout(racing, 1);
      payDuringChange = () => payWithCard(racing, session.clientSecret);
      const response = await racing.post(UPDATE, updateBody(session, 3));
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({ error: 'This order has already been paid.' });
      expect(await subscriptionRow(session.subscriptionId)).toMatchObject({ status: 'active' });
      const all = await server.db.select().from(sandboxSubscriptions).where(eq(sandboxSubscriptions.transactionId, session.transactionId));
      expect(all).toHaveLength(2);
      expect(all.find((row) => row.id !== session.subscriptionId)).toMatchObject({ status: 'canceled', quantity: 3 });
      expect(await orderRow(session.transactionId)).toMatchObject({ quantity: 1, subscriptionId: session.subscriptionId });
      expect((await finalize(racing, session)).statusCode).toBe(200);
    });
  });
});
