/**
 * The checkout statechart (spec §4; architecture.md "The statechart"). It holds the whole checkout: seat counts
 * (pending and confirmed), the subscription session, the form and its errors, the update counter and what is
 * busy. Timers are named delays; server calls and payment confirmation are invoked actors, so tests swap them.
 * Every toast of spec §8 is emitted by a transition. No DOM here: views subscribe to the emitted events.
 *
 * Open it in the Stately visualizer: implementations are supplied through setup(), all of them named.
 */
import { and, assertEvent, assign, emit, enqueueActions, fromPromise, setup } from 'xstate';
import { createSubscriptionIntent, finalizeSubscription, locateSubscription, updateSubscriptionIntent } from '../api/checkoutApi';
import { ApiError } from '../api/client';
import { preloadPublicConfig } from '../api/publicConfig';
import { savePaymentRecord, type PaymentSuccessRecord } from '../api/paymentRecord';
import {
  forgetPendingPayment,
  rememberPurchase,
  savePendingPayment,
  type PendingPayment,
  type RecentPurchase,
} from '../api/pendingPayment';
import type { FinalizeResponse, SubscriptionSession, UpdateIntentResponse } from '../contract/checkout';
import type { TaxLocationRefusal } from '../domain/tax';
import { DEFAULT_MAX_SEATS, MIN_SEATS, seatEntryRefusal, seatLimitNotice } from '../domain/pricing';
import { PRODUCT_ID } from '../domain/product';
import {
  CHECKOUT_FIELDS,
  fullName,
  hasFieldErrors,
  validateCheckoutForm,
  type CheckoutField,
  type CheckoutForm,
  type FieldErrors,
} from '../domain/validation';
import { DEFAULT_PAYMENT_ERROR, type BillingDetails, type PaymentConfirmation, type PaymentGateway } from '../payments/gateway';
import { locateBuyer, type Location, type LocateActorInput, type QuotedTax } from './checkoutTax';
import { failureOf, outputOf } from './actorError';
import { finalizeInput, orderOf, paymentRecord, type FinalizeActorInput } from './checkoutOrder';
import { CONFETTI_SEAT_COUNT, TIMINGS } from './checkoutTimings';
import { TOASTS, type ToastMessage } from './toasts';

export interface CheckoutInput {
  /** The referrer's short label (spec §3 affiliate_id). */
  affiliateId: string;
  /** The current page address (spec §3 affiliate_source). */
  affiliateSource: string;
  /** Absolute URL of /payment-success (spec §4 return address). */
  returnUrl: string;
  /** A payment this browser started and never saw finalized (src/api/pendingPayment.ts): the page resumes it. */
  pendingPayment?: PendingPayment | null;
  /** A purchase finalized in this browser in the last 24 hours: the page shows it above the form. */
  recentPurchase?: RecentPurchase | null;
  /**
   * What is left of the spec's 500 ms before call 1, counted from when the page opened (the page passes
   * 500 − ms since navigation start); TIMINGS.initDelay when absent.
   */
  initDelayMs?: number;
  /** The most seats the server sells (its MAX_SEATS); DEFAULT_MAX_SEATS when absent. */
  maxSeats?: number;
}

