/**
 * How an invoice's status reads on the manage page and in the console: a refunded invoice says so, with the amount.
 * Money in integer cents.
 */
import { formatDollars } from './pricing';

/** An invoice as listed: what was paid (or is due), its status, and what of it was refunded. */
interface ListedInvoiceLike {
  amountCents: number;
  status: string;
  refundedCents: number;
}

/** 'Paid', 'Unpaid', 'Not collected', 'Refunded ($500)', 'Partly refunded ($200 of $500)'. */
export function invoiceStatusWords(invoice: ListedInvoiceLike): string {
  switch (invoice.status) {
    case 'refunded':
      return `Refunded (${formatDollars(invoice.refundedCents)})`;
    case 'partially_refunded':
      return `Partly refunded (${formatDollars(invoice.refundedCents)} of ${formatDollars(invoice.amountCents)})`;
    case 'open':
      return 'Unpaid';
    case 'uncollectible':
      return 'Not collected';
    default:
      return 'Paid';
  }
}
