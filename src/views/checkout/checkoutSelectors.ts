/**
 * What the checkout views read from the statechart's snapshot. Display only: every rule is the machine's (its
 * states' tags, its guards via `snapshot.can`) or the domain's.
 */
import type { SnapshotFrom } from 'xstate';
import type { checkoutMachine } from '../../machines/checkoutMachine';

type CheckoutSnapshot = SnapshotFrom<typeof checkoutMachine>;

export const selectPendingSeats = (snapshot: CheckoutSnapshot) => snapshot.context.pendingSeats;
/** What the count box shows: a refused entry as typed, else the pending count. */
export const selectSeatText = (snapshot: CheckoutSnapshot) => snapshot.context.seatDraft ?? String(snapshot.context.pendingSeats);
/** Why the count box refused an entry or '+' stopped at the limit; null when nothing was refused. */
export const selectSeatNotice = (snapshot: CheckoutSnapshot) => snapshot.context.seatNotice;
export const selectMaxSeats = (snapshot: CheckoutSnapshot) => snapshot.context.maxSeats;
export const selectCelebrating = (snapshot: CheckoutSnapshot) => snapshot.context.celebrating;
export const selectSession = (snapshot: CheckoutSnapshot) => snapshot.context.session;
export const selectForm = (snapshot: CheckoutSnapshot) => snapshot.context.form;
export const selectFieldErrors = (snapshot: CheckoutSnapshot) => snapshot.context.fieldErrors;
export const selectPaymentError = (snapshot: CheckoutSnapshot) => snapshot.context.paymentError;
/** A seat change took the typed card with the old payment form: the buyer is asked to type it again. */
export const selectCardReentryNeeded = (snapshot: CheckoutSnapshot) => snapshot.context.cardReentryNeeded;
export const selectInitFailed = (snapshot: CheckoutSnapshot) => snapshot.matches({ init: 'failed' });

/** The server is confirming a seat change. */
export const selectUpdating = (snapshot: CheckoutSnapshot) => snapshot.matches('updating');

/** The order is being paid or finalized (spec: "busy"), or has just succeeded. */
export const selectProcessing = (snapshot: CheckoutSnapshot) => snapshot.hasTag('processing');

/** The card was charged (or may have been) and the order is not finalized yet: leaving asks first. */
export const selectPaymentAtRisk = (snapshot: CheckoutSnapshot) => snapshot.hasTag('paymentAtRisk');

/** The charged order's finalize failed: 'Payment received, completing your order…' with a retry. */
export const selectFinalizeFailed = (snapshot: CheckoutSnapshot) => snapshot.matches('finalizeFailed');

/** The page is finalizing a payment this browser started earlier (or could not, and offers a retry). */
export const selectResume = (snapshot: CheckoutSnapshot): 'checking' | 'failed' | null =>
  snapshot.matches('resuming') ? 'checking' : snapshot.matches('resumeFailed') ? 'failed' : null;

export const selectRecentPurchase = (snapshot: CheckoutSnapshot) => snapshot.context.recentPurchase;

/** Name and email are locked while the order is processed and once the card payment went through. */
export const selectFieldsLocked = (snapshot: CheckoutSnapshot) => snapshot.hasTag('fieldsLocked');

/**
 * Seat buttons are locked in the states the statechart tags `seatsLocked` (updating, a failed initialisation,
 * while the order is processed, once the payment went through); minus also at one seat (its guard).
 */
export const selectCanAddSeat = (snapshot: CheckoutSnapshot) => !snapshot.hasTag('seatsLocked');

export const selectCanRemoveSeat = (snapshot: CheckoutSnapshot) =>
  !snapshot.hasTag('seatsLocked') && snapshot.can({ type: 'SEAT_REMOVED' });

/**
 * The payment form's identity: re-created when the client secret or the update counter changes (spec §4), except
 * when the location step replaced the subscription for tax: the form and its card stay (decision 0071).
 */
export const selectPaymentFormKey = (snapshot: CheckoutSnapshot) =>
  snapshot.context.paymentFormSecret ? `${snapshot.context.paymentFormSecret}:${snapshot.context.updateCounter}` : null;
/** The client secret the payment form was made for. */
export const selectPaymentFormSecret = (snapshot: CheckoutSnapshot) => snapshot.context.paymentFormSecret;
export const selectLocationError = (snapshot: CheckoutSnapshot) => snapshot.context.locationError;

/** The monthly tax quoted for the seats shown, in cents, and its state; null without a quote for them. */
export const selectQuotedTax = (snapshot: CheckoutSnapshot) => {
  const { taxQuote, pendingSeats } = snapshot.context;
  return taxQuote && taxQuote.seats === pendingSeats && taxQuote.taxCents > 0 ? taxQuote : null;
};

/** The buyer is asked to confirm the monthly total with tax before it is charged. */
export const selectConfirmingTax = (snapshot: CheckoutSnapshot) => snapshot.matches('confirmingTax');

/**
 * Submit is offered once the payment form is ready, no seat change is pending and nothing is processing. After a
 * charged card whose finalize failed, the retry is its own button (the card is never confirmed again).
 */
export const selectCanSubmit = (snapshot: CheckoutSnapshot) =>
  snapshot.matches('idle') && snapshot.context.session !== null && snapshot.context.paymentGateway !== null;