interface CheckoutContext extends CheckoutInput {
  maxSeats: number;
  /** The count the buyer sees and edits; drives the page total at once (spec §4). */
  pendingSeats: number;
  /** What the buyer typed in the count box when it is not a count we sell; null while the box shows pendingSeats. */
  seatDraft: string | null;
  /** Why the count box refused an entry or '+' stopped, in words at the field; null when nothing was refused. */
  seatNotice: string | null;
  /** The count the server last confirmed. */
  confirmedSeats: number;
  session: SubscriptionSession | null;
  /** Bumped on every successful update; with the client secret it keys the payment form (spec §4). */
  updateCounter: number;
  /**
   * The client secret the payment form was made for: the session's, except after the location step replaced the
   * subscription for tax, when the form (and the card typed in it) stays and pays the new one (decision 0071).
   */
  paymentFormSecret: string | null;
  /** The tax the server last quoted for the buyer's location and the seats it was for; null before any. */
  taxQuote: QuotedTax | null;
  /** Why the server refused the location typed with the card, shown at its field; null when none. */
  locationError: TaxLocationRefusal | null;
  form: CheckoutForm;
  fieldErrors: FieldErrors;
  /** The payment form's gateway for the current client secret; null until the form is ready. */
  paymentGateway: PaymentGateway | null;
  /** True for the 4 s of confetti after reaching exactly two seats. */
  celebrating: boolean;
  pendingPayment: PendingPayment | null;
  recentPurchase: RecentPurchase | null;
  /** Set once the card payment went through: from then on the seats and the buyer's details are what was paid. */
  paymentAccepted: boolean;
  /** The last payment failure's message, shown by the pay button until the next attempt (the toast goes away). */
  paymentError: string | null;
  /** The buyer has typed card details into the current payment form (its fields are not all empty). */
  cardTyped: boolean;
  /**
   * A seat change re-created the payment form after the buyer had typed a card, so the card is gone: the page says
   * so at the card field until the buyer types again (spec §4 re-creates the form; nothing typed is lost in silence).
   */
  cardReentryNeeded: boolean;
  /** The order as paid, once finalize said so: stored for the success page and handed to it. */
  completedOrder: PaymentSuccessRecord | null;
}
type CheckoutEvent =
  | { type: 'SEAT_ADDED' }
  | { type: 'SEAT_REMOVED' }
  /** The buyer typed in the count box: `text` as it stands. */
  | { type: 'SEATS_TYPED'; text: string }
  | { type: 'FIELD_CHANGED'; field: CheckoutField; value: string }
  | { type: 'PAYMENT_FORM_READY'; clientSecret: string; gateway: PaymentGateway }
  /** The payment form's fields went from empty to typed in or back (Stripe: the Payment Element's `change`, `empty`). */
  | { type: 'CARD_DETAILS_CHANGED'; empty: boolean }
  | { type: 'SUBMITTED' }
  /** The buyer confirmed the monthly total with tax the order summary shows. */
  | { type: 'TAX_CONFIRMED' }
  /** The buyer went back from the total with tax to change the card's country or ZIP. */
  | { type: 'TAX_DECLINED' }
  | { type: 'QUOTE_CLICKED' }
  | { type: 'GET_STARTED_CLICKED' }
  | { type: 'FIRST_NAME_FOCUS_DUE' }
  | { type: 'CONFETTI_ENDED' }
  | { type: 'ORDER_RETRY_CLICKED' }
  | { type: 'INIT_RETRY_CLICKED' };

/** What the views act on: toasts, scrolling, focus, navigation. */
export type CheckoutEmitted =
  | { type: 'toast'; toast: ToastMessage }
  | { type: 'scrollRequested'; target: 'checkoutForm' }
  | { type: 'focusRequested'; field: CheckoutField }
  /** The re-created payment form's card field takes the focus, through its gateway. */
  | { type: 'cardFocusRequested'; gateway: PaymentGateway }
  | { type: 'paymentCompleted'; record: PaymentSuccessRecord };

/**
 * What a state says to the views: `processing` the order is being paid or finalized, or has just succeeded (spec:
 * "busy"); `seatsLocked` the seat buttons are off; `fieldsLocked` name and email are read-only (what was paid is
 * what is finalized); `paymentAtRisk` the card was or may have been charged and the order is not finalized yet.
 */
type CheckoutTag = 'processing' | 'seatsLocked' | 'fieldsLocked' | 'paymentAtRisk';

/** Input of the confirmPayment actor. */
export interface ConfirmPaymentActorInput {
  gateway: PaymentGateway;
  clientSecret: string;
  billingDetails: BillingDetails;
  returnUrl: string;
}

/**
 * Statuses with which finalize says the payment was not taken for this checkout (402 not paid, 404 unknown, 409
 * cancelled or changed): a resumed checkout is then dropped and a fresh one starts. A 403 (another email than the
 * buyer's, docs/decisions/0026) is not among them: the order is paid, so the buyer may retry, never buy again.
 */
const NOT_RESUMABLE = [402, 404, 409];

/**
 * The message of a refused confirmation, the spec §8 default for any other outcome; a location reaches here only
 * when the card form could not read the card (the `locationFailed` guard), with its words.
 */
function refusalMessage(outcome: PaymentConfirmation | Extract<Location, { kind: 'failed' }>): string {
  if ('kind' in outcome) return outcome.message;
  return outcome.status === 'failed' ? outcome.message : DEFAULT_PAYMENT_ERROR;
}

/** The message of a failed call or confirmation (ApiError carries the server's), else the spec §8 default. */
function errorMessage(error: unknown): string {
  return error instanceof Error && error.message ? error.message : DEFAULT_PAYMENT_ERROR;
}

