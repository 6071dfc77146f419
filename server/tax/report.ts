/** The tax report (docs/decisions/0074), per state and UTC month, in cents; a refund counts in its own month. */
import { and, gte, lt, sql } from 'drizzle-orm';
import type { TaxReport, TaxReportRow } from '../../src/contract/admin';
import type { Database } from '../db/client';
import { taxRecords } from '../db/schema';

/** `from`..`to` inclusive (YYYY-MM); `start`..`end` half-open. */
interface TaxReportPeriod {
  from: string;
  to: string;
  start: Date;
  end: Date;
}

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

const DEFAULT_MONTHS = 12;

const monthOf = (date: Date) => date.toISOString().slice(0, 7);

function monthStart(month: string, add = 0): Date {
  const [year, number] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, number - 1 + add, 1));
}

/** @throws RangeError in words the owner reads (the route answers 400 with them). */
export function taxPeriodOf(query: { from?: string; to?: string }, now = new Date()): TaxReportPeriod {
  for (const [name, month] of [
    ['From', query.from],
    ['To', query.to],
  ] as const) {
    if (month !== undefined && !MONTH.test(month))
      throw new RangeError(`${name} must be a month written YYYY-MM, such as ${monthOf(now)}.`);
  }
  const to = query.to ?? monthOf(now);
  const from = query.from ?? monthOf(monthStart(to, 1 - DEFAULT_MONTHS));
  if (from > to) throw new RangeError('The report must end in or after the month it starts.');
  return { from, to, start: monthStart(from), end: monthStart(to, 1) };
}

/** @throws database errors. */
export async function taxReport(db: Database, period: TaxReportPeriod): Promise<TaxReport> {
  const month = sql<string>`to_char(${taxRecords.occurredAt} at time zone 'UTC', 'YYYY-MM')`;
  const isPayment = sql`${taxRecords.kind} = 'payment'`;
  const grouped = await db
    .select({
      state: taxRecords.taxState,
      month,
      salesCents: sql<number>`coalesce(sum(${taxRecords.amountCents}) filter (where ${isPayment}), 0)::int`,
      salesRefundedCents: sql<number>`coalesce(-sum(${taxRecords.amountCents}) filter (where not ${isPayment}), 0)::int`,
      taxCollectedCents: sql<number>`coalesce(sum(${taxRecords.taxCents}) filter (where ${isPayment}), 0)::int`,
      taxRefundedCents: sql<number>`coalesce(-sum(${taxRecords.taxCents}) filter (where not ${isPayment}), 0)::int`,
      payments: sql<number>`(count(*) filter (where ${isPayment}))::int`,
      refunds: sql<number>`(count(*) filter (where not ${isPayment}))::int`,
    })
    .from(taxRecords)
    .where(and(gte(taxRecords.occurredAt, period.start), lt(taxRecords.occurredAt, period.end)))
    .groupBy(taxRecords.taxState, month)
    .orderBy(taxRecords.taxState, month);
  const rows: TaxReportRow[] = grouped.map((row) => ({ ...row, netTaxCents: row.taxCollectedCents - row.taxRefundedCents }));
  const totals = new Map<string, TaxReportRow>();
  for (const row of rows) {
    const total = totals.get(row.state) ?? { ...emptyRow(row.state), month: `${period.from}–${period.to}` };
    totals.set(row.state, {
      ...total,
      salesCents: total.salesCents + row.salesCents,
      salesRefundedCents: total.salesRefundedCents + row.salesRefundedCents,
      taxCollectedCents: total.taxCollectedCents + row.taxCollectedCents,
      taxRefundedCents: total.taxRefundedCents + row.taxRefundedCents,
      netTaxCents: total.netTaxCents + row.netTaxCents,
      payments: total.payments + row.payments,
      refunds: total.refunds + row.refunds,
    });
  }
  return { from: period.from, to: period.to, rows, totals: [...totals.values()] };
}

function emptyRow(state: string): TaxReportRow {
  const zero = { salesCents: 0, salesRefundedCents: 0, taxCollectedCents: 0, taxRefundedCents: 0, netTaxCents: 0 };
  return { state, month: '', ...zero, payments: 0, refunds: 0 };
}
