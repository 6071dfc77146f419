/**
 * A taxed order's life with Stripe, through the app against the stateful Stripe double and its Stripe Tax
 * (helpers/statefulStripe.ts; docs/decisions/0070–0077), on PGlite and PostgreSQL: a Honolulu buyer is located (the
 * quote shows Hawaii's tax), pays, and finalize accepts it; the renewal is taxed; a seat increase's proration is
 * taxed on its lines; a decrease's credit carries its tax into the balance and comes off the next renewal with it;
 * the owner refunds part of it. Then the record of tax collected (`tax_records`) and the console's report
 * (GET /api/admin/tax) hold what the double charged, cent for cent: each payment's tax less its refund's share. An
 * increase after a decrease is quoted and charged less the credit, with the tax in what is charged (decision 0077).
 */
import { asc, eq } from 'drizzle-orm';
import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveOwner } from '../../../../server/admin/owners';
import { accountLinks, orders, taxRecords } from '../../../../server/db/schema';
import { createStripeClient } from '../../../../server/payments/stripe/client';
import { hashHandoffToken } from '../../../../server/security/handoffToken';
import type { SeatChangePreview } from '../../../../src/contract/account';
import type { TaxReport } from '../../../../src/contract/admin';
import type { SubscriptionSession, TaxQuote } from '../../../../src/contract/checkout';
import { refundedTaxCents } from '../../../../src/domain/tax';
import { createBody, DATABASES, finalize, locateBody, startTestServer, type TestServer } from '../../helper';
import { startStatefulStripe, type StatefulStripe } from '../../helpers/statefulStripe';
import { TEST_SECRET_KEY } from '../../helpers/stripeDouble';
import { deliver, stripeTestEnv } from '../../helpers/stripeEvents';

const BUYER = { name: 'Ada Palmer', email: 'ada@example.com' };
const OWNER = { email: 'owner@example.com', password: 'correct horse battery staple' };

const taxOf = (invoice: Stripe.Invoice) => (invoice.total_taxes ?? []).reduce((sum, tax) => sum + tax.amount, 0);