/**
 * The seat edits of a checkout waiting for the buyer (`idle`, and `confirmingTax` before the total with tax is
 * confirmed): '+', '−' or a typed count go to `pendingSeats`, committed 2000 ms after the last edit (spec §4); a
 * refused edit stays where it is, with why at the field. One definition, so both states take seat edits alike.
 */
const seatEditsToPendingSeats = {
  SEAT_ADDED: [{ guard: 'canAddSeat', target: 'pendingSeats', actions: ['addSeat', 'celebrateAtTwoSeats'] }, { actions: 'noteSeatLimit' }],
  SEAT_REMOVED: { guard: 'canRemoveSeat', target: 'pendingSeats', actions: ['removeSeat', 'celebrateAtTwoSeats'] },
  SEATS_TYPED: [
    { guard: 'typedSeatsAccepted', target: 'pendingSeats', actions: ['assignTypedSeats', 'celebrateAtTwoSeats'] },
    { actions: 'refuseTypedSeats' },
  ],
} as const;

export const checkoutMachine = setup({
  // Stryker disable next-line ObjectLiteral: TypeScript only, XState ignores `types` at run time
  types: {
    context: {} as CheckoutContext,
    events: {} as CheckoutEvent,
    tags: {} as CheckoutTag,
    input: {} as CheckoutInput,
    emitted: {} as CheckoutEmitted,
  },
  actors: {
    createSubscriptionIntent: fromPromise<SubscriptionSession, { affiliateId: string; affiliateSource: string }>(({ input }) =>
      createSubscriptionIntent({
        productId: PRODUCT_ID,
        quantity: MIN_SEATS,
        affiliate_id: input.affiliateId,
        affiliate_source: input.affiliateSource,
      }),
    ),
    updateSubscriptionIntent: fromPromise<UpdateIntentResponse, { session: SubscriptionSession; quantity: number }>(({ input }) =>
      updateSubscriptionIntent({
        subscriptionId: input.session.subscriptionId,
        subscriptionItemId: input.session.subscriptionItemId,
        transactionId: input.session.transactionId,
        quantity: input.quantity,
        productId: PRODUCT_ID,
      }),
    ),
    /** The location step before anything is charged: the card form's country and ZIP, then the server's tax. */
    locateBuyer: fromPromise<Location, LocateActorInput>(({ input }) => locateBuyer(input, locateSubscription)),
    confirmPayment: fromPromise<PaymentConfirmation, ConfirmPaymentActorInput>(({ input }) =>
      input.gateway.confirmPayment({ clientSecret: input.clientSecret, billingDetails: input.billingDetails, returnUrl: input.returnUrl }),
    ),
    finalizeSubscription: fromPromise<FinalizeResponse, FinalizeActorInput>(({ input }) =>
      finalizeSubscription({
        subscriptionId: input.order.subscriptionId,
        customerId: input.order.customerId,
        transactionId: input.order.transactionId,
        email: input.billingDetails.email,
        name: input.billingDetails.name,
      }),
    ),
  },
  delays: {
    /** Spec §4: call 1 about 500 ms after the page opens, not after the script ran. */
    initDelay: ({ context }) => context.initDelayMs ?? TIMINGS.initDelay,
    /** Spec §4: a seat change is committed 2000 ms after the last edit (each edit re-enters pendingSeats). */
    seatDebounce: TIMINGS.seatDebounce,
    firstNameFocus: TIMINGS.firstNameFocus,
    confetti: TIMINGS.confetti,
  },
  guards: {
    canRemoveSeat: ({ context }) => context.pendingSeats > MIN_SEATS,
    /** '+' stops at the server's MAX_SEATS (above it call 2 is refused). */
    canAddSeat: ({ context }) => context.pendingSeats < context.maxSeats,
    /** The typed text is a count from MIN_SEATS to maxSeats. */
    typedSeatsAccepted: ({ context, event }) => {
      assertEvent(event, 'SEATS_TYPED');
      return seatEntryRefusal(event.text, context.maxSeats) === null;
    },
    seatsMatchConfirmed: ({ context }) => context.pendingSeats === context.confirmedSeats,
    seatsDifferFromConfirmed: ({ context }) => context.pendingSeats !== context.confirmedSeats,
    formInvalid: ({ context }) => hasFieldErrors(validateCheckoutForm(context.form)),
    /** A gateway is only ever kept for the current session's client secret (gatewayMatchesSession). */
    paymentFormReady: ({ context }) => context.paymentGateway !== null,
    gatewayMatchesSession: ({ context, event }) => {
      assertEvent(event, 'PAYMENT_FORM_READY');
      return event.clientSecret === context.paymentFormSecret;
    },
    /** The card form showed what is missing under its own fields: nothing was sent. */
    locationIncomplete: ({ event }) => outputOf<Location>(event).kind === 'incomplete',
    /** The server refused the country or ZIP: said at its field, nothing charged. */
    locationRefused: ({ event }) => outputOf<Location>(event).kind === 'refused',
    /** The card form could not read the card (Stripe.js refused it): said by the pay button. */
    locationFailed: ({ event }) => outputOf<Location>(event).kind === 'failed',
    /**
     * The location owes tax: the buyer confirms the new monthly total before it is charged. Tested after the guards
     * that take the other answers, so the answer is a quote.
     */
    taxOwed: ({ event }) => outputOf<Extract<Location, { kind: 'quoted' }>>(event).quote.taxCents > 0,
    /**
     * The card payment went through: 'succeeded', or 'processing' (accepted, settling). Either way the buyer must
     * not pay again; finalize checks with the server whether the invoice is paid (Stripe: PaymentIntent statuses).
     */
    paymentAccepted: ({ event }) => {
      const { status } = outputOf<PaymentConfirmation>(event);
      return status === 'succeeded' || status === 'processing';
    },
    /** The card form refused the card itself and shows why under its fields: nothing was sent. */
    cardIncomplete: ({ event }) => outputOf<PaymentConfirmation>(event).status === 'incomplete',
    finalizeSucceeded: ({ event }) => outputOf<FinalizeResponse>(event).success === true,
    /** The payment form was re-created after a seat change that took the buyer's typed card with it. */
    cardReentryNeeded: ({ context }) => context.cardReentryNeeded,
    /** The page opened with a payment this browser started and never saw finalized. */
    hasPendingPayment: ({ context }) => context.pendingPayment !== null,
    /** Finalize answered that the resumed checkout was not paid (or is gone): it is dropped. */
    resumedPaymentNotTaken: ({ event }) => {
      const error = failureOf(event);
      return error instanceof ApiError && NOT_RESUMABLE.includes(error.status);
    },
    /** Name and email may change until the card payment went through. */
    formEditable: ({ context }) => !context.paymentAccepted,
  },
  actions: {
    addSeat: assign({ pendingSeats: ({ context }) => context.pendingSeats + 1, seatDraft: null, seatNotice: null }),
    removeSeat: assign({ pendingSeats: ({ context }) => context.pendingSeats - 1, seatDraft: null, seatNotice: null }),
    assignTypedSeats: assign(({ event }) => {
      assertEvent(event, 'SEATS_TYPED');
      // Number() reads a count with spaces around it as the count (the guard has accepted the text).
      return { pendingSeats: Number(event.text), seatDraft: null, seatNotice: null };
    }),
    /** The entry stays in the box with why it was refused; the last count stays what is priced and committed. */
    refuseTypedSeats: assign(({ context, event }) => {
      assertEvent(event, 'SEATS_TYPED');
      return { seatDraft: event.text, seatNotice: seatEntryRefusal(event.text, context.maxSeats) };
    }),
    noteSeatLimit: assign({ seatNotice: ({ context }) => seatLimitNotice(context.maxSeats) }),
    /** Spec §2: reaching exactly 2 seats starts 4 s of confetti (restarted if reached again). */
    celebrateAtTwoSeats: enqueueActions(({ context, enqueue }) => {
      if (context.pendingSeats !== CONFETTI_SEAT_COUNT) return;
      enqueue.cancel('confettiTimer');
      enqueue.assign({ celebrating: true });
      enqueue.raise({ type: 'CONFETTI_ENDED' }, { delay: 'confetti', id: 'confettiTimer' });
    }),
    endConfetti: assign({ celebrating: false }),
    assignField: assign(({ context, event }) => {
      assertEvent(event, 'FIELD_CHANGED');
      const { [event.field]: _cleared, ...fieldErrors } = context.fieldErrors;
      return { form: { ...context.form, [event.field]: event.value }, fieldErrors };
    }),
    assignFieldErrors: assign({ fieldErrors: ({ context }) => validateCheckoutForm(context.form) }),
    /**
     * After a refused submit, the first field with an error takes the focus (WCAG 3.3.1: the buyer lands on it).
     * It runs only on a refused submit, so some field has an error.
     */
    requestFocusOnFirstError: emit(({ context }) => ({
      type: 'focusRequested' as const,
      field: CHECKOUT_FIELDS.find((field) => context.fieldErrors[field])!,
    })),
    assignPaymentGateway: assign({
      paymentGateway: ({ event }) => {
        assertEvent(event, 'PAYMENT_FORM_READY');
        return event.gateway;
      },
    }),
    assignCardDetailsChanged: assign(({ context, event }) => {
      assertEvent(event, 'CARD_DETAILS_CHANGED');
      return { cardTyped: !event.empty, cardReentryNeeded: context.cardReentryNeeded && event.empty };
    }),
    /** The update re-creates the payment form (spec §4): a card typed into the old one is gone with it. */
    markCardLost: assign(({ context }) => ({ cardReentryNeeded: context.cardTyped || context.cardReentryNeeded, cardTyped: false })),
    requestCardFocus: emit(({ event }) => {
      assertEvent(event, 'PAYMENT_FORM_READY');
      return { type: 'cardFocusRequested' as const, gateway: event.gateway };
    }),
    assignSession: assign(({ event }) => {
      const session = outputOf<SubscriptionSession>(event);
      return { session, confirmedSeats: MIN_SEATS, paymentFormSecret: session.clientSecret };
    }),
    assignUpdatedSession: assign(({ context, event }) => {
      const output = outputOf<UpdateIntentResponse>(event);
      return {
        confirmedSeats: context.pendingSeats,
        session: context.session && {
          ...context.session,
          clientSecret: output.clientSecret,
          subscriptionId: output.subscriptionId,
          subscriptionItemId: output.subscriptionItemId,
        },
        updateCounter: context.updateCounter + 1,
        paymentGateway: null,
        paymentFormSecret: output.clientSecret,
        // A taxed checkout stays taxed for the new seats: the server's new tax, confirmed again before paying.
        taxQuote: context.taxQuote && { ...context.taxQuote, seats: context.pendingSeats, taxCents: output.taxCents },
      };
    }),
    /**
     * The server's answer to the location: the (possibly replaced) subscription and its tax; the form stays. Runs
     * only on a quote: the guards before it took the other answers.
     */
    assignTaxQuote: assign(({ context, event }) => {
      const { quote } = outputOf<Extract<Location, { kind: 'quoted' }>>(event);
      return {
        session: context.session && {
          ...context.session,
          clientSecret: quote.clientSecret,
          subscriptionId: quote.subscriptionId,
          subscriptionItemId: quote.subscriptionItemId,
        },
        taxQuote: { seats: context.confirmedSeats, taxCents: quote.taxCents, taxState: quote.taxState },
        locationError: null,
      };
    }),
    /** Runs only on a refusal (the `locationRefused` guard). */
    assignLocationError: assign({ locationError: ({ event }) => outputOf<Extract<Location, { kind: 'refused' }>>(event).refusal }),
    clearLocationError: assign({ locationError: null }),
    revertSeats: assign({ pendingSeats: ({ context }) => context.confirmedSeats, seatDraft: null, seatNotice: null }),
    notifyInitializationError: emit({ type: 'toast', toast: TOASTS.initializationError }),
    notifySubscriptionUpdated: emit(({ context }) => ({
      type: 'toast' as const,
      toast: TOASTS.subscriptionUpdated(context.confirmedSeats),
    })),
    /** Spec §4: a failed update raises both 'Update Failed' and 'Update Error'. */
    notifyUpdateFailed: enqueueActions(({ enqueue }) => {
      enqueue.emit({ type: 'toast', toast: TOASTS.updateFailed });
      enqueue.emit({ type: 'toast', toast: TOASTS.updateError });
    }),
    /**
     * Spec §8 'Payment Failed' with the provider's refusal (the confirmation's answer) or the failure's message (its
     * error); the page also shows it by the pay button.
     */
    notifyPaymentFailed: enqueueActions(({ enqueue, event }) => {
      const message = event.type.startsWith('xstate.done.actor.')
        ? refusalMessage(outputOf<PaymentConfirmation | Extract<Location, { kind: 'failed' }>>(event))
        : errorMessage(failureOf(event));
      enqueue.assign({ paymentError: message });
      enqueue.emit({ type: 'toast', toast: TOASTS.paymentFailed(message) });
    }),
    clearPaymentError: assign({ paymentError: null }),
    requestScrollToForm: emit({ type: 'scrollRequested', target: 'checkoutForm' }),
    scheduleFirstNameFocus: enqueueActions(({ enqueue }) => {
      enqueue.cancel('firstNameFocusTimer');
      enqueue.raise({ type: 'FIRST_NAME_FOCUS_DUE' }, { delay: 'firstNameFocus', id: 'firstNameFocusTimer' });
    }),
    requestFirstNameFocus: emit({ type: 'focusRequested', field: 'firstName' }),
    /** Before the card is charged: what a reload or a closed tab needs to finalize this order later. */
    rememberPendingPayment: assign({ pendingPayment: ({ context }) => ({ ...orderOf(context), savedAt: Date.now() }) }),
    /**
     * Kept in this browser's storage (src/api/pendingPayment.ts), so a reload or another tab resumes it. Runs only
     * after rememberPendingPayment.
     */
    storePendingPayment: ({ context }, _params: undefined) => savePendingPayment(context.pendingPayment!),
    /** The order was finalized or is gone: nothing left to resume, in this page (and, by erasePendingPayment, in storage). */
    forgetPendingPayment: assign({ pendingPayment: null }),
    erasePendingPayment: (_, _params: undefined) => forgetPendingPayment(),
    markPaymentAccepted: assign({ paymentAccepted: true }),
    /** GET /api/config starts beside call 1 instead of after it; the payment form reads the same answer. */
    preloadPublicConfig: (_, _params: undefined) => preloadPublicConfig(),
    rememberPurchase: ({ context }) => rememberPurchase({ ...orderOf(context), completedAt: Date.now() }),
    /** Read before the pending payment is forgotten: a resumed order's details are in it. */
    assignCompletedOrder: assign(({ context, event }) => ({ completedOrder: paymentRecord(context, outputOf<FinalizeResponse>(event)) })),
    /** Runs only on entering `success`, which every way in reaches through assignCompletedOrder. */
    storePaymentRecord: ({ context }, _params: undefined) => savePaymentRecord(context.completedOrder!),
    /** The views move to /payment-success; the event carries the record just stored (the order as paid). */
    announcePaymentCompleted: emit(({ context }) => ({ type: 'paymentCompleted' as const, record: context.completedOrder! })),
  },
}).createMachine({
  id: 'checkout',
  context: ({ input }) => ({
    ...input,
    maxSeats: input.maxSeats ?? DEFAULT_MAX_SEATS,
    pendingSeats: MIN_SEATS,
    seatDraft: null,
    seatNotice: null,
    confirmedSeats: MIN_SEATS,
    session: null,
    updateCounter: 0,
    paymentFormSecret: null,
    taxQuote: null,
    locationError: null,
    form: { firstName: '', lastName: '', email: '' },
    fieldErrors: {},
    paymentGateway: null,
    celebrating: false,
    pendingPayment: input.pendingPayment ?? null,
    recentPurchase: input.recentPurchase ?? null,
    paymentAccepted: false,
    paymentError: null,
    cardTyped: false,
    cardReentryNeeded: false,
    completedOrder: null,
  }),
  initial: 'init',
  on: {
    FIELD_CHANGED: { guard: 'formEditable', actions: 'assignField' },
    PAYMENT_FORM_READY: [
      { guard: and(['gatewayMatchesSession', 'cardReentryNeeded']), actions: ['assignPaymentGateway', 'requestCardFocus'] },
      { guard: 'gatewayMatchesSession', actions: 'assignPaymentGateway' },
    ],
    CARD_DETAILS_CHANGED: { actions: 'assignCardDetailsChanged' },
    QUOTE_CLICKED: { actions: 'requestScrollToForm' },
    GET_STARTED_CLICKED: { actions: ['requestScrollToForm', 'scheduleFirstNameFocus'] },
    FIRST_NAME_FOCUS_DUE: { actions: 'requestFirstNameFocus' },
    CONFETTI_ENDED: { actions: 'endConfetti' },
  },
  states: {
    init: {
      entry: 'preloadPublicConfig',
      // A payment this browser started and never saw finalized is resumed instead of opening a new checkout.
      always: { guard: 'hasPendingPayment', target: 'resuming' },
      initial: 'waiting',
      states: {
        // Seats chosen while the checkout is being created are committed once it exists.
        waiting: {
          after: { initDelay: 'creatingIntent' },
          on: {
            SEAT_ADDED: [{ guard: 'canAddSeat', actions: ['addSeat', 'celebrateAtTwoSeats'] }, { actions: 'noteSeatLimit' }],
            SEAT_REMOVED: { guard: 'canRemoveSeat', actions: ['removeSeat', 'celebrateAtTwoSeats'] },
            SEATS_TYPED: [
              { guard: 'typedSeatsAccepted', actions: ['assignTypedSeats', 'celebrateAtTwoSeats'] },
              { actions: 'refuseTypedSeats' },
            ],
          },
        },
        creatingIntent: {
          on: {
            SEAT_ADDED: [{ guard: 'canAddSeat', actions: ['addSeat', 'celebrateAtTwoSeats'] }, { actions: 'noteSeatLimit' }],
            SEAT_REMOVED: { guard: 'canRemoveSeat', actions: ['removeSeat', 'celebrateAtTwoSeats'] },
            SEATS_TYPED: [
              { guard: 'typedSeatsAccepted', actions: ['assignTypedSeats', 'celebrateAtTwoSeats'] },
              { actions: 'refuseTypedSeats' },
            ],
          },
          invoke: {
            src: 'createSubscriptionIntent',
            input: ({ context }) => ({ affiliateId: context.affiliateId, affiliateSource: context.affiliateSource }),
            onDone: [
              {
                guard: 'seatsDifferFromConfirmed',
                target: '#checkout.pendingSeats',
                actions: 'assignSession',
              },
              { target: '#checkout.idle', actions: 'assignSession' },
            ],
            onError: { target: 'failed', actions: 'notifyInitializationError' },
          },
        },
        /**
         * Call 1 failed: nothing can be committed, so the seat buttons are off; 'Try again' runs call 1 again
         * (docs/decisions/0012, an addition to spec §4).
         */
        failed: {
          tags: ['seatsLocked'],
          on: {
            INIT_RETRY_CLICKED: { target: 'creatingIntent' },
          },
        },
      },
    },
    idle: {
      on: {
        ...seatEditsToPendingSeats,
        // Until the payment form is ready the submit button is off and SUBMITTED is ignored.
        SUBMITTED: [
          { guard: and(['paymentFormReady', 'formInvalid']), actions: ['assignFieldErrors', 'requestFocusOnFirstError'] },
          { guard: 'paymentFormReady', target: 'locating', actions: ['clearPaymentError', 'clearLocationError'] },
        ],
      },
    },
    /**
     * The location step (decision 0071), before anything is charged: the card form's country and ZIP go to the
     * server, which answers the tax it owes. No tax: the payment goes on at once; tax: the buyer confirms first.
     */
    locating: {
      tags: ['processing', 'seatsLocked', 'fieldsLocked'],
      invoke: {
        src: 'locateBuyer',
        input: ({ context }) => ({
          gateway: context.paymentGateway!,
          session: context.session!,
          billingDetails: { name: fullName(context.form), email: context.form.email.trim() },
          returnUrl: context.returnUrl,
        }),
        onDone: [
          { guard: 'locationIncomplete', target: 'idle' },
          { guard: 'locationRefused', target: 'idle', actions: 'assignLocationError' },
          { guard: 'locationFailed', target: 'idle', actions: 'notifyPaymentFailed' },
          { guard: 'taxOwed', target: 'confirmingTax', actions: 'assignTaxQuote' },
          { target: 'submitting', actions: ['assignTaxQuote', 'rememberPendingPayment', 'storePendingPayment'] },
        ],
        onError: { target: 'idle', actions: 'notifyPaymentFailed' },
      },
    },
    /**
     * The location owes tax: the order summary shows the tax line and the new monthly total, and nothing is charged
     * until the buyer confirms it. A seat change goes back through the debounce and is re-quoted by the server.
     */
    confirmingTax: {
      tags: ['fieldsLocked'],
      on: {
        TAX_CONFIRMED: { target: 'submitting', actions: ['rememberPendingPayment', 'storePendingPayment'] },
        TAX_DECLINED: { target: 'idle' },
        ...seatEditsToPendingSeats,
      },
    },
    /**
     * The buyer changed the seats: the change is committed 2000 ms after the last edit. Seat buttons are locked
     * while updating, so a commit always follows the previous success by more than 1 s (spec §4; decision 0014).
     */
    pendingSeats: {
      on: {
        SEAT_ADDED: [
          { guard: 'canAddSeat', target: 'pendingSeats', reenter: true, actions: ['addSeat', 'celebrateAtTwoSeats'] },
          { actions: 'noteSeatLimit' },
        ],
        SEAT_REMOVED: { guard: 'canRemoveSeat', target: 'pendingSeats', reenter: true, actions: ['removeSeat', 'celebrateAtTwoSeats'] },
        // A refused entry restarts nothing: the last accepted count is still committed when the debounce ends.
        SEATS_TYPED: [
          { guard: 'typedSeatsAccepted', target: 'pendingSeats', reenter: true, actions: ['assignTypedSeats', 'celebrateAtTwoSeats'] },
          { actions: 'refuseTypedSeats' },
        ],
      },
      after: {
        seatDebounce: [{ guard: 'seatsMatchConfirmed', target: 'idle' }, { target: 'updating' }],
      },
    },
    /** Call 2 is in flight; the seat buttons are locked (spec §4), so the seats stay what is being committed. */
    updating: {
      tags: ['seatsLocked'],
      invoke: {
        src: 'updateSubscriptionIntent',
        input: ({ context }) => ({ session: context.session!, quantity: context.pendingSeats }),
        onDone: {
          target: 'idle',
          actions: ['assignUpdatedSession', 'markCardLost', 'notifySubscriptionUpdated'],
        },
        onError: { target: 'idle', actions: ['revertSeats', 'notifyUpdateFailed'] },
      },
    },
    submitting: {
      tags: ['paymentAtRisk', 'processing', 'seatsLocked', 'fieldsLocked'],
      invoke: {
        src: 'confirmPayment',
        input: ({ context }) => ({
          gateway: context.paymentGateway!,
          clientSecret: context.session!.clientSecret,
          billingDetails: { name: fullName(context.form), email: context.form.email.trim() },
          returnUrl: context.returnUrl,
        }),
        onDone: [
          {
            guard: 'paymentAccepted',
            target: 'finalizing',
            actions: 'markPaymentAccepted',
          },
          {
            guard: 'cardIncomplete',
            target: 'idle',
            actions: ['forgetPendingPayment', 'erasePendingPayment'],
          },
          {
            target: 'idle',
            actions: ['forgetPendingPayment', 'erasePendingPayment', 'notifyPaymentFailed'],
          },
        ],
        // Not a refusal: the payment may have gone through. The pending record stays, so a reload finds out.
        onError: { target: 'idle', actions: 'notifyPaymentFailed' },
      },
    },
    finalizing: {
      tags: ['paymentAtRisk', 'processing', 'seatsLocked', 'fieldsLocked'],
      invoke: {
        src: 'finalizeSubscription',
        input: ({ context }) => finalizeInput(context),
        onDone: [
          {
            guard: 'finalizeSucceeded',
            target: 'success',
            actions: 'assignCompletedOrder',
          },
          { target: 'finalizeFailed' },
        ],
        onError: { target: 'finalizeFailed' },
      },
    },
    /**
     * The card was charged but the order was not completed (docs/decisions/0006): the page says 'Payment
     * received, completing your order…', never 'Payment Failed'. Seats and the buyer's details are locked (the
     * retry finalizes what was paid for); the retry finalizes only, never pays again.
     */
    finalizeFailed: {
      tags: ['paymentAtRisk', 'seatsLocked', 'fieldsLocked'],
      on: {
        ORDER_RETRY_CLICKED: { target: 'finalizing' },
      },
    },
    /**
     * The page opened with a pending payment: finalize it (paid → success; not paid → a fresh checkout). The
     * payment panel shows the check instead of the form, so there are no fields to lock.
     */
    resuming: {
      tags: ['paymentAtRisk', 'seatsLocked'],
      invoke: {
        src: 'finalizeSubscription',
        input: ({ context }) => finalizeInput(context),
        onDone: [
          {
            guard: 'finalizeSucceeded',
            target: 'success',
            actions: 'assignCompletedOrder',
          },
          { target: 'resumeFailed' },
        ],
        onError: [
          {
            guard: 'resumedPaymentNotTaken',
            target: 'init',
            actions: ['forgetPendingPayment', 'erasePendingPayment'],
          },
          { target: 'resumeFailed' },
        ],
      },
    },
    /** The resumed payment could not be checked (network, server): the buyer retries; nothing is paid again. */
    resumeFailed: {
      tags: ['paymentAtRisk', 'seatsLocked'],
      on: {
        ORDER_RETRY_CLICKED: { target: 'resuming' },
      },
    },
    /** The one way to success, from a checkout finalized here or a payment resumed after a reload. */
    success: {
      tags: ['processing', 'seatsLocked', 'fieldsLocked'],
      type: 'final',
      entry: [
        'storePaymentRecord',
        'rememberPurchase',
        'announcePaymentCompleted',
        // Last: a resumed order is read from the pending payment until here.
        'forgetPendingPayment',
        'erasePendingPayment',
      ],
    },
  },
});
