/**
 * The checkout statechart on its own, with a fake clock and controllable actors (spec §4, §9 timings).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { FinalizeResponse, SubscriptionSession, UpdateIntentResponse } from '../../src/contract/checkout';
import { ApiError } from '../../src/api/client';
import { readPaymentRecord, savePaymentRecord } from '../../src/api/paymentRecord';
import { PENDING_PAYMENT_KEY, RECENT_PURCHASE_KEY, type PendingPayment } from '../../src/api/pendingPayment';
import { checkoutMachine, type CheckoutEmitted, type CheckoutInput } from '../../src/machines/checkoutMachine';
import type { FinalizeActorInput } from '../../src/machines/checkoutOrder';
import type { LocateActorInput, Location } from '../../src/machines/checkoutTax';
import type { PaymentConfirmation, PaymentGateway } from '../../src/payments/gateway';
import { memoryStorage, session } from './support/checkoutFixtures';

/** A card form whose card is typed with a New York ZIP. */
const collectedUntaxed = vi.fn(async () => ({ status: 'collected' as const, location: { country: 'US', postalCode: '10001' } }));

const gateway: PaymentGateway = { provider: 'sandbox', collectLocation: collectedUntaxed, confirmPayment: vi.fn(), focusCard: vi.fn() };

interface Deferred<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (error: Error) => void;
}
function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

function start(
  overrides: {
    create?: () => Promise<SubscriptionSession>;
    update?: (input: { quantity: number }) => Promise<UpdateIntentResponse>;
    confirm?: () => Promise<PaymentConfirmation>;
    /** The location step's answer; by default the session as it is, untaxed. */
    locate?: (input: LocateActorInput) => Promise<Location>;
    finalize?: (input: FinalizeActorInput) => Promise<FinalizeResponse>;
    input?: Partial<CheckoutInput>;
    /** Keep the machine's own confirmPayment actor: the card is confirmed through PAYMENT_FORM_READY's gateway. */
    ownConfirm?: boolean;
  } = {},
) {
  const calls = {
    create: 0,
    update: [] as number[],
    locate: [] as LocateActorInput[],
    confirm: 0,
    finalize: 0,
    finalizeInputs: [] as FinalizeActorInput[],
  };
  let revision = 1;
  const machine = checkoutMachine.provide({
    actors: {
      createSubscriptionIntent: fromPromise(async () => {
        calls.create++;
        return overrides.create ? overrides.create() : session;
      }),
      updateSubscriptionIntent: fromPromise(async ({ input }: { input: { session: SubscriptionSession; quantity: number } }) => {
        calls.update.push(input.quantity);
        if (overrides.update) return overrides.update(input);
        revision++;
        return {
          clientSecret: `pi_${revision}_secret`,
          subscriptionId: `sub_${revision}`,
          subscriptionItemId: `si_${revision}`,
          taxCents: 0,
        };
      }),
      locateBuyer: fromPromise(async ({ input }: { input: LocateActorInput }): Promise<Location> => {
        calls.locate.push(input);
        if (overrides.locate) return overrides.locate(input);
        const { clientSecret, subscriptionId, subscriptionItemId } = input.session;
        return {
          kind: 'quoted',
          quote: { clientSecret, subscriptionId, subscriptionItemId, subtotalCents: 50_000, taxCents: 0, taxState: null },
        };
      }),
      ...(overrides.ownConfirm
        ? {}
        : {
            confirmPayment: fromPromise(async () => {
              calls.confirm++;
              return overrides.confirm ? overrides.confirm() : { status: 'succeeded' as const, paymentIntentId: 'pi_1' };
            }),
          }),
      finalizeSubscription: fromPromise(async ({ input }: { input: FinalizeActorInput }) => {
        calls.finalize++;
        calls.finalizeInputs.push(input);
        return overrides.finalize
          ? overrides.finalize(input)
          : {
              success: true,
              token: 'tok',
              loginDetails: { email: 'a@b.co', password: 'p'.repeat(20), productPurchased: 'X' },
              signInLinkEmailed: false,
            };
      }),
    },
    actions: { storePaymentRecord: () => {} },
  });
  const actor = createActor(machine, {
    input: {
      affiliateId: 'dr-sample',
      affiliateSource: 'http://localhost/',
      returnUrl: 'http://localhost/payment-success',
      ...overrides.input,
    },
  });
  const emitted: CheckoutEmitted[] = [];
  actor.on('*', (event) => emitted.push(event));
  actor.start();
  return { actor, calls, emitted, toasts: () => emitted.flatMap((e) => (e.type === 'toast' ? [e.toast.title] : [])) };
}

/** Advances the fake clock and lets promise callbacks run. */
async function advance(ms: number) {
  await vi.advanceTimersByTimeAsync(ms);
}

async function ready(overrides: Parameters<typeof start>[0] = {}) {
  const harness = start(overrides);
  await advance(500);
  expect(harness.actor.getSnapshot().matches('idle')).toBe(true);
  return harness;
}

