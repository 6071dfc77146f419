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
  return now.getTime() - paidAt.getTime() <= REFUND_GUARANTEE_DAYS * DAY_MS;
}
