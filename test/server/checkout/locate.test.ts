import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TaxQuote, UpdateIntentResponse } from '../../../src/contract/checkout';
import { monthlyTotalCents } from '../../../src/domain/pricing';
import { DEFAULT_TAX_REGISTRATIONS, placeZip, TAX_LOCATION_MESSAGES, taxCents } from '../../../src/domain/tax';
import { orders, sandboxCustomers, sandboxInvoices, sandboxSubscriptions } from '../../../server/db/schema';
import { DATABASES, finalize, locateBody, openCheckout, payWithCard, startTestServer, updateBody, type TestServer } from '../helper';

const LOCATE = '/api/locate-anon-subscription';
/** Hawaii's rate, the sandbox's default (docs/decisions/0070). */
const HI_RATE = DEFAULT_TAX_REGISTRATIONS.find((each) => each.state === 'HI')!.rateMillionths;
const UPDATE = '/api/update-anon-subscription-intent';

describe.each(DATABASES)('POST /api/locate-anon-subscription on %s (the sandbox, HI=47120, AZ=0)', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind, { env: { SANDBOX_CLOCK: '1' } });
  });
  afterAll(() => server.close());

  const orderRow = async (transactionId: string) =>
    (await server.db.select().from(orders).where(eq(orders.transactionId, transactionId)))[0];
  const subscriptionRow = async (id: string) =>
    (await server.db.select().from(sandboxSubscriptions).where(eq(sandboxSubscriptions.id, id)))[0];

  it('a Honolulu ZIP replaces the unpaid subscription with a taxed one: 4.712 % of $500 is $23.56', async () => {
    const session = await openCheckout(server, 1);
    const response = await server.post(LOCATE, locateBody(session, '96813'));
    expect(response.statusCode).toBe(200);
    const quote = response.json<TaxQuote>();
    expect(quote).toMatchObject({ subtotalCents: 50_000, taxCents: 2_356, taxState: 'HI' });
    expect(quote.subscriptionId).not.toBe(session.subscriptionId);
    expect(quote.clientSecret).not.toBe(session.clientSecret);
    expect(await subscriptionRow(session.subscriptionId)).toMatchObject({ status: 'canceled' });
    expect(await subscriptionRow(quote.subscriptionId)).toMatchObject({ automaticTax: true, amountDueCents: 52_356, taxCents: 2_356 });
    expect(await orderRow(session.transactionId)).toMatchObject({
      subscriptionId: quote.subscriptionId,
      amountCents: 50_000,
      taxCents: 2_356,
      taxState: 'HI',
      taxCountry: 'US',
      taxPostalCode: '96813',
    });

    // The same location again answers the same session: nothing is replaced twice.
    const again = await server.post(LOCATE, locateBody({ ...session, ...quote }, '96813-1234'));
    expect(again.json<TaxQuote>()).toEqual(quote);

    // Paid at the shown total, finalize checks the seats' amount and the tax and completes the order.
    const paid = await payWithCard(server, quote.clientSecret);
    expect(paid.statusCode).toBe(200);
    const finalized = await finalize(server, { ...session, ...quote });
    expect(finalized.statusCode).toBe(200);
    expect(await orderRow(session.transactionId)).toMatchObject({ status: 'paid', taxCents: 2_356 });
  });

  it('a ZIP that owes no tax (New York; Arizona, whose rate is 0) goes on with the same session', async () => {
    for (const postalCode of ['10001', '85004']) {
      const session = await openCheckout(server, 3);
      const response = await server.post(LOCATE, locateBody(session, postalCode));
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        clientSecret: session.clientSecret,
        subscriptionId: session.subscriptionId,
        subscriptionItemId: session.subscriptionItemId,
        subtotalCents: 100_000,
        taxCents: 0,
        taxState: null,
      });
      expect(await orderRow(session.transactionId)).toMatchObject({ taxCents: 0, taxState: null, taxPostalCode: postalCode });
    }
  });

  it('moving from Honolulu to New York replaces the taxed subscription with an untaxed one', async () => {
    const session = await openCheckout(server, 1);
    const taxed = (await server.post(LOCATE, locateBody(session, '96813'))).json<TaxQuote>();
    const untaxed = (await server.post(LOCATE, locateBody({ ...session, ...taxed }, '10001'))).json<TaxQuote>();
    expect(untaxed).toMatchObject({ taxCents: 0, taxState: null });
    expect(untaxed.subscriptionId).not.toBe(taxed.subscriptionId);
    expect(await subscriptionRow(untaxed.subscriptionId)).toMatchObject({ automaticTax: false, amountDueCents: 50_000 });
    expect(await orderRow(session.transactionId)).toMatchObject({ taxCents: 0, taxState: null });
  });

  it('a seat change after a taxed quote keeps the tax, re-quoted for the new seats', async () => {
    const session = await openCheckout(server, 1);
    const taxed = (await server.post(LOCATE, locateBody(session, '96720'))).json<TaxQuote>();
    const response = await server.post(UPDATE, updateBody({ ...session, ...taxed }, 3));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ taxCents: 4_712 });
    expect(await orderRow(session.transactionId)).toMatchObject({ quantity: 3, amountCents: 100_000, taxCents: 4_712, taxState: 'HI' });
  });

  it.each([
    ['CA', 'K1A 0B1', 'country', TAX_LOCATION_MESSAGES.countryNotSold],
    ['US', '9681', 'postalCode', TAX_LOCATION_MESSAGES.postalCodeInvalid],
    ['US', 'ABCDE', 'postalCode', TAX_LOCATION_MESSAGES.postalCodeInvalid],
    ['US', '00012', 'postalCode', TAX_LOCATION_MESSAGES.notPlaceable],
  ])('refuses %s %s at the %s field, and changes nothing', async (country, postalCode, field, error) => {
    const session = await openCheckout(server, 1);
    const response = await server.post(LOCATE, locateBody(session, postalCode, country));
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ error, field });
    expect(await orderRow(session.transactionId)).toMatchObject({ subscriptionId: session.subscriptionId, taxCountry: null, taxCents: 0 });
  });

  /**
   * The order is consistent after any mix of seat changes and location steps: one live subscription, the order's;
   * its seats, tax and amount due the order's; the tax the one its recorded ZIP owes (placed as the provider placed
   * the customer's address); and each answer that names the live subscription quoting its amounts.
   */
  async function expectConsistent(transactionId: string, answers: { subscriptionId: string; taxCents: number; subtotalCents?: number }[]) {
    const order = (await orderRow(transactionId))!;
    const live = (await server.db.select().from(sandboxSubscriptions).where(eq(sandboxSubscriptions.transactionId, transactionId))).filter(
      (row) => row.status !== 'canceled',
    );
    expect(live.map((row) => row.id)).toEqual([order.subscriptionId]);
    const [subscription] = live;
    const owed = order.taxPostalCode && placeZip(order.taxPostalCode) === 'HI' ? 'HI' : null;
    expect(order.taxState).toBe(owed);
    expect(order.taxCents).toBe(owed ? taxCents(monthlyTotalCents(order.quantity), HI_RATE) : 0);
    expect(subscription).toMatchObject({
      quantity: order.quantity,
      automaticTax: owed !== null,
      taxCents: order.taxCents,
      amountDueCents: monthlyTotalCents(order.quantity) + order.taxCents,
    });
    const [customer] = await server.db.select().from(sandboxCustomers).where(eq(sandboxCustomers.id, order.customerId));
    expect(customer!.addressPostalCode).toBe(order.taxPostalCode);
    const current = answers.filter((answer) => answer.subscriptionId === order.subscriptionId);
    expect(current.length).toBeGreaterThan(0);
    for (const answer of current) {
      expect(answer.taxCents).toBe(order.taxCents);
      if (answer.subtotalCents !== undefined) expect(answer.subtotalCents).toBe(monthlyTotalCents(order.quantity));
    }
  }

  /** A call's answer when it succeeded; a refusal must be the 409 of a change under way or a checkout that moved. */
  async function answered<T>(response: { statusCode: number; json: <U>() => U; body: string }): Promise<T[]> {
    if (response.statusCode === 200) return [response.json<T>()];
    expect(response.statusCode, response.body).toBe(409);
    return [];
  }

  it('a seat change then the location step, and the location step then a seat change, end on one taxed subscription', async () => {
    const first = await openCheckout(server, 1);
    const changed = (await server.post(UPDATE, updateBody(first, 3))).json<UpdateIntentResponse>();
    const located = (await server.post(LOCATE, locateBody({ ...first, ...changed }, '96813'))).json<TaxQuote>();
    expect(located).toMatchObject({ subtotalCents: 100_000, taxCents: taxCents(100_000, HI_RATE), taxState: 'HI' });
    await expectConsistent(first.transactionId, [located]);

    const second = await openCheckout(server, 1);
    const taxed = (await server.post(LOCATE, locateBody(second, '96813'))).json<TaxQuote>();
    const moved = (await server.post(UPDATE, updateBody({ ...second, ...taxed }, 3))).json<UpdateIntentResponse>();
    expect(moved.taxCents).toBe(taxCents(100_000, HI_RATE));
    await expectConsistent(second.transactionId, [taxed, moved]);
  });

  it('a seat change and the location step at once, on the same order: one wins or both in turn, the order consistent', async () => {
    for (const postalCode of ['96813', '10001', '96813']) {
      const session = await openCheckout(server, 1);
      const [change, locate] = await Promise.all([
        server.post(UPDATE, updateBody(session, 3)),
        server.post(LOCATE, locateBody(session, postalCode)),
      ]);
      const answers = [...(await answered<UpdateIntentResponse>(change)), ...(await answered<TaxQuote>(locate))];
      expect(answers.length).toBeGreaterThan(0);
      await expectConsistent(session.transactionId, answers);
    }
    // Already taxed: the same location again and a seat change at once.
    const session = await openCheckout(server, 1);
    const taxed = (await server.post(LOCATE, locateBody(session, '96813'))).json<TaxQuote>();
    const ids = { ...session, ...taxed };
    const [change, locate] = await Promise.all([server.post(UPDATE, updateBody(ids, 3)), server.post(LOCATE, locateBody(ids, '96813'))]);
    await expectConsistent(session.transactionId, [
      taxed,
      ...(await answered<UpdateIntentResponse>(change)),
      ...(await answered<TaxQuote>(locate)),
    ]);
  });

  it('two location steps at once (Honolulu and New York): the address, the tax and the subscription agree', async () => {
    for (const [a, b] of [
      ['96813', '10001'],
      ['10001', '96813'],
    ] as const) {
      const session = await openCheckout(server, 1);
      const [first, second] = await Promise.all([server.post(LOCATE, locateBody(session, a)), server.post(LOCATE, locateBody(session, b))]);
      const answers = [...(await answered<TaxQuote>(first)), ...(await answered<TaxQuote>(second))];
      expect(answers.length).toBeGreaterThan(0);
      await expectConsistent(session.transactionId, answers);
    }
  });

  it('answers 404 for ids that are not the checkout current ones, 409 once it is paid', async () => {
    const session = await openCheckout(server, 1);
    const unknown = await server.post(LOCATE, locateBody({ ...session, subscriptionId: 'sub_sbx_nope' }, '96813'));
    expect(unknown.statusCode).toBe(404);
    await payWithCard(server, session.clientSecret);
    const paid = await server.post(LOCATE, locateBody(session, '96813'));
    expect(paid.statusCode).toBe(409);
  });

  it('a taxed subscription renews with its tax', async () => {
    const session = await openCheckout(server, 1);
    const taxed = (await server.post(LOCATE, locateBody(session, '96813'))).json<TaxQuote>();
    await payWithCard(server, taxed.clientSecret);
    expect((await finalize(server, { ...session, ...taxed })).statusCode).toBe(200);
    expect((await server.post('/api/sandbox/clock/advance', { days: 32 })).statusCode).toBe(200);
    const renewals = await server.db.select().from(sandboxInvoices).where(eq(sandboxInvoices.subscriptionId, taxed.subscriptionId));
    expect(renewals).toEqual([
      expect.objectContaining({ billingReason: 'subscription_cycle', amountCents: 52_356, taxCents: 2_356, status: 'paid' }),
    ]);
  });

  it('finalize refuses a payment whose tax is not the quoted one', async () => {
    const session = await openCheckout(server, 1);
    const taxed = (await server.post(LOCATE, locateBody(session, '96813'))).json<TaxQuote>();
    // The provider's invoice carries another tax than the order's (a rate changed under the quote).
    await server.db.update(orders).set({ taxCents: 2_000 }).where(eq(orders.transactionId, session.transactionId));
    await payWithCard(server, taxed.clientSecret);
    const response = await finalize(server, { ...session, ...taxed });
    expect(response.statusCode).toBe(402);
  });
});
