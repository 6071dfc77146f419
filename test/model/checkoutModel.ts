/**
 * The test model of the checkout statechart: which events a buyer, the server, the payment form and the clock
 * can produce in each state, and what makes two snapshots the same state for path generation.
 */
import { TestModel } from '@xstate/graph';
import type { AnyEventObject } from 'xstate';
import type { FinalizeResponse, SubscriptionSession, UpdateIntentResponse } from '../../src/contract/checkout';
import { hasFieldErrors, validateCheckoutForm } from '../../src/domain/validation';
import { ApiError } from '../../src/api/client';
import type { PendingPayment } from '../../src/api/pendingPayment';
import { checkoutMachine } from '../../src/machines/checkoutMachine';
import type { PaymentConfirmation, PaymentGateway } from '../../src/payments/gateway';
import type { Location } from '../../src/machines/checkoutTax';
import { monthlyTotalCents } from '../../src/domain/pricing';
import { taxCents } from '../../src/domain/tax';
import { createTimedMachine, ModelCoverage } from './timedModel';

export const MODEL_START_TIME = Date.UTC(2026, 0, 5, 9, 0, 0);
/**
 * Seats beyond three add no new behaviour (every seat after the second costs the same), so the model's page sells
 * at most three: '+' and the count box meet the limit there.
 */
const MODEL_MAX_SEATS = 3;

export const MODEL_INPUT = {
  affiliateId: 'dr-sample',
  affiliateSource: 'http://localhost:3000/',
  returnUrl: 'http://localhost:3000/payment-success',
  maxSeats: MODEL_MAX_SEATS,
};

/** A payment this browser started earlier and never saw finalized: three seats, $1,000/month. */
export const MODEL_PENDING_PAYMENT: PendingPayment = {
  transactionId: 'txn_model_earlier',
  subscriptionId: 'sub_model_earlier',
  customerId: 'cus_model_earlier',
  seats: 3,
  totalAmount: 1000,
  name: 'Ada Palmer',
  email: 'ada@example.com',
  savedAt: MODEL_START_TIME - 60_000,
};

/** The page opened with that pending payment (the resume model starts here). */
export const MODEL_RESUME_INPUT = { ...MODEL_INPUT, pendingPayment: MODEL_PENDING_PAYMENT };

const MODEL_SESSION: SubscriptionSession = {
  clientSecret: 'pi_model_1_secret_a',
  subscriptionId: 'sub_model_1',
  subscriptionItemId: 'si_model_1',
  customerId: 'cus_model',
  transactionId: 'txn_model',
};

/** The update response for the Nth successful update. */
function updatedSession(updateCounter: number): UpdateIntentResponse {
  const revision = updateCounter + 2;
  return {
    clientSecret: `pi_model_${revision}_secret_a`,
    subscriptionId: `sub_model_${revision}`,
    subscriptionItemId: `si_model_${revision}`,
    taxCents: 0,
  };
}

const FINALIZED: FinalizeResponse = {
  success: true,
  token: 'model-handoff-token',
  loginDetails: { email: 'ada@example.com', password: 'Model-Password-0123', productPurchased: 'AI Training Subscription (Monthly)' },
  signInLinkEmailed: false,
};

const DECLINED: PaymentConfirmation = { status: 'failed', message: 'Your card was declined.' };
const CONFIRMED: PaymentConfirmation = { status: 'succeeded', paymentIntentId: 'pi_model' };

