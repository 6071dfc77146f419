/**
 * Money after the first payment with Stripe, against the stateful Stripe double (helpers/statefulStripe.ts), on
 * PGlite and PostgreSQL: a retried console refund refunds once; every commission entry is keyed by the payment
 * Stripe's refunds and disputes name, so refunding both renewals reverses both; disputes (opened, won, lost, and
 * their events in either order) move the order, the owner's mail and the commission; a failed refund gives back
 * what it took; `unpaid` ends the Stripe subscription with the order; a cancellation without a refund reverses no
 * commission; events about payments we do not hold change nothing. Everything is read back from the database.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveOwner } from '../../../../server/admin/owners';
import { runOrderAction } from '../../../../server/admin/orderActions';
import { commissionEntries, orderDisputes, orders, outbox, referrers, refundRequests, seats } from '../../../../server/db/schema';
import { findOrder } from '../../../../server/checkout/order';
import { refundOrder } from '../../../../server/checkout/refundOrder';
import { inviteToSeat } from '../../../../server/seats/seats';
import { endPersonSignIns } from '../../../../server/signIn';
import type { SubscriptionSession } from '../../../../src/contract/checkout';
import { createBody, DATABASES, startTestServer, type TestServer } from '../../helper';
import { startStatefulStripe, type StatefulStripe } from '../../helpers/statefulStripe';
import { TEST_SECRET_KEY } from '../../helpers/stripeDouble';
import { deliver, stripeTestEnv } from '../../helpers/stripeEvents';

const OWNER = 'owner@example.com';
type Json = Record<string, unknown>;

describe.each(DATABASES)('money after a Stripe purchase on %s', (kind) => {
  let stripe: StatefulStripe;
  let server: TestServer;
  let referral: string;

  beforeAll(async () => {
    stripe = await startStatefulStripe();
    server = await startTestServer(kind, { env: { ...stripeTestEnv(stripe.url), PUBLIC_URL: 'https://checkout.example.com/' } });
    await saveOwner(server.db, OWNER, 'correct horse battery staple');
    await server.db
      .insert(referrers)
      .values({ slug: 'ada', displayName: 'Ada', shortLabel: 'dr-ada', quote: 'Q', email: 'ada@example.com' });
    const link = await server.app.inject({ method: 'GET', url: '/r/ada' });
    referral = `referral=${link.cookies.find((each) => each.name === 'referral')!.value}`;
  });
  afterAll(async () => {
    await server.close();
    await stripe.close();
  });

  let buyers = 0;
  /** A referred purchase of `quantity` seats: call 1, the buyer pays with Stripe.js, finalize. */
  async function buy(quantity = 3): Promise<SubscriptionSession> {
    const created = await server.post('/api/create-anon-subscription-intent', createBody(quantity), { cookie: referral });
    expect(created.statusCode, created.body).toBe(200);
    const session = created.json<SubscriptionSession>();
    const buyer = { name: 'Jane Doe', email: `jane${(buyers += 1)}@example.com` };
    expect(stripe.pay(session.clientSecret, buyer)).toBe(true);
    const finalized = await server.post('/api/finalize-anon-subscription', {
      subscriptionId: session.subscriptionId,
      customerId: session.customerId,
      transactionId: session.transactionId,
      ...buyer,
    });
    expect(finalized.statusCode, finalized.body).toBe(200);
    // A colleague on seat 2, so what the end does to the team shows.
    const order = (await findOrder(server.db, session.transactionId))!;
    await inviteToSeat(
      server.db,
      { config: server.config, order, endSignIns: endPersonSignIns },
      { email: `colleague${buyers}@example.com`, name: 'Colleague' },
    );
    return session;
  }

  /** A renewal paid at Stripe, and its invoice.paid delivered. Returns its PaymentIntent. */
  async function renew(session: SubscriptionSession): Promise<string> {
    const invoice = stripe.renew(session.subscriptionId);
    expect((await deliver(server, stripe.lastEvent('invoice.paid')!)).statusCode).toBe(200);
    return invoice.payment_intent;
  }

  const orderOf = async (session: SubscriptionSession) =>
    (await server.db.select().from(orders).where(eq(orders.transactionId, session.transactionId)))[0]!;
  const entriesOf = async (session: SubscriptionSession) =>
    (
      await server.db
        .select()
        .from(commissionEntries)
        .where(eq(commissionEntries.transactionId, session.transactionId))
        .orderBy(commissionEntries.id)
    ).map((entry) => ({ kind: entry.kind, paymentId: entry.paymentId, amountCents: entry.amountCents }));
  const netCommission = async (session: SubscriptionSession) =>
    (await entriesOf(session)).reduce((sum, entry) => sum + entry.amountCents, 0);
  const ownerMails = async (session: SubscriptionSession) =>
    (await server.db.select().from(outbox).where(eq(outbox.transactionId, session.transactionId)))
      .filter((row) => row.topic.startsWith('owner_'))
      .map((row) => row.topic);
  const liveSeats = async (session: SubscriptionSession) =>
    (await server.db.select().from(seats).where(eq(seats.transactionId, session.transactionId))).filter((seat) => seat.status !== 'revoked')
      .length;
  const eventsOf = (type: string, id: string) =>
    stripe.events.filter((event) => event.type === type && ((event.data as Json).object as Json).id === id);
  const refundsOf = (intent: string) => stripe.refunds.filter((refund) => refund.payment_intent === intent);

  it('a console refund retried after the cancel failed reuses its key and refunds once; a new refund is a new request', async () => {
    const session = await buy(3);
    const first = stripe.intentOf(session.subscriptionId)!.id;
    const renewal = await renew(session);
    stripe.failNext('DELETE', /^\/v1\/subscriptions\//);
    const ask = () =>
      refundOrder(server.context(), {
        transactionId: session.transactionId,
        amountCents: 100_000,
        ownerId: 'owner',
        requestKey: 'retry-key-1',
      });
    await expect(ask()).rejects.toThrow();
    // The first attempt refunded the newest payment before the cancel failed.
    expect(refundsOf(renewal).map((refund) => refund.amount)).toEqual([100_000]);
    const retried = await ask();
    expect(retried.ok).toBe(true);
    // The older payment was not refunded by the retry: $1,000 once, not twice.
    expect(refundsOf(first)).toEqual([]);
    expect(refundsOf(renewal).map((refund) => refund.amount)).toEqual([100_000]);
    expect(stripe.subscription(session.subscriptionId)?.status).toBe('canceled');
    expect(await orderOf(session)).toMatchObject({ status: 'cancelled', refundedCents: 100_000 });
    const requests = await server.db.select().from(refundRequests).where(eq(refundRequests.transactionId, session.transactionId));
    expect(requests.map((request) => request.status)).toEqual(['succeeded']);
    // The same key again is the same refund, done: nothing more is refunded.
    expect((await ask()).ok).toBe(true);
    expect(stripe.refunds.filter((refund) => refund.payment_intent === first || refund.payment_intent === renewal)).toHaveLength(1);
    // A new request is a new refund: the first payment is refunded now.
    const again = await refundOrder(server.context(), {
      transactionId: session.transactionId,
      amountCents: 100_000,
      ownerId: 'owner',
      requestKey: 'retry-key-2',
    });
    expect(again.ok).toBe(true);
    expect(refundsOf(first).map((refund) => refund.amount)).toEqual([100_000]);
    // The same key for another amount is refused, and changes nothing.
    expect(
      await refundOrder(server.context(), {
        transactionId: session.transactionId,
        amountCents: 5_000,
        ownerId: 'owner',
        requestKey: 'retry-key-2',
      }),
    ).toEqual({ ok: false, refusal: 'key_reused' });
  });

  it('both renewals refunded in full from the Dashboard reverse both renewals’ commissions, each keyed by its PaymentIntent', async () => {
    const session = await buy(3);
    const first = stripe.intentOf(session.subscriptionId)!.id;
    const one = await renew(session);
    const two = await renew(session);
    expect(await entriesOf(session)).toEqual([
      { kind: 'earned', paymentId: first, amountCents: 20_000 },
      { kind: 'earned', paymentId: one, amountCents: 20_000 },
      { kind: 'earned', paymentId: two, amountCents: 20_000 },
    ]);
    for (const intent of [one, two]) {
      const response = await fetch(`${stripe.url}/v1/refunds`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_SECRET_KEY}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ payment_intent: intent }),
      });
      expect(response.status).toBe(200);
      expect((await deliver(server, stripe.lastEvent('charge.refunded')!)).statusCode).toBe(200);
    }
    const reversals = (await entriesOf(session)).filter((entry) => entry.kind !== 'earned');
    expect(reversals).toEqual([
      { kind: 'reversal', paymentId: one, amountCents: -20_000 },
      { kind: 'reversal', paymentId: two, amountCents: -20_000 },
    ]);
    expect(await orderOf(session)).toMatchObject({ status: 'paid', refundedCents: 200_000 });
  });

  it('“Cancel now” without a refund reverses no commission: the buyer paid for the month', async () => {
    const session = await buy(3);
    expect(await runOrderAction(server.context(), session.transactionId, 'cancel_now')).toEqual({ ok: true });
    expect(await orderOf(session)).toMatchObject({ status: 'cancelled', refundedCents: 0 });
    expect(await netCommission(session)).toBe(20_000);
  });

  it('a console refund leaves out a payment a dispute holds (Stripe refuses it: charge_disputed); once won it is refundable', async () => {
    const session = await buy(3);
    const first = stripe.intentOf(session.subscriptionId)!.id;
    const renewal = await renew(session);
    const disputeId = stripe.dispute(first);
    for (const type of ['charge.dispute.created', 'charge.dispute.funds_withdrawn'])
      expect((await deliver(server, eventsOf(type, disputeId)[0]!)).statusCode).toBe(200);
    const ask = (amountCents: number | undefined, requestKey: string) =>
      refundOrder(server.context(), { transactionId: session.transactionId, amountCents, ownerId: 'owner', requestKey });
    // Asking for both payments is more than is left: the disputed one is the bank's for now.
    expect(await ask(200_000, 'disputed-1')).toEqual({ ok: false, refusal: 'amount_too_high' });
    expect(stripe.refunds.filter((refund) => refund.payment_intent === first || refund.payment_intent === renewal)).toEqual([]);
    // Everything left is the renewal alone.
    expect((await ask(undefined, 'disputed-2')).ok).toBe(true);
    expect(refundsOf(renewal).map((refund) => refund.amount)).toEqual([100_000]);
    expect(refundsOf(first)).toEqual([]);
    // Stripe itself refuses a refund of the disputed charge.
    const direct = await fetch(`${stripe.url}/v1/refunds`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_SECRET_KEY}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ payment_intent: first }),
    });
    expect(direct.status).toBe(400);
    expect((await direct.json()) as unknown).toMatchObject({ error: { code: 'charge_disputed' } });
    // Won, the money came back: the owner may refund it.
    stripe.closeDispute(disputeId, 'won');
    for (const type of ['charge.dispute.updated', 'charge.dispute.closed', 'charge.dispute.funds_reinstated'])
      expect((await deliver(server, eventsOf(type, disputeId)[0]!)).statusCode).toBe(200);
    expect((await ask(100_000, 'disputed-3')).ok).toBe(true);
    expect(refundsOf(first).map((refund) => refund.amount)).toEqual([100_000]);
  });

  it('a dispute opens: recorded with its evidence deadline, the owner mailed once, the commission taken back; won: given back', async () => {
    const session = await buy(3);
    const intent = stripe.intentOf(session.subscriptionId)!.id;
    const disputeId = stripe.dispute(intent);
    for (const type of ['charge.dispute.created', 'charge.dispute.funds_withdrawn']) {
      const answer = await deliver(server, eventsOf(type, disputeId)[0]!);
      expect(answer.json()).toEqual({ received: true, outcome: 'processed' });
    }
    const [row] = await server.db.select().from(orderDisputes).where(eq(orderDisputes.disputeId, disputeId));
    expect(row).toMatchObject({ transactionId: session.transactionId, paymentId: intent, amountCents: 100_000, outcome: 'open' });
    expect(row!.evidenceDueBy!.getTime()).toBe(stripe.disputeOf(disputeId)!.due_by * 1000);
    expect(await ownerMails(session)).toEqual(['owner_dispute_opened']);
    expect(await netCommission(session)).toBe(0);
    // Seats stay while the dispute is open (docs/decisions/0041).
    expect(await orderOf(session)).toMatchObject({ status: 'paid' });
    expect(await liveSeats(session)).toBe(1);

    stripe.closeDispute(disputeId, 'won');
    for (const type of ['charge.dispute.updated', 'charge.dispute.closed', 'charge.dispute.funds_reinstated'])
      expect((await deliver(server, eventsOf(type, disputeId)[0]!)).statusCode).toBe(200);
    expect(await netCommission(session)).toBe(20_000);
    expect((await entriesOf(session)).map((entry) => entry.amountCents)).toEqual([20_000, -20_000, 20_000]);
    expect(await ownerMails(session)).toEqual(['owner_dispute_opened', 'owner_dispute_won']);
    expect(await orderOf(session)).toMatchObject({ status: 'paid' });
    expect(stripe.subscription(session.subscriptionId)?.status).toBe('active');
  });

  it.each([
    ['in order', ['charge.dispute.created', 'charge.dispute.funds_withdrawn', 'charge.dispute.updated', 'charge.dispute.closed']],
    [
      'closed before it was heard of',
      ['charge.dispute.closed', 'charge.dispute.updated', 'charge.dispute.funds_withdrawn', 'charge.dispute.created'],
    ],
  ])('a lost dispute (%s) ends the Stripe subscription, the order and its seats; the commission stays taken back', async (_, order) => {
    const session = await buy(3);
    const intent = stripe.intentOf(session.subscriptionId)!.id;
    const disputeId = stripe.dispute(intent);
    stripe.closeDispute(disputeId, 'lost');
    for (const type of order) expect((await deliver(server, eventsOf(type, disputeId)[0]!)).statusCode).toBe(200);
    expect(stripe.subscription(session.subscriptionId)?.status).toBe('canceled');
    expect(await orderOf(session)).toMatchObject({ status: 'cancelled' });
    expect(await liveSeats(session)).toBe(0);
    expect(await netCommission(session)).toBe(0);
    const mails = await ownerMails(session);
    expect(mails.filter((topic) => topic === 'owner_dispute_lost')).toHaveLength(1);
    const [row] = await server.db.select().from(orderDisputes).where(eq(orderDisputes.disputeId, disputeId));
    expect(row).toMatchObject({ outcome: 'lost', providerStatus: 'lost' });
    // Stripe's own deletion event finds nothing left to change.
    expect((await deliver(server, stripe.lastEvent('customer.subscription.deleted')!)).statusCode).toBe(200);
    expect(await netCommission(session)).toBe(0);
  });

  it.each([
    ['after the refund was heard of', false],
    ['before the refund was heard of', true],
  ])('a refund that fails (%s) gives back the order’s refunded amount and the commission, and tells the owner', async (_, failedFirst) => {
    const session = await buy(3);
    const intent = stripe.intentOf(session.subscriptionId)!.id;
    const response = await fetch(`${stripe.url}/v1/refunds`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_SECRET_KEY}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ payment_intent: intent, amount: '50000' }),
    });
    const refund = (await response.json()) as { id: string };
    const refunded = stripe.lastEvent('charge.refunded')!;
    if (!failedFirst) {
      expect((await deliver(server, refunded)).statusCode).toBe(200);
      expect(await orderOf(session)).toMatchObject({ refundedCents: 50_000 });
      expect(await netCommission(session)).toBe(10_000);
    }
    stripe.failRefund(refund.id);
    const failed = stripe.lastEvent('refund.failed')!;
    expect((await deliver(server, failed)).statusCode).toBe(200);
    expect((await deliver(server, stripe.lastEvent('charge.refund.updated')!)).statusCode).toBe(200);
    if (failedFirst) expect((await deliver(server, refunded)).statusCode).toBe(200);
    expect(await orderOf(session)).toMatchObject({ status: 'paid', refundedCents: 0 });
    expect(await netCommission(session)).toBe(20_000);
    expect(await ownerMails(session)).toEqual(failedFirst ? [] : ['owner_refund_failed']);
  });

  it('`unpaid` ends the Stripe subscription with the order: it cannot come back paying with no seats', async () => {
    const session = await buy(2);
    stripe.setStatus(session.subscriptionId, 'unpaid');
    expect((await deliver(server, stripe.lastEvent('customer.subscription.updated')!)).statusCode).toBe(200);
    expect(stripe.subscription(session.subscriptionId)?.status).toBe('canceled');
    expect(await orderOf(session)).toMatchObject({ status: 'cancelled' });
    expect(await liveSeats(session)).toBe(0);
    // Nothing went back: the commission ($500 × 20 %) stands.
    expect(await netCommission(session)).toBe(10_000);
  });

  it('a dispute or failed refund of a payment we do not hold is acknowledged with one warning, and changes nothing', async () => {
    const before = await server.db.select().from(orderDisputes);
    const stranger = { id: 'evt_stranger', object: 'event', api_version: '2026-10-28.endive', type: 'charge.dispute.created' };
    const unknownDispute = await deliver(server, { ...stranger, data: { object: { id: 'du_unknown', object: 'dispute' } } });
    expect(unknownDispute.json()).toEqual({ received: true, outcome: 'ignored' });
    const unknownRefund = await deliver(server, {
      ...stranger,
      id: 'evt_stranger_refund',
      type: 'refund.failed',
      data: { object: { id: 're_unknown', object: 'refund', status: 'failed', payment_intent: 'pi_unknown' } },
    });
    expect(unknownRefund.json()).toEqual({ received: true, outcome: 'ignored' });
    expect(await server.db.select().from(orderDisputes)).toEqual(before);
    const ended = await server.db
      .select()
      .from(commissionEntries)
      .where(and(eq(commissionEntries.kind, 'reversal')));
    expect(ended.every((entry) => entry.paymentId !== 'pi_unknown')).toBe(true);
  });
});
