/**
 * What the manage page says before a cancellation is confirmed: within the refund guarantee (decision 0024, the
 * offer's money-back guarantee and 30-day AI Challenge) that the buyer may ask for their money back, and how (by
 * email: the owner refunds from the console; the buyer has no refund call of their own yet); after it, the day
 * access ends.
 */
import type { AccountView } from '../../contract/account';
import { isWithinRefundGuarantee, REFUND_GUARANTEE_DAYS } from '../../domain/refunds';
import { day } from './accountDates';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Invoice statuses of a payment taken (src/domain/invoiceStatus.ts). */
const PAID_STATUSES = new Set(['paid', 'refunded', 'partially_refunded']);

/** The first payment's time, from which the guarantee counts; null before any payment. */
function firstPaymentAt(account: AccountView): Date | null {
  const times = account.invoices.filter((invoice) => PAID_STATUSES.has(invoice.status)).map((invoice) => Date.parse(invoice.date));
  return times.length > 0 ? new Date(Math.min(...times)) : null;
}

/** The confirmation's words for `account` at `now`: the guarantee's, or the day access ends. */
export function cancelConfirmationText(account: AccountView, now: Date): string {
  const accessEnds = `You keep access until ${day(account.currentPeriodEnd)} and will not be charged again; you can undo this until then.`;
  const paidAt = firstPaymentAt(account);
  if (paidAt && isWithinRefundGuarantee(paidAt, now)) {
    const until = day(new Date(paidAt.getTime() + REFUND_GUARANTEE_DAYS * DAY_MS).toISOString());
    return (
      `You are within the ${REFUND_GUARANTEE_DAYS}-day money-back guarantee, until ${until}. Cancelling stops the renewal ` +
      `but does not refund you: to get every dollar back, email us and ask for a refund before then. ${accessEnds}`
    );
  }
  return accessEnds;
}
