/** Spec §7: the page shows the server's `error` text. */
import type { Outcome, Refusal } from './outcome';
import { HttpError } from '../http/httpError';

// One place, so tests and clients can rely on them.
export const CHECKOUT_ERRORS = {
  unknownProduct: 'Unknown product.',
  unknownCheckout: 'Unknown checkout',
  checkoutChanged: 'This checkout was changed in another window. Please refresh the page and try again.',
  seatsBeingUpdated: 'Seats are being updated. Please wait a moment and try again.',
  orderPaid: 'This order has already been paid.',
  orderCancelled: 'This order has been cancelled.',
  buyerMismatch: 'This email is not the one this order was paid with.',
  paymentIncomplete: 'Payment has not been completed for this order.',
  providerUnavailable: 'The payment provider could not complete the request. Please try again.',
  emailInvalid: 'Email is invalid',
  nameRequired: 'Name is required',
  buyerUnknown: 'The payment carries no billing name and email. Please contact support.',
} as const;

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