/** The location step's answers (decision 0071): the session as it is, untaxed; or replaced, taxed for Honolulu. */
function untaxedQuote(session: SubscriptionSession | null, seats: number): Location {
  const { clientSecret = '', subscriptionId = '', subscriptionItemId = '' } = session ?? {};
  return {
    kind: 'quoted',
    quote: { clientSecret, subscriptionId, subscriptionItemId, subtotalCents: monthlyTotalCents(seats), taxCents: 0, taxState: null },
  };
}
function taxedQuote(seats: number): Location {
  const subtotalCents = monthlyTotalCents(seats);
  return {
    kind: 'quoted',
    quote: {
      clientSecret: `pi_model_taxed_${seats}_secret_t`,
      subscriptionId: `sub_model_taxed_${seats}`,
      subscriptionItemId: `si_model_taxed_${seats}`,
      subtotalCents,
      taxCents: taxCents(subtotalCents, MODEL_TAX_RATE),
      taxState: 'HI',
    },
  };
}
/** Hawaii's default rate (decision 0070). */
const MODEL_TAX_RATE = 47_120;
const REFUSED_ZIP: Location = { kind: 'refused', refusal: { field: 'postalCode', message: 'Your ZIP code is invalid.' } };
const INCOMPLETE: PaymentConfirmation = { status: 'incomplete' };

/** A stand-in gateway for the model walk; the real views register the sandbox card form's gateway. */
const MODEL_GATEWAY: PaymentGateway = {
  provider: 'sandbox',
  collectLocation: () => Promise.reject(new Error('The model does not collect locations')),
  confirmPayment: () => Promise.reject(new Error('The model does not confirm payments')),
  focusCard: () => undefined,
};

/** The buyer fills the fields in order; the email can be typed valid or invalid. */
const FIELD_VALUES = {
  firstName: ['Ada'],
  lastName: ['Palmer'],
  email: ['ada@example.com', 'not-an-email'],
} as const;

const { timedMachine, metaOf, nextTimer } = createTimedMachine(checkoutMachine, MODEL_START_TIME);
export { metaOf };

type Snapshot = ReturnType<typeof checkoutMachine.getInitialSnapshot>;

const doneEvent = (id: string, output: unknown): AnyEventObject => ({ type: `xstate.done.actor.${id}`, output, actorId: id });
const errorEvent = (id: string, message: string, status = 0): AnyEventObject => ({
  type: `xstate.error.actor.${id}`,
  error: new ApiError(message, status),
  actorId: id,
});

/** How much of the world the model lets happen; the simple-path model is the happy world with one decline. */
interface CheckoutModelScope {
  maxSeats: number;
  /** Server and network failures, and typing an invalid email. */
  failures: boolean;
  /** The quote and Get Started clicks. */
  clicks: boolean;
  /** Only what happens while a pending payment is resumed (the resume model stops once a checkout opens). */
  resumeOnly?: boolean;
}

const FULL_SCOPE: CheckoutModelScope = { maxSeats: MODEL_MAX_SEATS, failures: true, clicks: true };
export const SIMPLE_PATH_SCOPE: CheckoutModelScope = { maxSeats: 2, failures: false, clicks: false };
export const RESUME_SCOPE: CheckoutModelScope = { ...FULL_SCOPE, resumeOnly: true };

/** The buyer types the next empty field (in form order); with `invalid`, the email may be typed wrong. */
function typing(form: Snapshot['context']['form'], invalid: boolean): AnyEventObject[] {
  const field = (['firstName', 'lastName', 'email'] as const).find((name) => form[name] === '');
  if (!field) return [];
  return FIELD_VALUES[field]
    .filter((value) => invalid || validateCheckoutForm({ ...form, [field]: value })[field] === undefined)
    .map((value) => ({ type: 'FIELD_CHANGED', field, value }));
}

