/**
 * Model-based tests of the checkout: paths generated from the checkout statechart run against the real
 * checkout page in jsdom. The server calls and the payment confirmation are controllable actors, the clock is
 * vitest's fake clock, and every step asserts what the buyer sees in the model's state.
 */
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import toast from 'react-hot-toast';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import type { AnyActorRef, AnyEventObject, AnyMachineSnapshot } from 'xstate';
import { PAYMENT_RECORD_KEY } from '../../src/api/paymentRecord';
import { sampleReferrer } from '../../src/domain/offerReferrer';
import { CHECKOUT_LIMITS_ELEMENT_ID, formatDollars, monthlyTotalCents } from '../../src/domain/pricing';
import { checkoutMachine, type ConfirmPaymentActorInput } from '../../src/machines/checkoutMachine';
import { CONFETTI_PIECES } from '../../src/machines/checkoutTimings';
import { TOASTS } from '../../src/machines/toasts';
import type { PaymentConfirmation } from '../../src/payments/gateway';
import type { LocateActorInput, Location } from '../../src/machines/checkoutTax';
import { resetPublicConfigCache } from '../../src/api/publicConfig';
import { CARD_REENTRY_MESSAGE } from '../../src/views/checkout/CheckoutForm';
import { CheckoutPage } from '../../src/views/checkout/CheckoutPage';
import { AppToaster } from '../../src/views/toasts/AppToaster';
import { leavingAsksFirst } from '../views/support/checkoutHarness';
import { SANDBOX_CONFIG } from '../views/support/fakeFetch';
import { advance, deferred, type Deferred } from '../views/support/timers';
import { specDelayOf } from './specTimings';
import { PendingCalls } from './pendingCalls';
import { CALL_PATHS, expectedRequests, type KnownSession, type SentRequest } from './specRequests';
import { byText, expectedToasts, visibleToasts } from './specToasts';
import { expectFullCoverage } from './timedModel';

// The model walks the machine under the fake clock, so it is installed before the paths are generated.
vi.useFakeTimers();

const {
  checkoutEvents,
  createCheckoutCoverage,
  createCheckoutTestModel,
  metaOf,
  MODEL_INPUT,
  MODEL_PENDING_PAYMENT,
  MODEL_RESUME_INPUT,
  MODEL_START_TIME,
  RESUME_SCOPE,
  serializeCheckout,
  SIMPLE_PATH_SCOPE,
} = await import('./checkoutModel');
const { boundedSimplePaths, chooseCoveringPaths, replayExactly, shortestPathCandidates } = await import('./paths');

const model = createCheckoutTestModel();
const coverage = createCheckoutCoverage();
const replay = (events: AnyEventObject[]) => replayExactly(model as never, events, MODEL_INPUT);

const shortestPaths = chooseCoveringPaths(
  shortestPathCandidates(model as never, (snapshot) => checkoutEvents(snapshot as never), MODEL_INPUT),
  (path) => coverage.keysOf(path.statePath.steps.map((step) => step.state)),
);
// A page that opens with a payment this browser started earlier: the resume model, walked until a checkout opens.
const resumeModel = createCheckoutTestModel(RESUME_SCOPE, serializeCheckout, MODEL_RESUME_INPUT);
const resumePaths = chooseCoveringPaths(
  shortestPathCandidates(resumeModel as never, (snapshot) => checkoutEvents(snapshot as never, RESUME_SCOPE), MODEL_RESUME_INPUT),
  (path) => coverage.keysOf(path.statePath.steps.map((step) => step.state)),
);
const simplePaths = boundedSimplePaths(createCheckoutTestModel(SIMPLE_PATH_SCOPE) as never, (snapshot) => snapshot.matches('success'), {
  maxSteps: 16,
  maxPaths: 8,
}).map(replay);

type ActorKind = 'create' | 'update' | 'locate' | 'confirm' | 'finalize';

