/** Spec §7: the page shows the server's `error` text. */
import type { Outcome, Refusal } from './outcome';
import { CHECKOUT_ERRORS, HttpError } from '../http/httpError';

const REFUSAL_REPLIES: Readonly<Record<Refusal, { status: number; message: string }>> = {
  unknown_checkout: { status: 404, message: CHECKOUT_ERRORS.unknownCheckout },
  checkout_changed: { status: 409, message: CHECKOUT_ERRORS.checkoutChanged },
  seats_being_updated: { status: 409, message: CHECKOUT_ERRORS.seatsBeingUpdated },
  order_paid: { status: 409, message: CHECKOUT_ERRORS.orderPaid },
  order_cancelled: { status: 409, message: CHECKOUT_ERRORS.orderCancelled },
  buyer_mismatch: { status: 403, message: CHECKOUT_ERRORS.buyerMismatch },
  payment_incomplete: { status: 402, message: CHECKOUT_ERRORS.paymentIncomplete },
  buyer_unknown: { status: 422, message: CHECKOUT_ERRORS.buyerUnknown },
  provider_unavailable: { status: 502, message: CHECKOUT_ERRORS.providerUnavailable },
};

/** @throws HttpError with the refusal's status and message. */
export function replyWith<T>(outcome: Outcome<T>): T {
  if (outcome.ok) return outcome.value;
  const { status, message } = REFUSAL_REPLIES[outcome.refusal];
  throw new HttpError(status, message);
}