describe.each(DATABASES)('a taxed Stripe order on %s', (kind) => {
  let stripe: StatefulStripe;
  let client: Stripe;
  let server: TestServer;
  let owner: string;
  let delivered = 0;

  beforeAll(async () => {
    stripe = await startStatefulStripe();
    client = createStripeClient({ secretKey: TEST_SECRET_KEY, apiBase: stripe.url });
    server = await startTestServer(kind, { env: { ...stripeTestEnv(stripe.url), PUBLIC_URL: 'https://checkout.example.com/' } });
    await saveOwner(server.db, OWNER.email, OWNER.password);
    const signedIn = await server.post('/api/admin/sign-in', OWNER);
    owner = `owner_session=${signedIn.cookies.find((each) => each.name === 'owner_session')!.value}`;
  });
  afterAll(async () => {
    await server.close();
    await stripe.close();
  });

  /** Every event Stripe sent since the last delivery, to the webhook, in order. */
  async function deliverAll(): Promise<void> {
    while (delivered < stripe.events.length) {
      const event = stripe.events[delivered++]!;
      const answered = await deliver(server, event);
      expect(answered.statusCode, answered.body).toBe(200);
    }
  }

  /** The manage page's session cookie for the order, as the emailed link opens it. */
  async function manage(transactionId: string): Promise<string> {
    const token = `stripe-tax-${transactionId}`;
    await server.db.insert(accountLinks).values({
      tokenHash: hashHandoffToken(token),
      transactionId,
      purpose: 'manage',
      expiresAt: new Date(Date.now() + 600_000),
    });
    const opened = await server.post('/api/account/session', { token });
    expect(opened.statusCode, opened.body).toBe(200);
    return `account_session=${opened.cookies.find((each) => each.name === 'account_session')!.value}`;
  }

  /** The seat change the manage page makes: its quote, then the change at the quote's proration date. */
  async function changeSeats(cookie: string, quantity: number): Promise<SeatChangePreview> {
    const previewed = await server.post('/api/account/seats/preview', { quantity }, { cookie });
    expect(previewed.statusCode, previewed.body).toBe(200);
    const preview = previewed.json<SeatChangePreview>();
    const changed = await server.post('/api/account/seats', { quantity, prorationDate: preview.prorationDate }, { cookie });
    expect(changed.statusCode, changed.body).toBe(200);
    await deliverAll();
    return preview;
  }

  /** The subscription's invoices at the double, oldest first. */
  async function invoicesOf(subscriptionId: string): Promise<Stripe.Invoice[]> {
    const listed = await client.invoices.list({ subscription: subscriptionId, limit: 100, expand: ['data.payments'] });
    return [...listed.data].reverse();
  }

  let buyers = 0;
  /**
   * A buyer located in Honolulu (the quote shows the tax and replaces the session with a taxed one) who pays with the
   * tax and is finalized. Returns the session and the quote.
   */
  async function buyInHonolulu(quantity: number): Promise<{ session: SubscriptionSession; quote: TaxQuote }> {
    const created = await server.post('/api/create-anon-subscription-intent', createBody(quantity));
    expect(created.statusCode, created.body).toBe(200);
    const opened = created.json<SubscriptionSession>();
    const located = await server.post('/api/locate-anon-subscription', locateBody(opened, '96813'));
    expect(located.statusCode, located.body).toBe(200);
    const quote = located.json<TaxQuote>();
    expect(quote.subscriptionId).not.toBe(opened.subscriptionId);
    const session = { ...opened, ...quote };
    const buyer = { ...BUYER, email: `ada${(buyers += 1)}@example.com` };
    expect(stripe.pay(session.clientSecret, buyer)).toBe(true);
    const finalized = await finalize(server, session, buyer);
    expect(finalized.statusCode, finalized.body).toBe(200);
    await deliverAll();
    return { session, quote };
  }

  it('is located, pays with its tax, renews, changes seats, is refunded in part, and records the tax the double charged', async () => {
    // Located in Honolulu: the quote shows the tax of three seats; paid with it, and finalize accepts it.
    const { session, quote } = await buyInHonolulu(3);
    expect(quote).toMatchObject({ subtotalCents: 100_000, taxCents: 4_712, taxState: 'HI' });
    expect(stripe.subscription(session.subscriptionId)?.automatic_tax).toBe(true);
    expect(stripe.intentOf(session.subscriptionId)?.amount_received).toBe(104_712);
    const orderNow = async () => (await server.db.select().from(orders).where(eq(orders.transactionId, session.transactionId)))[0]!;
    expect(await orderNow()).toMatchObject({ status: 'paid', taxState: 'HI', taxCents: 4_712 });

    // The renewal is taxed as the first month was.
    const renewal = stripe.renew(session.subscriptionId);
    await deliverAll();
    expect(taxOf(await client.invoices.retrieve(renewal.id))).toBe(4_712);

    // A seat increase: its proration is charged at once with the tax the quote named.
    const cookie = await manage(session.transactionId);
    const increase = await changeSeats(cookie, 5);
    const increased = (await invoicesOf(session.subscriptionId)).at(-1)!;
    expect(increased).toMatchObject({ billing_reason: 'subscription_update', status: 'paid' });
    expect(taxOf(increased)).toBeGreaterThan(0);
    expect(increase.taxDueNowCents).toBe(taxOf(increased));
    expect(increase.amountDueNowCents).toBe(increased.amount_paid);
    expect(await orderNow()).toMatchObject({ quantity: 5, taxCents: 9_424 });

    // A decrease: its credit line carries its tax into the customer's balance; nothing is charged now.
    await changeSeats(cookie, 4);
    const credited = (await invoicesOf(session.subscriptionId)).at(-1)!;
    expect(credited).toMatchObject({ billing_reason: 'subscription_update', amount_paid: 0 });
    expect(credited.total).toBeLessThan(0);
    expect(taxOf(credited)).toBeLessThan(0);
    expect(stripe.customer(session.customerId)?.balance).toBe(credited.total);
    expect(await orderNow()).toMatchObject({ quantity: 4, taxCents: 7_068 });

    // The next renewal takes the credit, tax and all, after its own tax.
    const creditedRenewal = stripe.renew(session.subscriptionId);
    await deliverAll();
    const taken = await client.invoices.retrieve(creditedRenewal.id);
    expect(taken).toMatchObject({ status: 'paid', total: 157_068, starting_balance: credited.total, ending_balance: 0 });
    expect(taken.amount_paid).toBe(157_068 + credited.total);

    // The owner refunds part of it (the newest payment first).
    const refunded = await server.post(`/api/admin/orders/${session.transactionId}/refund`, { amountCents: 20_000 }, { cookie: owner });
    expect(refunded.statusCode, refunded.body).toBe(200);
    await deliverAll();
    expect(stripe.refunds.map((refund) => [refund.payment_intent, refund.amount])).toEqual([
      [stripe.invoiceOf(session.subscriptionId)!.payment_intent, 20_000],
    ]);

    // What the double charged: each payment, its tax less the share of the credit it took (decision 0077), and its
    // refunds' tax share (decision 0074).
    const payments = (await invoicesOf(session.subscriptionId)).filter((invoice) => invoice.amount_paid > 0);
    expect(payments.map((invoice) => invoice.billing_reason)).toEqual([
      'subscription_create',
      'subscription_cycle',
      'subscription_update',
      'subscription_cycle',
    ]);
    const charged = await Promise.all(
      payments.map(async (invoice) => {
        const intentId = invoice.payments!.data[0]!.payment.payment_intent as string;
        const refundedCents = stripe.refunds
          .filter((refund) => refund.payment_intent === intentId)
          .reduce((sum, refund) => sum + (refund.amount as number), 0);
        const tax =
          invoice.amount_paid === invoice.total ? taxOf(invoice) : refundedTaxCents(invoice.amount_paid, invoice.total, taxOf(invoice));
        return { paid: invoice.amount_paid, tax, refundedCents, taxBack: refundedTaxCents(refundedCents, invoice.amount_paid, tax) };
      }),
    );
    // The credited month: the renewal's tax less exactly the credit's (one rate, one line each).
    expect(charged[3]!.tax).toBe(taxOf(taken) + taxOf(credited));
    const sum = (pick: (each: (typeof charged)[number]) => number) => charged.reduce((total, each) => total + pick(each), 0);
    const collected = { sales: sum((each) => each.paid - each.tax), tax: sum((each) => each.tax) };
    const returned = { sales: sum((each) => each.refundedCents - each.taxBack), tax: sum((each) => each.taxBack) };
    expect(returned.tax).toBeGreaterThan(0);

    const records = await server.db
      .select()
      .from(taxRecords)
      .where(eq(taxRecords.transactionId, session.transactionId))
      .orderBy(asc(taxRecords.createdAt));
    expect(records.map((row) => [row.kind, row.taxState, row.amountCents, row.taxCents])).toEqual([
      ...charged.map((each) => ['payment', 'HI', each.paid - each.tax, each.tax]),
      ['refund', 'HI', -(20_000 - charged[3]!.taxBack), -charged[3]!.taxBack],
    ]);

    const report = await server.app.inject({ method: 'GET', url: '/api/admin/tax', headers: { cookie: owner } });
    expect(report.statusCode, report.body).toBe(200);
    expect(report.json<TaxReport>().totals).toEqual([
      expect.objectContaining({
        state: 'HI',
        salesCents: collected.sales,
        taxCollectedCents: collected.tax,
        salesRefundedCents: returned.sales,
        taxRefundedCents: returned.tax,
        netTaxCents: collected.tax - returned.tax,
        payments: 4,
        refunds: 1,
      }),
    ]);
  });

  it('an increase after a decrease is quoted less the credit, its tax with it, and charged as quoted', async () => {
    const { session } = await buyInHonolulu(4);
    const cookie = await manage(session.transactionId);
    await changeSeats(cookie, 3);
    const credit = stripe.customer(session.customerId)!.balance;
    expect(credit).toBeLessThan(0);

    const quoted = await changeSeats(cookie, 6);
    const charged = (await invoicesOf(session.subscriptionId)).at(-1)!;
    expect(charged).toMatchObject({ billing_reason: 'subscription_update', status: 'paid', starting_balance: credit, ending_balance: 0 });
    expect(charged.amount_paid).toBe(charged.total + credit);
    expect(quoted.amountDueNowCents).toBe(charged.amount_paid);
    // The tax in the charge: the proration's less the credit's share (decision 0077), as the record holds it.
    expect(quoted.taxDueNowCents).toBe(refundedTaxCents(charged.amount_paid, charged.total, taxOf(charged)));
    const [recorded] = await server.db.select().from(taxRecords).where(eq(taxRecords.invoiceId, charged.id));
    expect(recorded).toMatchObject({
      kind: 'payment',
      taxCents: quoted.taxDueNowCents,
      amountCents: charged.amount_paid - quoted.taxDueNowCents,
    });
  });
});