/** Which call each invoking state of the checkout makes. */
const ACTOR_BY_STATE: Record<string, ActorKind> = {
  'checkout.init.creatingIntent': 'create',
  'checkout.updating': 'update',
  'checkout.locating': 'locate',
  'checkout.submitting': 'confirm',
  'checkout.finalizing': 'finalize',
  'checkout.resuming': 'finalize',
};

/** One rendered checkout page with its controllable server, payment form configuration and clock. */
interface Page {
  /** The page opened with this browser's pending payment (the resume model). */
  resumed: boolean;
  actor: () => AnyActorRef;
  calls: PendingCalls<ActorKind>;
  configGate: Deferred<void>;
  location: ReturnType<typeof memoryLocation>;
  clock: number;
  /** The model state the page is in before the next step. */
  previous: AnyMachineSnapshot | null;
  /** Calls 1-3 as the page sent them, not yet checked. */
  requests: SentRequest[];
  /** The session the server last gave the page. */
  session: KnownSession | null;
}

/** The server's seat limit in the page, as server/referrals/offerPage.ts writes it. */
function writePageLimits(maxSeats: number): void {
  document.getElementById(CHECKOUT_LIMITS_ELEMENT_ID)?.remove();
  const element = document.createElement('script');
  element.id = CHECKOUT_LIMITS_ELEMENT_ID;
  element.type = 'application/json';
  element.textContent = JSON.stringify({ maxSeats });
  document.head.append(element);
}

function renderPage(resumed = false): Page {
  resetPublicConfigCache();
  // A fresh fake clock: the page has just opened (performance.now() is 0), as the model's start says.
  vi.useRealTimers();
  vi.useFakeTimers();
  vi.setSystemTime(MODEL_START_TIME);
  if (resumed) window.localStorage.setItem('pendingPayment', JSON.stringify(MODEL_PENDING_PAYMENT));
  // The page sells what the server wrote into it, as the model's page does: at most MODEL_INPUT.maxSeats.
  writePageLimits(MODEL_INPUT.maxSeats);
  const configGate = deferred<void>();
  const calls = new PendingCalls<ActorKind>(ACTOR_BY_STATE);
  const requests: SentRequest[] = [];
  // The page's real client sends calls 1-3; the path answers them. GET /api/config waits for the card form step.
  const kindByPath: Record<string, ActorKind> = {
    [CALL_PATHS.create]: 'create',
    [CALL_PATHS.update]: 'update',
    [CALL_PATHS.finalize]: 'finalize',
  };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const path = new URL(url, 'http://localhost').pathname;
      const kind = kindByPath[path];
      if (kind) {
        requests.push({ path, body: JSON.parse(init?.body as string) });
        return calls.http(kind);
      }
      await configGate.promise;
      return { ok: true, status: 200, json: async () => SANDBOX_CONFIG } as Response;
    }),
  );
  const machine = checkoutMachine.provide({
    actors: {
      locateBuyer: calls.actor<Location, LocateActorInput>('locate'),
      confirmPayment: calls.actor<PaymentConfirmation, ConfirmPaymentActorInput>('confirm'),
    },
  });
  let root: AnyActorRef | undefined;
  const location = memoryLocation({ path: '/', record: true });
  render(
    <Router hook={location.hook}>
      <CheckoutPage
        machine={machine}
        inspect={(event) => {
          if (!root && event.type === '@xstate.actor' && event.actorRef.sessionId === event.rootId) root = event.actorRef as AnyActorRef;
        }}
      />
      <AppToaster />
    </Router>,
  );
  return {
    resumed,
    actor: () => {
      if (!root) throw new Error('The checkout actor has not started');
      return root;
    },
    calls,
    configGate,
    location,
    clock: MODEL_START_TIME,
    previous: null,
    requests,
    session: null,
  };
}

const FIELD_LABELS = { firstName: 'First Name', lastName: 'Last Name', email: 'Email Address' } as const;

/** Clicks `button` as the buyer would; when the page has locked it, the event is sent as a click racing the lock. */
/**
 * Clicks `button` for the model's `event`. A transition counts only when the page's own control caused it: the
 * model must never offer an event whose control is off.
 */
