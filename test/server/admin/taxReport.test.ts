/**
 * The console's tax report (GET /api/admin/tax and tax.csv, docs/decisions/0074) on PGlite and PostgreSQL: from a
 * fixture of tax records with known months and amounts, the sums per state and month and per state over the period,
 * the months left out, the CSV in dollars, and the refusals: a month that is not one, To before From, no session.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TaxReport } from '../../../src/contract/admin';
import { saveOwner } from '../../../server/admin/owners';
import { taxRecords } from '../../../server/db/schema';
import { DATABASES, openCheckout, startTestServer, type TestServer } from '../helper';

const OWNER = { email: 'owner@example.com', password: 'correct horse battery staple' };

describe.each(DATABASES)('the console’s tax report on %s', (kind) => {
  let server: TestServer;
  let owner: string;

  beforeAll(async () => {
    server = await startTestServer(kind);
    await saveOwner(server.db, OWNER.email, OWNER.password);
    const signedIn = await server.post('/api/admin/sign-in', OWNER);
    owner = `owner_session=${signedIn.cookies.find((each) => each.name === 'owner_session')!.value}`;
    const { transactionId } = await openCheckout(server, 1);
    let n = 0;
    const row = (kindOf: 'payment' | 'refund', taxState: string, at: string, amountCents: number, taxCents: number) => {
      n += 1;
      return {
        recordKey: `fixture:${n}`,
        kind: kindOf,
        transactionId,
        invoiceId: `in_${n}`,
        paymentId: `pi_${n}`,
        taxState,
        amountCents,
        taxCents,
        occurredAt: new Date(at),
      };
    };
    await server.db.insert(taxRecords).values([
      row('payment', 'HI', '2026-08-31T23:59:59Z', 50_000, 2_356), // August: outside a September–October report
      row('payment', 'HI', '2026-09-01T00:00:00Z', 50_000, 2_356),
      row('payment', 'HI', '2026-09-15T12:00:00Z', 100_000, 4_712),
      row('refund', 'HI', '2026-09-20T12:00:00Z', -9_551, -450),
      row('payment', 'HI', '2026-10-31T23:59:59Z', 50_000, 2_356),
      row('refund', 'HI', '2026-10-31T23:59:59Z', -50_000, -2_356),
      row('payment', 'AZ', '2026-10-02T00:00:00Z', 50_000, 0),
      row('payment', 'HI', '2026-11-01T00:00:00Z', 50_000, 2_356), // November: outside
    ]);
  });
  afterAll(() => server.close());

  const get = (url: string, cookie = owner) => server.app.inject({ method: 'GET', url, headers: { cookie } });

  it('sums each state’s months: sales and tax collected, refunds’ part before tax and tax share, net tax, counts', async () => {
    const response = await get('/api/admin/tax?from=2026-09&to=2026-10');
    expect(response.statusCode, response.body).toBe(200);
    const report = response.json<TaxReport>();
    expect(report.from).toBe('2026-09');
    expect(report.to).toBe('2026-10');
    expect(report.rows).toEqual([
      {
        state: 'AZ',
        month: '2026-10',
        salesCents: 50_000,
        salesRefundedCents: 0,
        taxCollectedCents: 0,
        taxRefundedCents: 0,
        netTaxCents: 0,
        payments: 1,
        refunds: 0,
      },
      {
        state: 'HI',
        month: '2026-09',
        salesCents: 150_000,
        salesRefundedCents: 9_551,
        taxCollectedCents: 7_068,
        taxRefundedCents: 450,
        netTaxCents: 6_618,
        payments: 2,
        refunds: 1,
      },
      {
        state: 'HI',
        month: '2026-10',
        salesCents: 50_000,
        salesRefundedCents: 50_000,
        taxCollectedCents: 2_356,
        taxRefundedCents: 2_356,
        netTaxCents: 0,
        payments: 1,
        refunds: 1,
      },
    ]);
    expect(report.totals).toEqual([
      expect.objectContaining({ state: 'AZ', month: '2026-09–2026-10', salesCents: 50_000, netTaxCents: 0, payments: 1 }),
      {
        state: 'HI',
        month: '2026-09–2026-10',
        salesCents: 200_000,
        salesRefundedCents: 59_551,
        taxCollectedCents: 9_424,
        taxRefundedCents: 2_806,
        netTaxCents: 6_618,
        payments: 3,
        refunds: 2,
      },
    ]);
  });

  it('one month alone, and a period with nothing in it', async () => {
    const august = (await get('/api/admin/tax?from=2026-08&to=2026-08')).json<TaxReport>();
    expect(august.rows).toEqual([expect.objectContaining({ state: 'HI', month: '2026-08', salesCents: 50_000, taxCollectedCents: 2_356 })]);
    const empty = (await get('/api/admin/tax?from=2025-01&to=2025-12')).json<TaxReport>();
    expect(empty).toEqual({ from: '2025-01', to: '2025-12', rows: [], totals: [] });
  });

  it('the CSV has the same rows in dollars, then each state’s total', async () => {
    const response = await get('/api/admin/tax.csv?from=2026-09&to=2026-10');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/csv/);
    expect(response.headers['content-disposition']).toBe('attachment; filename="tax-2026-09-2026-10.csv"');
    expect(response.body.trim().split('\n')).toEqual([
      'state,month,sales_usd,sales_refunded_usd,tax_collected_usd,tax_refunded_usd,net_tax_usd,payments,refunds',
      'AZ,2026-10,500.00,0.00,0.00,0.00,0.00,1,0',
      'HI,2026-09,1500.00,95.51,70.68,4.50,66.18,2,1',
      'HI,2026-10,500.00,500.00,23.56,23.56,0.00,1,1',
      'AZ,total,500.00,0.00,0.00,0.00,0.00,1,0',
      'HI,total,2000.00,595.51,94.24,28.06,66.18,3,2',
    ]);
  });

  it.each([
    ['from=2026-13&to=2026-12', 'From must be a month written YYYY-MM'],
    ['from=2026-9', 'From must be a month written YYYY-MM'],
    ['to=September', 'To must be a month written YYYY-MM'],
    ['from=2026-11&to=2026-10', 'The report must end in or after the month it starts.'],
  ])('refuses %s with a 400 in words, the CSV too', async (query, words) => {
    for (const path of ['/api/admin/tax', '/api/admin/tax.csv']) {
      const response = await get(`${path}?${query}`);
      expect(response.statusCode).toBe(400);
      expect(response.json<{ error: string }>().error).toContain(words);
    }
  });

  it('without months, the twelve to this one', async () => {
    const report = (await get('/api/admin/tax')).json<TaxReport>();
    const now = new Date();
    expect(report.to).toBe(now.toISOString().slice(0, 7));
    expect(report.from).toBe(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 11, 1)).toISOString().slice(0, 7));
  });

  it('answers 401 without a session', async () => {
    for (const path of ['/api/admin/tax', '/api/admin/tax.csv']) {
      const response = await server.app.inject({ method: 'GET', url: path });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toHaveProperty('error');
    }
  });
});
