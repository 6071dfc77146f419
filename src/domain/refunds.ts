/**
 * The refund guarantee both sides apply (decision 0024): within REFUND_GUARANTEE_DAYS of the first
 * payment (the offer's money-back guarantee and 30-day AI Challenge) the owner refunds everything paid; after that
 * only a named amount. The server enforces it (server/checkout/refundOrder.ts); the console's form follows it.
 */

/** Days after the first payment in which a full refund is the guarantee. */
export const REFUND_GUARANTEE_DAYS = 30;

const DAY_MS = 24 * 60 * 60 * 1000;

/** True when `now` is within the guarantee of a first payment made at `paidAt`. */
export function isWithinRefundGuarantee(paidAt: Date, now: Date): boolean {
  return now.getTime() <= refundGuaranteeEndsAt(paidAt).getTime();
}

/** The last moment of the guarantee of a first payment made at `paidAt`: REFUND_GUARANTEE_DAYS later. */
export function refundGuaranteeEndsAt(paidAt: Date): Date {
  return new Date(paidAt.getTime() + REFUND_GUARANTEE_DAYS * DAY_MS);
}

/** Invoice statuses whose money was taken (src/contract/admin.ts OrderInvoice). */
const PAID_INVOICE_STATUSES: ReadonlySet<string> = new Set(['paid', 'partially_refunded', 'refunded']);

/**
 * What is left to refund of an order, in cents: each paid invoice's amount less what was refunded of it, as the
 * providers count it (server/payments/sandbox/billing.ts, server/payments/stripe/provider.ts refund). The console's
 * refund form refuses more before calling; the server refuses it too (a payment under dispute is not refundable
 * there, and such an order shows no refund form).
 */
export function refundableCents(invoices: readonly { amountCents: number; refundedCents: number; status: string }[]): number {
  return invoices
    .filter((invoice) => PAID_INVOICE_STATUSES.has(invoice.status))
    .reduce((sum, invoice) => sum + Math.max(0, invoice.amountCents - invoice.refundedCents), 0);
}

/**
 * The buyer's ask for the guarantee's refund that still waits for the owner (docs/decisions/0068): asked, and the
 * subscription not ended yet (a console refund ends it at once). Null when there is none to answer.
 */
export function openRefundAsk(order: {
  status: string;
  refundAsked?: { at: string; amountCents: number } | null;
}): { at: string; amountCents: number } | null {
  return order.refundAsked && order.status !== 'cancelled' && order.status !== 'open' ? order.refundAsked : null;
}

/**
 * True when the buyer may ask for the guarantee's refund at `now` (docs/decisions/0068): within the guarantee, with
 * money left to refund, and not asked yet. The manage page offers it by this; the server decides
 * (server/checkout/refundAsk.ts).
 */
export function isRefundAskable(
  account: { guaranteeEndsAt: string | null; refundableCents: number; refundAsked: unknown; status: string } | null,
  now: Date,
): boolean {
  if (!account?.guaranteeEndsAt || account.refundAsked || account.refundableCents <= 0) return false;
  if (account.status !== 'paid' && account.status !== 'past_due') return false;
  return now.getTime() <= Date.parse(account.guaranteeEndsAt);
}