function click(button: HTMLElement, event: AnyEventObject): void {
  if ((button as HTMLButtonElement).disabled) throw new Error(`The model offered ${event.type} while its control is disabled`);
  fireEvent.click(button);
}

/** Clicks each control that is off in `state` and asserts the page ignored it: same state, same context. */
function expectDisabledControlsIgnored(page: Page): void {
  const controls = [
    screen.queryByRole('button', { name: 'Increase seats' }),
    screen.queryByRole('button', { name: 'Decrease seats' }),
    screen.queryByRole('button', { name: /YES! I Want To Train My Team With AI|Processing\.\.\./ }),
  ].filter((control): control is HTMLButtonElement => control instanceof HTMLButtonElement && control.disabled);
  for (const control of controls) {
    const before = page.actor().getSnapshot();
    fireEvent.click(control);
    const after = page.actor().getSnapshot();
    expect(after.value, `${control.textContent || control.getAttribute('aria-label')} off`).toEqual(before.value);
    expect(after.context).toBe(before.context);
  }
}

/** Makes `event` happen to the page: a click, typing, the clock, or an answer from the server or the card form. */
async function execute(page: Page, event: AnyEventObject, state: AnyMachineSnapshot): Promise<void> {
  if (page.calls.answer(event)) {
    // settled: the flush below lets the page take the answer
  } else if (event.type.startsWith('xstate.after.') || event.type === 'CONFETTI_ENDED' || event.type === 'FIRST_NAME_FOCUS_DUE') {
    // The chart set this timer for the spec's delay (specTimings.ts), not one of its own choosing.
    const timer = metaOf(page.previous as never).timers.find((each) => each.event.type === event.type);
    expect(timer && timer.due - timer.scheduled, `the delay of ${event.type}`).toBe(specDelayOf(event));
    const due = metaOf(state as never).now;
    await advance(due - page.clock);
    page.clock = due;
    return;
  } else {
    switch (event.type) {
      case 'SEAT_ADDED':
        click(screen.getByRole('button', { name: 'Increase seats' }), event);
        break;
      case 'SEAT_REMOVED':
        click(screen.getByRole('button', { name: 'Decrease seats' }), event);
        break;
      case 'SEATS_TYPED': {
        const box = screen.getByLabelText<HTMLInputElement>('Seats');
        if (box.readOnly) throw new Error('The model offered SEATS_TYPED while the count box is read-only');
        fireEvent.change(box, { target: { value: event.text } });
        break;
      }
      case 'FIELD_CHANGED':
        fireEvent.change(screen.getByLabelText(FIELD_LABELS[event.field as keyof typeof FIELD_LABELS]), {
          target: { value: event.value },
        });
        break;
      case 'SUBMITTED':
        click(screen.getByRole('button', { name: /YES! I Want To Train My Team With AI|Processing\.\.\./ }), event);
        break;
      case 'QUOTE_CLICKED':
        fireEvent.click(screen.getByRole('button', { name: new RegExp(sampleReferrer.quote.slice(0, 30)) }));
        break;
      case 'GET_STARTED_CLICKED':
        fireEvent.click(screen.getByText('Get Started'));
        break;
      case 'PAYMENT_FORM_READY':
        page.configGate.resolve();
        break;
      case 'CARD_DETAILS_CHANGED':
        fireEvent.change(screen.getByLabelText('Card number'), { target: { value: '4242 4242 4242 4242' } });
        break;
      case 'INIT_RETRY_CLICKED':
        fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
        break;
      case 'TAX_CONFIRMED':
        click(screen.getByRole('button', { name: /^Pay \$[\d,.]+ monthly$/ }), event);
        break;
      case 'TAX_DECLINED':
        click(screen.getByRole('button', { name: 'Change card details' }), event);
        break;
      case 'ORDER_RETRY_CLICKED':
        fireEvent.click(screen.getByRole('button', { name: /^(Complete my order|Check again)$/ }));
        break;
      default:
        throw new Error(`The model test cannot make ${event.type} happen`);
    }
  }
  await advance(0);
}