/** A ready checkout whose first update stays in flight until the test resolves `pending`; later ones answer at once. */
async function readyWithFirstUpdateHeld() {
  const pending = deferred<UpdateIntentResponse>();
  let first = true;
  const harness = await ready({
    update: () => {
      if (first) {
        first = false;
        return pending.promise;
      }
      return Promise.resolve({ clientSecret: 'pi_3_secret', subscriptionId: 'sub_3', subscriptionItemId: 'si_3', taxCents: 0 });
    },
  });
  return { ...harness, pending };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('initialisation (spec §4)', () => {
  it('creates the intent once, 500 ms after start', async () => {
    const { actor, calls } = start();
    expect(actor.getSnapshot().matches({ init: 'waiting' })).toBe(true);
    await advance(499);
    expect(calls.create).toBe(0);
    await advance(1);
    expect(calls.create).toBe(1);
    expect(actor.getSnapshot().context.session).toEqual(session);
    await advance(10_000);
    expect(calls.create).toBe(1);
  });

  it('counts the 500 ms from when the page opened: the page passes what is left of it', async () => {
    const { calls } = start({ input: { initDelayMs: 120 } });
    await advance(119);
    expect(calls.create).toBe(0);
    await advance(1);
    expect(calls.create).toBe(1);
  });

  it('raises Initialization Error when the intent cannot be created', async () => {
    const { actor, toasts } = start({ create: () => Promise.reject(new Error('down')) });
    await advance(500);
    expect(actor.getSnapshot().matches({ init: 'failed' })).toBe(true);
    expect(toasts()).toEqual(['Initialization Error']);
  });

  it("after a failed initialisation locks the seats and 'Try again' runs call 1 once more, at once", async () => {
    let attempts = 0;
    const { actor, calls } = start({
      create: () => (++attempts === 1 ? Promise.reject(new Error('down')) : Promise.resolve(session)),
    });
    await advance(500);
    const failed = actor.getSnapshot();
    expect(failed.hasTag('seatsLocked')).toBe(true);
    expect(failed.can({ type: 'SEAT_ADDED' })).toBe(false);
    actor.send({ type: 'SEAT_ADDED' });
    expect(actor.getSnapshot().context.pendingSeats).toBe(1);

    actor.send({ type: 'INIT_RETRY_CLICKED' });
    await advance(0);
    expect(calls.create).toBe(2);
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(actor.getSnapshot().context.session).toEqual(session);
  });

  it('commits seats chosen while initialising', async () => {
    const { actor, calls } = start();
    actor.send({ type: 'SEAT_ADDED' });
    actor.send({ type: 'SEAT_ADDED' });
    await advance(500);
    expect(actor.getSnapshot().matches('pendingSeats')).toBe(true);
    await advance(2000);
    expect(calls.update).toEqual([3]);
  });
});

describe('seat changes (spec §4)', () => {
  it('commits only after the 2000 ms debounce', async () => {
    const { actor, calls } = await ready();
    actor.send({ type: 'SEAT_ADDED' });
    expect(actor.getSnapshot().context.pendingSeats).toBe(2);
    await advance(1999);
    expect(calls.update).toEqual([]);
    await advance(2);
    expect(calls.update).toEqual([2]);
  });

  it('restarts the debounce on every edit and commits the latest count', async () => {
    const { actor, calls } = await ready();
    actor.send({ type: 'SEAT_ADDED' });
    await advance(1500);
    actor.send({ type: 'SEAT_ADDED' });
    await advance(1999);
    expect(calls.update).toEqual([]);
    await advance(1);
    expect(calls.update).toEqual([3]);
  });

  it('does not call the server when the count returns to the confirmed one', async () => {
    const { actor, calls } = await ready();
    actor.send({ type: 'SEAT_ADDED' });
    actor.send({ type: 'SEAT_REMOVED' });
    await advance(5000);
    expect(calls.update).toEqual([]);
    expect(actor.getSnapshot().matches('idle')).toBe(true);
  });

  it('never goes below one seat', async () => {
    const { actor } = await ready();
    actor.send({ type: 'SEAT_REMOVED' });
    expect(actor.getSnapshot().context.pendingSeats).toBe(1);
    expect(actor.getSnapshot().matches('idle')).toBe(true);
  });

  it('on success confirms the count, replaces the session, bumps the counter and toasts', async () => {
    const { actor, emitted } = await ready();
    actor.send({ type: 'SEAT_ADDED' });
    actor.send({ type: 'SEAT_ADDED' });
    await advance(2000);
    const { context } = actor.getSnapshot();
    expect(context.confirmedSeats).toBe(3);
    expect(context.session).toMatchObject({
      clientSecret: 'pi_2_secret',
      subscriptionId: 'sub_2',
      subscriptionItemId: 'si_2',
      customerId: 'cus_1',
      transactionId: 'txn_1',
    });
    expect(context.updateCounter).toBe(1);
    // An untaxed checkout stays untaxed.
    expect(context.taxQuote).toBeNull();
    expect(emitted).toContainEqual({
      type: 'toast',
      toast: { title: 'Subscription Updated', description: 'Team size updated to 3 members.', variant: 'default' },
    });
  });

  it('ignores seat edits while updating: the buttons are locked (spec §4)', async () => {
    const { actor, calls, pending } = await readyWithFirstUpdateHeld();
    actor.send({ type: 'SEAT_ADDED' });
    await advance(2000);
    expect(actor.getSnapshot().matches('updating')).toBe(true);
    expect(actor.getSnapshot().hasTag('seatsLocked')).toBe(true);
    expect(actor.getSnapshot().can({ type: 'SEAT_ADDED' })).toBe(false);
    actor.send({ type: 'SEAT_ADDED' });
    actor.send({ type: 'SEAT_REMOVED' });
    expect(actor.getSnapshot().context.pendingSeats).toBe(2);
    pending.resolve({ clientSecret: 'pi_2_secret', subscriptionId: 'sub_2', subscriptionItemId: 'si_2', taxCents: 0 });
    await advance(0);
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(actor.getSnapshot().context.confirmedSeats).toBe(2);
    await advance(10_000);
    expect(calls.update).toEqual([2]);
  });

  it('commits the next change more than 1 s after a success: 2000 ms after an edit made after it', async () => {
    const { actor, calls, pending } = await readyWithFirstUpdateHeld();
    actor.send({ type: 'SEAT_ADDED' });
    await advance(2000);
    pending.resolve({ clientSecret: 'pi_2_secret', subscriptionId: 'sub_2', subscriptionItemId: 'si_2', taxCents: 0 });
    await advance(0); // success
    actor.send({ type: 'SEAT_ADDED' }); // the earliest possible edit: right after the success
    await advance(1999);
    expect(calls.update).toEqual([2]);
    await advance(1);
    expect(calls.update).toEqual([2, 3]);
  });

  it('reverts to the confirmed count and raises Update Failed and Update Error on failure', async () => {
    const { actor, toasts } = await ready({ update: () => Promise.reject(new Error('Failed to update subscription')) });
    actor.send({ type: 'SEAT_ADDED' });
    actor.send({ type: 'SEAT_ADDED' });
    await advance(2000);
    const { context } = actor.getSnapshot();
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(context.pendingSeats).toBe(1);
    expect(context.confirmedSeats).toBe(1);
    expect(context.session).toEqual(session);
    expect(toasts()).toEqual(['Update Failed', 'Update Error']);
  });
});

describe('confetti (spec §2, §9)', () => {
  it('celebrates for 4 s on reaching exactly two seats', async () => {
    const { actor } = await ready();
    actor.send({ type: 'SEAT_ADDED' });
    expect(actor.getSnapshot().context.celebrating).toBe(true);
    await advance(3999);
    expect(actor.getSnapshot().context.celebrating).toBe(true);
    await advance(1);
    expect(actor.getSnapshot().context.celebrating).toBe(false);
  });

  it('reaching two seats again restarts the 4 s', async () => {
    const { actor } = await ready();
    actor.send({ type: 'SEAT_ADDED' });
    await advance(1000);
    actor.send({ type: 'SEAT_ADDED' });
    await advance(1000);
    actor.send({ type: 'SEAT_REMOVED' });
    await advance(3999);
    expect(actor.getSnapshot().context.celebrating).toBe(true);
    await advance(1);
    expect(actor.getSnapshot().context.celebrating).toBe(false);
  });

  it('does not celebrate at three seats', async () => {
    const { actor } = await ready();
    actor.send({ type: 'SEAT_ADDED' });
    await advance(4000);
    actor.send({ type: 'SEAT_ADDED' });
    expect(actor.getSnapshot().context.celebrating).toBe(false);
  });
});

describe('Get Started (spec §2)', () => {
  it('scrolls at once and asks for first-name focus after 800 ms', async () => {
    const { actor, emitted } = await ready();
    actor.send({ type: 'GET_STARTED_CLICKED' });
    expect(emitted).toContainEqual({ type: 'scrollRequested', target: 'checkoutForm' });
    await advance(799);
    expect(emitted).not.toContainEqual({ type: 'focusRequested', field: 'firstName' });
    await advance(1);
    expect(emitted).toContainEqual({ type: 'focusRequested', field: 'firstName' });
  });

  it('a second click restarts the 800 ms: the focus is asked for once, 800 ms after the last click', async () => {
    const { actor, emitted } = await ready();
    const focusRequests = () => emitted.filter((event) => event.type === 'focusRequested');
    actor.send({ type: 'GET_STARTED_CLICKED' });
    await advance(500);
    actor.send({ type: 'GET_STARTED_CLICKED' });
    await advance(799);
    expect(focusRequests()).toEqual([]);
    await advance(1);
    expect(focusRequests()).toEqual([{ type: 'focusRequested', field: 'firstName' }]);
    await advance(2000);
    expect(focusRequests()).toHaveLength(1);
  });
});

/** Types Ada Palmer's name and email. */
function fill(actor: ReturnType<typeof start>['actor']) {
  actor.send({ type: 'FIELD_CHANGED', field: 'firstName', value: 'Ada' });
  actor.send({ type: 'FIELD_CHANGED', field: 'lastName', value: 'Palmer' });
  actor.send({ type: 'FIELD_CHANGED', field: 'email', value: 'ada@example.com' });
}

describe('payment submit (spec §4, §5)', () => {
  it('shows the field errors and does not submit an invalid form', async () => {
    const { actor, calls } = await ready();
    actor.send({ type: 'PAYMENT_FORM_READY', clientSecret: session.clientSecret, gateway });
    actor.send({ type: 'FIELD_CHANGED', field: 'email', value: 'nope' });
    actor.send({ type: 'SUBMITTED' });
    expect(actor.getSnapshot().context.fieldErrors).toEqual({
      firstName: 'First name is required',
      lastName: 'Last name is required',
      email: 'Email is invalid',
    });
    expect(calls.confirm).toBe(0);
    actor.send({ type: 'FIELD_CHANGED', field: 'firstName', value: 'A' });
    expect(actor.getSnapshot().context.fieldErrors.firstName).toBeUndefined();
  });

  it('never submits without a ready payment form for the current client secret', async () => {
    const { actor, calls } = await ready();
    fill(actor);
    actor.send({ type: 'SUBMITTED' });
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    actor.send({ type: 'PAYMENT_FORM_READY', clientSecret: 'pi_stale_secret', gateway });
    actor.send({ type: 'SUBMITTED' });
    expect(calls.confirm).toBe(0);
  });

  it('a seat change after the card was typed asks for it again, focuses the new form and confirms only with it', async () => {
    const { actor, emitted } = await ready({ ownConfirm: true });
    const oldConfirm = vi.fn();
    const newConfirm = vi.fn(async () => ({ status: 'succeeded' as const, paymentIntentId: 'pi_2' }));
    const oldForm: PaymentGateway = {
      provider: 'sandbox',
      collectLocation: collectedUntaxed,
      confirmPayment: oldConfirm,
      focusCard: vi.fn(),
    };
    const newForm: PaymentGateway = {
      provider: 'sandbox',
      collectLocation: collectedUntaxed,
      confirmPayment: newConfirm,
      focusCard: vi.fn(),
    };
    fill(actor);
    actor.send({ type: 'PAYMENT_FORM_READY', clientSecret: session.clientSecret, gateway: oldForm });
    actor.send({ type: 'CARD_DETAILS_CHANGED', empty: false });
    actor.send({ type: 'SEAT_ADDED' });
    await advance(2000);
    expect(actor.getSnapshot().context).toMatchObject({ cardReentryNeeded: true, cardTyped: false, paymentGateway: null });
    // The old form, still on the page for a moment, cannot be confirmed: its client secret is no longer the session's.
    actor.send({ type: 'PAYMENT_FORM_READY', clientSecret: session.clientSecret, gateway: oldForm });
    actor.send({ type: 'SUBMITTED' });
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(emitted.filter((e) => e.type === 'cardFocusRequested')).toEqual([]);
    actor.send({ type: 'PAYMENT_FORM_READY', clientSecret: 'pi_2_secret', gateway: newForm });
    expect(emitted.filter((e) => e.type === 'cardFocusRequested')).toEqual([{ type: 'cardFocusRequested', gateway: newForm }]);
    // The new form reporting its empty fields leaves the request standing; a card typed into it ends it.
    actor.send({ type: 'CARD_DETAILS_CHANGED', empty: true });
    expect(actor.getSnapshot().context.cardReentryNeeded).toBe(true);
    actor.send({ type: 'CARD_DETAILS_CHANGED', empty: false });
    expect(actor.getSnapshot().context).toMatchObject({ cardReentryNeeded: false, cardTyped: true });
    actor.send({ type: 'SUBMITTED' });
    await advance(0);
    expect(oldConfirm).not.toHaveBeenCalled();
    expect(newConfirm).toHaveBeenCalledTimes(1);
  });

  it('a seat change before any card was typed re-creates the form without a word', async () => {
    const { actor, emitted } = await ready();
    actor.send({ type: 'PAYMENT_FORM_READY', clientSecret: session.clientSecret, gateway });
    actor.send({ type: 'CARD_DETAILS_CHANGED', empty: false });
    actor.send({ type: 'CARD_DETAILS_CHANGED', empty: true });
    actor.send({ type: 'SEAT_ADDED' });
    await advance(2000);
    actor.send({ type: 'PAYMENT_FORM_READY', clientSecret: 'pi_2_secret', gateway });
    expect(actor.getSnapshot().context.cardReentryNeeded).toBe(false);
    expect(emitted.filter((e) => e.type === 'cardFocusRequested')).toEqual([]);
  });

  it('confirms, finalizes and completes', async () => {
    const { actor, calls, emitted } = await ready();
    fill(actor);
    actor.send({ type: 'PAYMENT_FORM_READY', clientSecret: session.clientSecret, gateway });
    actor.send({ type: 'SUBMITTED' });
    // The location step first (decision 0071): untaxed, the payment goes on without a second step.
    expect(actor.getSnapshot().matches('locating')).toBe(true);
    await advance(0);
    expect(calls).toMatchObject({ confirm: 1, finalize: 1 });
    expect(calls.locate).toHaveLength(1);
    expect(actor.getSnapshot().matches('success')).toBe(true);
    const completed = emitted.find((e) => e.type === 'paymentCompleted');
    expect(completed).toMatchObject({
      record: {
        success: true,
        token: 'tok',
        seatCount: 1,
        totalAmount: 500,
        email: 'ada@example.com',
        name: 'Ada Palmer',
        transactionId: 'txn_1',
      },
    });
  });

  it('goes on to finalize, not back to paying, when the card payment is still processing', async () => {
    const { actor, calls } = await ready({
      confirm: () => Promise.resolve({ status: 'processing', paymentIntentId: 'pi_1' }),
      finalize: () => Promise.reject(new Error('Payment has not been completed for this order.')),
    });
    fill(actor);
    actor.send({ type: 'PAYMENT_FORM_READY', clientSecret: session.clientSecret, gateway });
    actor.send({ type: 'SUBMITTED' });
    await advance(0);
    expect(calls).toMatchObject({ confirm: 1, finalize: 1 });
    expect(actor.getSnapshot().matches('finalizeFailed')).toBe(true);
    actor.send({ type: 'ORDER_RETRY_CLICKED' });
    await advance(0);
    expect(calls).toMatchObject({ confirm: 1, finalize: 2 });
  });

  it('shows the decline message and lets the buyer try again', async () => {
    const { actor, toasts, calls } = await ready({
      confirm: () => Promise.resolve({ status: 'failed', message: 'Your card was declined.' }),
    });
    fill(actor);
    actor.send({ type: 'PAYMENT_FORM_READY', clientSecret: session.clientSecret, gateway });
    actor.send({ type: 'SUBMITTED' });
    await advance(0);
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(calls.finalize).toBe(0);
    expect(toasts()).toEqual(['Payment Failed']);
  });

  it('shows a refusal by the pay button until the next attempt', async () => {
    let outcome: PaymentConfirmation = { status: 'failed', message: 'Your card was declined.' };
    const { actor } = await ready({ confirm: async () => outcome });
    fill(actor);
    actor.send({ type: 'PAYMENT_FORM_READY', clientSecret: session.clientSecret, gateway });
    actor.send({ type: 'SUBMITTED' });
    await advance(0);
    expect(actor.getSnapshot().context.paymentError).toBe('Your card was declined.');
    outcome = { status: 'succeeded', paymentIntentId: 'pi_1' };
    actor.send({ type: 'SUBMITTED' });
    expect(actor.getSnapshot().matches('locating')).toBe(true);
    expect(actor.getSnapshot().context.paymentError).toBeNull();
  });

  /** The 'Payment Failed' descriptions shown for `outcome` of the card confirmation. */
  async function paymentFailedDescriptions(outcome: () => Promise<PaymentConfirmation>) {
    const { actor, emitted } = await ready({ confirm: outcome });
    fill(actor);
    actor.send({ type: 'PAYMENT_FORM_READY', clientSecret: session.clientSecret, gateway });
    actor.send({ type: 'SUBMITTED' });
    await advance(0);
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    return emitted.flatMap((event) => (event.type === 'toast' && event.toast.title === 'Payment Failed' ? [event.toast.description] : []));
  }

  it("shows the refusal's own message, or the spec §8 default when there is none", async () => {
    expect(await paymentFailedDescriptions(async () => ({ status: 'failed', message: 'Your card has insufficient funds.' }))).toEqual([
      'Your card has insufficient funds.',
    ]);
    // An outcome this page does not know (a newer gateway's) is a refusal with the default message.
    expect(await paymentFailedDescriptions(async () => ({ status: 'requires_capture' }) as unknown as PaymentConfirmation)).toEqual([
      'An error occurred during payment. Please try again.',
    ]);
  });

  it("shows a failed confirmation's message, or the spec §8 default when it has none", async () => {
    expect(await paymentFailedDescriptions(() => Promise.reject(new Error('Stripe.js could not load.')))).toEqual([
      'Stripe.js could not load.',
    ]);
    expect(await paymentFailedDescriptions(() => Promise.reject(new Error('')))).toEqual([
      'An error occurred during payment. Please try again.',
    ]);
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the case itself: a rejection that is not an Error
    expect(await paymentFailedDescriptions(() => Promise.reject('Failed to fetch'))).toEqual([
      'An error occurred during payment. Please try again.',
    ]);
  });

  it('ignores a payment form that is ready before the checkout exists', async () => {
    const { actor } = start();
    actor.send({ type: 'PAYMENT_FORM_READY', clientSecret: session.clientSecret, gateway });
    expect(actor.getSnapshot().status).toBe('active');
    expect(actor.getSnapshot().context.paymentGateway).toBeNull();
  });

  it("confirms the card through the payment form's gateway with the trimmed buyer and the return address, then finalizes the same buyer", async () => {
    const confirmPayment = vi.fn(async () => ({ status: 'succeeded' as const, paymentIntentId: 'pi_1' }));
    const { actor, calls } = await ready({ ownConfirm: true });
    actor.send({ type: 'FIELD_CHANGED', field: 'firstName', value: ' Ada ' });
    actor.send({ type: 'FIELD_CHANGED', field: 'lastName', value: 'Palmer ' });
    actor.send({ type: 'FIELD_CHANGED', field: 'email', value: '  ada@example.com ' });
    actor.send({
      type: 'PAYMENT_FORM_READY',
      clientSecret: session.clientSecret,
      gateway: { provider: 'sandbox', collectLocation: collectedUntaxed, confirmPayment, focusCard: vi.fn() },
    });
    actor.send({ type: 'SUBMITTED' });
    await advance(0);
    expect(confirmPayment).toHaveBeenCalledExactlyOnceWith({
      clientSecret: session.clientSecret,
      billingDetails: { name: 'Ada Palmer', email: 'ada@example.com' },
      returnUrl: 'http://localhost/payment-success',
    });
    expect(calls.finalizeInputs.map((input) => input.billingDetails)).toEqual([{ name: 'Ada Palmer', email: 'ada@example.com' }]);
    expect(actor.getSnapshot().matches('success')).toBe(true);
  });

  it("after a charge, a failed finalize is 'payment received', never 'Payment Failed'; seats and buyer locked; the retry finalizes only", async () => {
    let succeed = false;
    const { actor, emitted, calls } = await ready({
      finalize: async () =>
        succeed
          ? {
              success: true,
              token: 't',
              loginDetails: { email: 'a@b.co', password: 'x'.repeat(20), productPurchased: 'X' },
              signInLinkEmailed: false,
            }
          : ({ success: false } as FinalizeResponse),
    });
    fill(actor);
    actor.send({ type: 'PAYMENT_FORM_READY', clientSecret: session.clientSecret, gateway });
    actor.send({ type: 'SUBMITTED' });
    await advance(0);
    expect(emitted.filter((event) => event.type === 'toast')).toEqual([]);
    expect(actor.getSnapshot().matches('finalizeFailed')).toBe(true);
    expect(actor.getSnapshot().hasTag('paymentAtRisk')).toBe(true);
    actor.send({ type: 'SEAT_ADDED' });
    actor.send({ type: 'FIELD_CHANGED', field: 'email', value: 'someone.else@example.com' });
    actor.send({ type: 'SUBMITTED' });
    expect(actor.getSnapshot().context.pendingSeats).toBe(1);
    expect(actor.getSnapshot().context.form.email).toBe('ada@example.com');
    expect(actor.getSnapshot().matches('finalizeFailed')).toBe(true);
    succeed = true;
    actor.send({ type: 'ORDER_RETRY_CLICKED' });
    await advance(0);
    expect(calls).toMatchObject({ confirm: 1, finalize: 2 });
    expect(calls.finalizeInputs[1]).toEqual({
      order: {
        transactionId: 'txn_1',
        subscriptionId: 'sub_1',
        customerId: 'cus_1',
        seats: 1,
        totalAmount: 500,
        name: 'Ada Palmer',
        email: 'ada@example.com',
        savedAt: expect.any(Number),
      },
      billingDetails: { name: 'Ada Palmer', email: 'ada@example.com' },
    });
    expect(actor.getSnapshot().matches('success')).toBe(true);
  });
});

describe('a charged checkout survives a reload or a closed tab (pending payment)', () => {
  const pending: PendingPayment = {
    transactionId: 'txn_9',
    subscriptionId: 'sub_9',
    customerId: 'cus_9',
    seats: 3,
    totalAmount: 1000,
    name: 'Ada Palmer',
    email: 'ada@example.com',
    savedAt: 0,
  };
  beforeEach(() => {
    // The machine keeps these records in the browser's local storage; here, an in-memory one.
    vi.stubGlobal('localStorage', memoryStorage());
  });
  afterEach(() => vi.unstubAllGlobals());

  it('remembers the payment before confirming it, and forgets it once finalized, remembering the purchase', async () => {
    const seen: Array<string | null> = [];
    const { actor } = await ready({
      confirm: async () => {
        seen.push(globalThis.localStorage.getItem(PENDING_PAYMENT_KEY));
        return { status: 'succeeded', paymentIntentId: 'pi_1' };
      },
    });
    fill(actor);
    actor.send({ type: 'PAYMENT_FORM_READY', clientSecret: session.clientSecret, gateway });
    actor.send({ type: 'SUBMITTED' });
    await advance(0);
    expect(JSON.parse(seen[0] ?? 'null')).toMatchObject({
      transactionId: 'txn_1',
      subscriptionId: 'sub_1',
      customerId: 'cus_1',
      seats: 1,
      email: 'ada@example.com',
    });
    expect(seen[0]).not.toContain('secret');
    expect(actor.getSnapshot().matches('success')).toBe(true);
    expect(globalThis.localStorage.getItem(PENDING_PAYMENT_KEY)).toBeNull();
    expect(JSON.parse(globalThis.localStorage.getItem(RECENT_PURCHASE_KEY) ?? 'null')).toMatchObject({
      transactionId: 'txn_1',
      seats: 1,
      totalAmount: 500,
    });
  });

  it('forgets the pending payment when the card is declined, keeps it when the outcome is unknown', async () => {
    let outcome: () => Promise<PaymentConfirmation> = async () => ({ status: 'failed', message: 'Your card was declined.' });
    const { actor } = await ready({ confirm: () => outcome() });
    fill(actor);
    actor.send({ type: 'PAYMENT_FORM_READY', clientSecret: session.clientSecret, gateway });
    actor.send({ type: 'SUBMITTED' });
    await advance(0);
    expect(globalThis.localStorage.getItem(PENDING_PAYMENT_KEY)).toBeNull();
    outcome = () => Promise.reject(new Error('network down'));
    actor.send({ type: 'SUBMITTED' });
    await advance(0);
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(globalThis.localStorage.getItem(PENDING_PAYMENT_KEY)).not.toBeNull();
  });

  it('resumes a pending payment on open: finalizes it with the stored order and buyer, and opens no new checkout', async () => {
    const { actor, calls, emitted } = start({ input: { pendingPayment: pending } });
    expect(actor.getSnapshot().matches('resuming')).toBe(true);
    await advance(0);
    expect(calls.finalizeInputs).toEqual([{ order: pending, billingDetails: { name: 'Ada Palmer', email: 'ada@example.com' } }]);
    expect(actor.getSnapshot().matches('success')).toBe(true);
    expect(emitted.find((event) => event.type === 'paymentCompleted')).toEqual({
      type: 'paymentCompleted',
      record: {
        success: true,
        token: 'tok',
        loginDetails: { email: 'a@b.co', password: 'p'.repeat(20), productPurchased: 'X' },
        signInLinkEmailed: false,
        seatCount: pending.seats,
        totalAmount: pending.totalAmount,
        email: 'ada@example.com',
        name: 'Ada Palmer',
        transactionId: pending.transactionId,
      },
    });
    await advance(1000);
    expect(calls.create).toBe(0);
  });

  it('resumes to success when finalize answers no credentials (decision 0026); the stored record reads back', async () => {
    const withoutCredentials: FinalizeResponse = { success: true, token: null, loginDetails: null, signInLinkEmailed: true };
    const { actor, emitted } = start({ input: { pendingPayment: pending }, finalize: async () => withoutCredentials });
    await advance(0);
    expect(actor.getSnapshot().matches('success')).toBe(true);
    const completed = emitted.find((event) => event.type === 'paymentCompleted');
    if (completed?.type !== 'paymentCompleted') throw new Error('no paymentCompleted event');
    expect(completed.record).toEqual({
      ...withoutCredentials,
      seatCount: pending.seats,
      totalAmount: pending.totalAmount,
      email: 'ada@example.com',
      name: 'Ada Palmer',
      transactionId: pending.transactionId,
    });
    const items = new Map<string, string>();
    const storage = {
      getItem: (key: string) => items.get(key) ?? null,
      setItem: (key: string, value: string) => void items.set(key, value),
      removeItem: (key: string) => void items.delete(key),
    };
    savePaymentRecord(completed.record, storage);
    expect(readPaymentRecord(storage)).toEqual({ kind: 'found', record: completed.record });
  });

  it('keeps a paid pending payment when finalize refuses its email (403): the buyer retries, nothing is bought again', async () => {
    globalThis.localStorage.setItem(PENDING_PAYMENT_KEY, JSON.stringify(pending));
    const refused = new ApiError('This email is not the one this order was paid with.', 403);
    const { actor, calls } = start({ input: { pendingPayment: pending }, finalize: () => Promise.reject(refused) });
    await advance(0);
    expect(actor.getSnapshot().matches('resumeFailed')).toBe(true);
    expect(globalThis.localStorage.getItem(PENDING_PAYMENT_KEY)).not.toBeNull();
    await advance(500);
    expect(calls.create).toBe(0);
  });

  it.each([402, 404, 409])('drops a pending payment finalize answers %s for, and starts a fresh checkout', async (status) => {
    globalThis.localStorage.setItem(PENDING_PAYMENT_KEY, JSON.stringify(pending));
    const { actor, calls } = start({ input: { pendingPayment: pending }, finalize: () => Promise.reject(new ApiError('no', status)) });
    await advance(0);
    expect(actor.getSnapshot().matches({ init: 'waiting' })).toBe(true);
    expect(actor.getSnapshot().context.pendingPayment).toBeNull();
    expect(globalThis.localStorage.getItem(PENDING_PAYMENT_KEY)).toBeNull();
    await advance(500);
    expect(calls.create).toBe(1);
  });

  it('offers a retry when the resumed payment cannot be checked (network, 5xx), and never pays again', async () => {
    let answer: () => Promise<FinalizeResponse> = () => Promise.reject(new ApiError('Failed to finalize subscription', 0));
    const { actor, calls } = start({ input: { pendingPayment: pending }, finalize: () => answer() });
    await advance(0);
    expect(actor.getSnapshot().matches('resumeFailed')).toBe(true);
    expect(actor.getSnapshot().hasTag('paymentAtRisk')).toBe(true);
    answer = () => Promise.resolve({ success: false } as FinalizeResponse);
    actor.send({ type: 'ORDER_RETRY_CLICKED' });
    await advance(0);
    expect(actor.getSnapshot().matches('resumeFailed')).toBe(true);
    answer = () => Promise.reject(new ApiError('The payment provider could not complete the request.', 502));
    actor.send({ type: 'ORDER_RETRY_CLICKED' });
    await advance(0);
    expect(actor.getSnapshot().matches('resumeFailed')).toBe(true);
    expect(calls).toMatchObject({ confirm: 0, create: 0, finalize: 3 });
  });
});

describe('the location step and the total with tax (decision 0071)', () => {
  const TAXED: Location = {
    kind: 'quoted',
    quote: {
      clientSecret: 'pi_9_secret_t',
      subscriptionId: 'sub_9',
      subscriptionItemId: 'si_9',
      subtotalCents: 50_000,
      taxCents: 2_356,
      taxState: 'HI',
    },
  };

  /** A ready checkout submitted with the buyer filled in, answered `locate`; `overrides` as `start` takes them. */
  async function quoted(locate: () => Promise<Location>, overrides: Parameters<typeof start>[0] = {}) {
    const harness = await ready({ ...overrides, locate });
    fill(harness.actor);
    harness.actor.send({ type: 'PAYMENT_FORM_READY', clientSecret: session.clientSecret, gateway });
    harness.actor.send({ type: 'SUBMITTED' });
    await advance(0);
    return harness;
  }

  it('a location that owes tax waits for the buyer: nothing is charged until TAX_CONFIRMED, then the new intent is paid', async () => {
    const { actor, calls, emitted } = await quoted(async () => TAXED);
    expect(actor.getSnapshot().matches('confirmingTax')).toBe(true);
    expect(calls.confirm).toBe(0);
    expect(actor.getSnapshot().context).toMatchObject({
      taxQuote: { seats: 1, taxCents: 2_356, taxState: 'HI' },
      session: { clientSecret: 'pi_9_secret_t', subscriptionId: 'sub_9', subscriptionItemId: 'si_9', customerId: 'cus_1' },
      // The form (and the card typed in it) stays: it pays the replaced subscription.
      paymentFormSecret: session.clientSecret,
      paymentGateway: gateway,
    });
    actor.send({ type: 'TAX_CONFIRMED' });
    await advance(0);
    expect(calls.confirm).toBe(1);
    expect(calls.finalizeInputs[0]?.order).toMatchObject({ subscriptionId: 'sub_9' });
    expect(emitted.find((e) => e.type === 'paymentCompleted')).toMatchObject({ record: { totalAmount: 523.56, taxAmount: 23.56 } });
  });

  it('the buyer may go back to change the card, and the seats re-quote through the server', async () => {
    const { actor, calls } = await quoted(async () => TAXED, {
      update: async ({ quantity }) => ({
        clientSecret: 'pi_10_secret',
        subscriptionId: 'sub_10',
        subscriptionItemId: 'si_10',
        taxCents: 2_356 * quantity,
      }),
    });
    actor.send({ type: 'TAX_DECLINED' });
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    actor.send({ type: 'SUBMITTED' });
    await advance(0);
    expect(actor.getSnapshot().matches('confirmingTax')).toBe(true);
    actor.send({ type: 'SEAT_ADDED' });
    actor.send({ type: 'SEAT_ADDED' });
    expect(actor.getSnapshot().matches('pendingSeats')).toBe(true);
    await advance(2000);
    expect(calls.update).toEqual([3]);
    expect(calls.confirm).toBe(0);
    // Still taxed, at the new seats: the server's tax for them, confirmed again before paying.
    expect(actor.getSnapshot().context.taxQuote).toEqual({ seats: 3, taxCents: 7_068, taxState: 'HI' });
  });

  it('a refused ZIP is said at its field, clears on the next submit, and nothing is charged', async () => {
    const refusal = { field: 'postalCode' as const, message: 'Your ZIP code is invalid.' };
    let answer: Location = { kind: 'refused', refusal };
    const { actor, calls } = await quoted(async () => answer);
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(actor.getSnapshot().context.locationError).toEqual(refusal);
    answer = TAXED;
    actor.send({ type: 'SUBMITTED' });
    expect(actor.getSnapshot().context.locationError).toBeNull();
    expect(calls.confirm).toBe(0);
  });

  it('an incomplete card goes back silently; a card Stripe.js refused and a failed call say why by the pay button', async () => {
    let answer: () => Promise<Location> = async () => ({ kind: 'incomplete' });
    const { actor, toasts } = await quoted(() => answer());
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(toasts()).toEqual([]);
    answer = async () => ({ kind: 'failed', message: 'Your card was declined.' });
    actor.send({ type: 'SUBMITTED' });
    await advance(0);
    expect(actor.getSnapshot().context.paymentError).toBe('Your card was declined.');
    answer = () => Promise.reject(new ApiError('This checkout was changed in another window.', 409));
    actor.send({ type: 'SUBMITTED' });
    await advance(0);
    expect(actor.getSnapshot().context.paymentError).toBe('This checkout was changed in another window.');
    expect(actor.getSnapshot().context.pendingPayment).toBeNull();
  });
});
