import type { OrderRow, PeriodFigures, TaxReport } from '../../src/contract/admin';
import { orderStatusWords } from '../../src/domain/orderStatus';
import { csvOf, usd } from '../http/csv';

export { csvHeaders } from '../http/csv';

/** The status in words after the first columns (src/domain/orderStatus.ts). */
export function ordersCsv(rows: OrderRow[]): string {
  return csvOf([
    [
      'transaction_id',
      'status',
      'seats',
      'monthly_total_usd',
      'email',
      'name',
      'referrer',
      'affiliate_id',
      'provider',
      'customer_id',
      'subscription_id',
      'created_at',
      'paid_at',
      'cancelled_at',
      'refunded_usd',
      'status_in_words',
      'cancel_at',
      'cancellation_reason',
      'past_due_since',
    ],
    ...rows.map((row) => [
      row.transactionId,
      row.status,
      row.quantity,
      usd(row.amountCents),
      row.email,
      row.name,
      row.referrer?.slug ?? '',
      row.affiliateId,
      row.provider,
      row.customerId,
      row.subscriptionId,
      row.createdAt,
      row.paidAt,
      row.cancelledAt,
      usd(row.refundedCents),
      orderStatusWords(row),
      row.cancelAt,
      row.cancellationReason,
      row.pastDueSince,
    ]),
  ]);
}

export function referrerReportCsv(figures: PeriodFigures): string {
  return csvOf([
    ['referrer', 'name', 'page_views', 'checkouts_opened', 'payments_submitted', 'paid_orders', 'paid_seats', 'mrr_usd', 'from', 'to'],
    ...figures.byReferrer.map((row) => [
      row.referrer?.slug ?? '(no link)',
      row.referrer?.displayName ?? '',
      row.views,
      row.opened,
      row.submitted,
      row.paid,
      row.paidSeats,
      usd(row.mrrCents),
      figures.from,
      figures.to,
    ]),
  ]);
}

/**
 * The tax report as CSV (docs/decisions/0074): a line per state and month, then a line per state for the whole
 * period (its month column `total`), money in dollars.
 */
export function taxReportCsv(report: TaxReport): string {
  const line = (row: TaxReport['rows'][number], month: string) => [
    row.state,
    month,
    usd(row.salesCents),
    usd(row.salesRefundedCents),
    usd(row.taxCollectedCents),
    usd(row.taxRefundedCents),
    usd(row.netTaxCents),
    row.payments,
    row.refunds,
  ];
  return csvOf([
    ['state', 'month', 'sales_usd', 'sales_refunded_usd', 'tax_collected_usd', 'tax_refunded_usd', 'net_tax_usd', 'payments', 'refunds'],
    ...report.rows.map((row) => line(row, row.month)),
    ...report.totals.map((row) => line(row, 'total')),
  ]);
}