/** Results each invoked actor can produce. */
function actorResults(snapshot: Snapshot, scope: CheckoutModelScope): AnyEventObject[] {
  const events: AnyEventObject[] = [];
  const { context } = snapshot;
  for (const [id, child] of Object.entries(snapshot.children)) {
    const src = (child as { src?: unknown }).src ?? id;
    const source = String(typeof src === 'string' ? src : id);
    if (id.endsWith('checkout.init.creatingIntent') || source === 'createSubscriptionIntent') {
      events.push(doneEvent(id, MODEL_SESSION));
      if (scope.failures) events.push(errorEvent(id, 'Failed to create subscription intent'));
    } else if (id.endsWith('checkout.updating')) {
      events.push(doneEvent(id, updatedSession(context.updateCounter)));
      if (scope.failures) events.push(errorEvent(id, 'Failed to update subscription'));
    } else if (id.endsWith('checkout.locating')) {
      // Untaxed (the payment goes on) or taxed (the buyer confirms first); a refused ZIP and an incomplete card.
      events.push(doneEvent(id, untaxedQuote(context.session, context.confirmedSeats)), doneEvent(id, taxedQuote(context.confirmedSeats)));
      if (scope.failures) {
        events.push(
          doneEvent(id, REFUSED_ZIP),
          doneEvent(id, { kind: 'incomplete' }),
          doneEvent(id, { kind: 'failed', message: 'Your card was declined.' }),
          errorEvent(id, 'Failed to check your location.'),
        );
      }
    } else if (id.endsWith('checkout.submitting')) {
      events.push(doneEvent(id, CONFIRMED), doneEvent(id, DECLINED));
      // The card form refuses the card itself (its fields say why); nothing reaches the provider.
      if (scope.failures) events.push(doneEvent(id, INCOMPLETE));
      if (scope.failures) events.push(errorEvent(id, 'Network down'));
    } else if (id.endsWith('checkout.finalizing')) {
      events.push(doneEvent(id, FINALIZED));
      if (scope.failures) {
        events.push(doneEvent(id, { success: false }), errorEvent(id, 'Payment has not been completed for this order.', 402));
      }
    } else if (id.endsWith('checkout.resuming')) {
      // Paid and finalized; not paid (402: a fresh checkout); or unknown (network, 5xx: a retry is offered).
      events.push(doneEvent(id, FINALIZED), errorEvent(id, 'Payment has not been completed for this order.', 402));
      if (scope.failures) events.push(doneEvent(id, { success: false }), errorEvent(id, 'Failed to finalize subscription', 0));
    }
  }
  return events;
}