/** Asserts that the page shows what the buyer should see in the model's `state`. */
function expectPageShows(page: Page, state: AnyMachineSnapshot): void {
  const { context } = state;
  expect(page.actor().getSnapshot().value, 'the page is in the model state').toEqual(state.value);
  expect(screen.getByLabelText<HTMLInputElement>('Seats').value, 'the count box').toBe(context.seatDraft ?? String(context.pendingSeats));
  // A refused entry or '+' at the limit says why at the count box (an alert), until the seats change again.
  const seatAlerts = screen
    .queryAllByRole('alert')
    .filter((alert) => /seats can be bought here\.|^Type a number of seats/.test(alert.textContent ?? ''));
  expect(
    seatAlerts.map((alert) => alert.textContent),
    'the seat notice',
  ).toEqual(context.seatNotice ? [context.seatNotice] : []);
  expect(screen.getByTestId('seat-total')).toHaveTextContent(formatDollars(monthlyTotalCents(context.pendingSeats)));
  expect(screen.queryAllByTestId('confetti').length > 0, 'confetti').toBe(context.celebrating);
  if (context.celebrating) expect(screen.getByTestId('confetti').children).toHaveLength(CONFETTI_PIECES);
  const updating = state.matches('updating');
  expect(screen.queryByText('Updating...') !== null, "'Updating...'").toBe(updating);
  const locked =
    updating ||
    state.matches({ init: 'failed' }) ||
    ['locating', 'submitting', 'finalizing', 'finalizeFailed', 'success', 'resuming', 'resumeFailed'].some((name) => state.matches(name));
  if (locked) {
    expect(screen.getByRole('button', { name: 'Increase seats' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Decrease seats' })).toBeDisabled();
  } else {
    expect(screen.getByRole('button', { name: 'Increase seats' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Decrease seats' }).hasAttribute('disabled')).toBe(context.pendingSeats === 1);
  }

  // While the card is or may have been charged and the order is not finalized, leaving asks first (decision 0006).
  const paymentAtRisk = ['submitting', 'finalizing', 'finalizeFailed', 'resuming', 'resumeFailed'].some((name) => state.matches(name));
  expect(leavingAsksFirst(), 'leaving asks first').toBe(paymentAtRisk);

  // Nothing a charge was taken for is ever called a failed payment.
  if (context.paymentAccepted || page.resumed) expect(screen.queryByText('Payment Failed')).not.toBeInTheDocument();
  if (state.matches('resuming')) {
    expect(screen.getByText('Checking your earlier payment…')).toBeInTheDocument();
    expect(screen.queryByLabelText('First Name')).not.toBeInTheDocument();
    return;
  }
  if (state.matches('success') && page.resumed) {
    expectSuccess(page, MODEL_PENDING_PAYMENT.seats);
    return;
  }
  if (state.matches('resumeFailed')) {
    expect(screen.getByText(/We could not check your earlier payment yet/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Check again' })).toBeEnabled();
    return;
  }
  if (state.matches('init')) {
    if (state.matches({ init: 'failed' })) {
      expect(within(screen.getByRole('region', { name: 'Checkout' })).getByRole('alert')).toHaveTextContent(
        TOASTS.initializationError.description,
      );
      expect(screen.getByRole('button', { name: 'Try again' })).toBeEnabled();
    } else {
      expect(screen.getByText('Initializing secure checkout...')).toBeInTheDocument();
    }
    expect(screen.queryByLabelText('First Name')).not.toBeInTheDocument();
    return;
  }

  const processing = ['locating', 'submitting', 'finalizing', 'success'].some((name) => state.matches(name));
  // The order summary shows the tax and the total with it once the location owes tax (decision 0071).
  const quoted =
    context.taxQuote && context.taxQuote.seats === context.pendingSeats && context.taxQuote.taxCents > 0 ? context.taxQuote : null;
  expect(screen.queryByTestId('summary-tax')?.textContent ?? null, 'the tax line').toBe(quoted ? formatDollars(quoted.taxCents) : null);
  expect(screen.getByTestId('summary-total')).toHaveTextContent(
    formatDollars(monthlyTotalCents(context.pendingSeats) + (quoted?.taxCents ?? 0)),
  );
  expect(screen.queryByText(context.locationError?.message ?? 'Your ZIP code is invalid.') !== null, 'the ZIP refused').toBe(
    context.locationError !== null,
  );
  for (const [field, label] of Object.entries(FIELD_LABELS)) {
    const input = screen.getByLabelText(label);
    expect(input.hasAttribute('disabled'), `${label} disabled`).toBe(
      processing || state.matches('confirmingTax') || context.paymentAccepted,
    );
    expect(input).toHaveValue(context.form[field as keyof typeof FIELD_LABELS]);
    const message = context.fieldErrors[field as keyof typeof FIELD_LABELS];
    if (message) expect(screen.getByText(message)).toBeInTheDocument();
  }
  for (const message of ['First name is required', 'Last name is required', 'Email is required', 'Email is invalid']) {
    if (!Object.values(context.fieldErrors).includes(message)) expect(screen.queryByText(message)).not.toBeInTheDocument();
  }
  if (state.matches('confirmingTax')) {
    // Nothing is charged until the buyer presses the button that names the total with tax; it has the focus.
    const pay = screen.getByRole('button', {
      name: `Pay ${formatDollars(monthlyTotalCents(context.pendingSeats) + (quoted?.taxCents ?? 0))} monthly`,
    });
    expect(document.activeElement, 'focus on the total to confirm').toBe(pay);
    expect(screen.queryByRole('button', { name: /YES! I Want To Train My Team With AI/ })).not.toBeInTheDocument();
    return;
  }
  const submit = screen.getByRole('button', { name: /YES! I Want To Train My Team With AI|Processing\.\.\./ });
  expect(submit).toHaveTextContent(processing ? 'Processing...' : 'YES! I Want To Train My Team With AI');
  // A card form re-created after an update mounts at once; the model takes that as the next step.
  const formSettling = state.matches('idle') && context.paymentGateway === null && context.updateCounter > 0;
  if (!formSettling) {
    const canSubmit = state.matches('idle') && context.paymentGateway !== null;
    expect(submit.hasAttribute('disabled'), 'submit disabled').toBe(!canSubmit);
  }
  expect(screen.queryByText(CARD_REENTRY_MESSAGE) !== null, 'the card to be typed again').toBe(context.cardReentryNeeded);
  const paymentReceived = screen.queryByText('Payment received, completing your order…') !== null;
  expect(paymentReceived, "'Payment received, completing your order…'").toBe(state.matches('finalizeFailed'));
  if (state.matches('idle') && context.paymentGateway === null && context.updateCounter === 0) {
    expect(screen.getByText('Loading payment form...')).toBeInTheDocument();
  }
  if (state.matches('success'))
    expectSuccess(page, context.confirmedSeats, context.taxQuote?.seats === context.confirmedSeats ? context.taxQuote.taxCents : 0);
}

/** On /payment-success with the spec §3 record of `seats` stored, the pending payment forgotten, the purchase kept. */
function expectSuccess(page: Page, seats: number, taxCents = 0): void {
  expect(page.location.history?.at(-1)).toBe('/payment-success');
  expect(JSON.parse(window.sessionStorage.getItem(PAYMENT_RECORD_KEY) ?? 'null')).toMatchObject({
    success: true,
    seatCount: seats,
    totalAmount: (monthlyTotalCents(seats) + taxCents) / 100,
    ...(taxCents > 0 ? { taxAmount: taxCents / 100 } : {}),
  });
  expect(window.localStorage.getItem('pendingPayment'), 'the pending payment is forgotten').toBeNull();
  expect(JSON.parse(window.localStorage.getItem('recentPurchase') ?? 'null')).toMatchObject({
    seats,
    totalAmount: (monthlyTotalCents(seats) + taxCents) / 100,
  });
}

/** Keeps what call 1 and call 2 answered: the ids the next calls must carry. */
function rememberSession(page: Page, event: AnyEventObject): void {
  if (/^xstate\.done\.actor\.\d+\.checkout\.init\.creatingIntent$/.test(event.type)) page.session = { ...(event.output as KnownSession) };
  if (/^xstate\.done\.actor\.\d+\.checkout\.updating$/.test(event.type) && page.session) {
    page.session = { ...page.session, ...(event.output as Partial<KnownSession>) };
  }
  // A location that owes tax replaced the subscription: finalize names the new one.
  const location = event.output as Location | undefined;
  if (/^xstate\.done\.actor\.\d+\.checkout\.locating$/.test(event.type) && page.session && location?.kind === 'quoted') {
    const { clientSecret, subscriptionId, subscriptionItemId } = location.quote;
    page.session = { ...page.session, clientSecret, subscriptionId, subscriptionItemId };
  }
}

/** The calls the page sent since the last check are exactly those the spec asks for on entering `after`. */
function expectRequests(page: Page, before: AnyMachineSnapshot | null, after: AnyMachineSnapshot, when: string): void {
  const expected = expectedRequests(before, after, {
    affiliateId: sampleReferrer.shortLabel,
    pageAddress: window.location.href,
    session: page.session,
    resumed: page.resumed ? MODEL_PENDING_PAYMENT : null,
  });
  expect(page.requests.splice(0), `requests ${when}`).toEqual(expected);
}

async function runPath(statePath: ReturnType<typeof replay>['statePath'], resumed = false): Promise<void> {
  const page = renderPage(resumed);
  await advance(0);
  const pathModel = resumed ? resumeModel : model;
  const initial = pathModel.testLogic.getInitialSnapshot(null as never, resumed ? MODEL_RESUME_INPUT : MODEL_INPUT) as AnyMachineSnapshot;
  expectPageShows(page, initial);
  expectRequests(page, null, initial, 'on opening');
  coverage.record(initial);
  page.previous = initial;
  try {
    await pathModel.testPath(statePath, {
      events: new Proxy(
        {},
        {
          get: () => async (step: { event: AnyEventObject; state: AnyMachineSnapshot }) => {
            await execute(page, step.event, step.state);
            // Every toast the step must show, with its description, and no other (spec §4, §8).
            const expected = expectedToasts(step.event, page.previous!).sort(byText);
            expect(visibleToasts(), `toasts after ${step.event.type}`).toEqual(expected);
            // A form re-created after a seat change took the typed card: its card field has the focus.
            if (step.event.type === 'PAYMENT_FORM_READY' && step.state.context.cardReentryNeeded) {
              expect(document.activeElement, 'focus after the card was lost').toBe(screen.getByLabelText('Card number'));
            }
            rememberSession(page, step.event);
            expectRequests(page, page.previous, step.state, `after ${step.event.type}`);
            act(() => toast.remove());
            await advance(0);
          },
        },
      ),
      states: {
        '*': (state) => {
          expectPageShows(page, state as AnyMachineSnapshot);
          expectDisabledControlsIgnored(page);
          coverage.record(state as AnyMachineSnapshot);
          page.previous = state as AnyMachineSnapshot;
        },
      },
    });
  } finally {
    act(() => toast.remove());
  }
}

beforeEach(() => {
  window.sessionStorage.clear();
  window.localStorage.clear();
});

describe(`checkout statechart: ${shortestPaths.length} shortest paths covering every state and transition`, () => {
  it.each(shortestPaths.map((path) => [path.description, path] as const))('%s', async (_description, path) => {
    await runPath(path.statePath);
  });
});

describe(`checkout statechart: ${resumePaths.length} shortest paths from a page that resumes an earlier payment`, () => {
  it.each(resumePaths.map((path) => [path.description, path] as const))('%s', async (_description, path) => {
    await runPath(path.statePath, true);
  });
});

describe(`checkout statechart: ${simplePaths.length} simple paths to success (at most 16 steps)`, () => {
  it.each(simplePaths.map((path) => [path.description, path] as const))('%s', async (_description, path) => {
    await runPath(path.statePath);
  });
});

describe('checkout statechart coverage', () => {
  it('reached every state and took every transition in the views', () => {
    expectFullCoverage(coverage, 'checkout');
  });
});