/** Events of the model in `snapshot`, within `scope`. */
export function checkoutEvents(snapshot: Snapshot, scope: CheckoutModelScope = FULL_SCOPE): AnyEventObject[] {
  const { context } = snapshot;
  if (scope.resumeOnly && !snapshot.matches('resuming') && !snapshot.matches('resumeFailed')) return [];
  const initFailed = snapshot.matches({ init: 'failed' });
  const editable =
    (snapshot.matches('init') && !initFailed) ||
    snapshot.matches('idle') ||
    snapshot.matches('pendingSeats') ||
    snapshot.matches('confirmingTax');
  // The card form mounts by itself once a session exists: nothing else happens before it is ready.
  if (editable && context.session && !context.paymentGateway) {
    const ready = { type: 'PAYMENT_FORM_READY', clientSecret: context.session.clientSecret, gateway: MODEL_GATEWAY };
    // While the first card form loads the buyer may already type (the submit button is still off).
    const firstForm = context.updateCounter === 0 && snapshot.matches('idle');
    return firstForm ? [ready, ...typing(context.form, false)] : [ready];
  }
  const events: AnyEventObject[] = [...actorResults(snapshot, scope)];
  const timer = nextTimer(snapshot);
  if (timer) events.push(timer.event);
  // Seats change on an untouched form or a complete, valid one (typing is modelled on a quiet page, below).
  const formSettled =
    Object.keys(context.fieldErrors).length === 0 &&
    (Object.values(context.form).every((value) => value === '') || !hasFieldErrors(validateCheckoutForm(context.form)));
  if (editable && formSettled) {
    // At the page's limit '+' says why instead (once: a second click says the same).
    const atLimit = context.pendingSeats === context.maxSeats;
    if (context.pendingSeats < scope.maxSeats || (atLimit && scope.failures && context.seatNotice === null)) {
      events.push({ type: 'SEAT_ADDED' });
    }
    if (context.pendingSeats > 1) events.push({ type: 'SEAT_REMOVED' });
    // The count typed from one seat, with or without a refusal showing; an empty box is refused at the field.
    if (context.pendingSeats === 1) events.push({ type: 'SEATS_TYPED', text: String(scope.maxSeats) });
    if (scope.failures && context.seatNotice === null) events.push({ type: 'SEATS_TYPED', text: '' });
  }
  if (snapshot.matches('idle')) {
    events.push({ type: 'SUBMITTED' });
    // The buyer types a card into the ready form: on a quiet page before anything else (so a seat change can take
    // it with the form), or again after a seat change took it. Not in the happy world the simple paths walk.
    const cardLost = context.cardReentryNeeded;
    const untouched =
      context.updateCounter === 0 && context.pendingSeats === 1 && Object.values(context.form).every((value) => value === '');
    if (scope.failures && context.paymentGateway && !context.cardTyped && (cardLost || untouched)) {
      events.push({ type: 'CARD_DETAILS_CHANGED', empty: false });
    }
    // Page clicks and typing do not interact with the seat timers: the model offers them on a quiet page with one
    // seat, which keeps the graph small without losing a transition.
    const quiet = context.confirmedSeats === 1 && context.pendingSeats === 1 && nextTimer(snapshot) === undefined;
    if (quiet) {
      const formEmpty = Object.values(context.form).every((value) => value === '');
      if (formEmpty && scope.clicks) events.push({ type: 'QUOTE_CLICKED' }, { type: 'GET_STARTED_CLICKED' });
      events.push(...typing(context.form, scope.failures));
    }
  }
  // The total with tax: the buyer pays it, or goes back to change the card.
  if (snapshot.matches('confirmingTax')) events.push({ type: 'TAX_CONFIRMED' }, { type: 'TAX_DECLINED' });
  // After a failed initialisation the seats are locked and 'Try again' runs call 1 once more.
  if (initFailed) events.push({ type: 'INIT_RETRY_CLICKED' });
  if (snapshot.matches('finalizeFailed') || snapshot.matches('resumeFailed')) {
    // The only way on is the retry: the form and the seats are locked, the card is never confirmed again.
    events.push({ type: 'ORDER_RETRY_CLICKED' });
  }
  return events;
}

/** Two snapshots are the same model state when what the buyer sees and what can happen next are the same. */
export function serializeCheckout(snapshot: Snapshot): string {
  const { context } = snapshot;
  const meta = metaOf(snapshot);
  return JSON.stringify({
    value: snapshot.value,
    pendingSeats: context.pendingSeats,
    confirmedSeats: context.confirmedSeats,
    seatDraft: context.seatDraft,
    seatNotice: context.seatNotice,
    session: context.session !== null,
    gateway: context.paymentGateway !== null,
    form: context.form,
    errors: Object.keys(context.fieldErrors).sort(),
    celebrating: context.celebrating,
    pendingPayment: context.pendingPayment !== null,
    paymentAccepted: context.paymentAccepted,
    cardTyped: context.cardTyped,
    cardReentryNeeded: context.cardReentryNeeded,
    taxQuote: context.taxQuote,
    locationError: context.locationError !== null,
    timers: meta.timers.map((timer) => timer.event.type),
  });
}

/**
 * The checkout test model: @xstate/graph's TestModel over the timed machine. (`createTestModel` refuses machines
 * with `after` transitions; the timed machine is what makes them testable, docs/decisions/0001.)
 */
export function createCheckoutTestModel(
  scope: CheckoutModelScope = FULL_SCOPE,
  serialize = serializeCheckout,
  input: object = MODEL_INPUT,
) {
  return new TestModel(timedMachine as never, {
    events: ((snapshot: Snapshot) => checkoutEvents(snapshot, scope)) as never,
    serializeState: serialize as never,
    stateMatcher: (snapshot, key) => (snapshot as Snapshot).matches(key as never),
    input,
  });
}

export function createCheckoutCoverage(): ModelCoverage {
  return new ModelCoverage(checkoutMachine, metaOf);
}
