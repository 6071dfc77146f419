/**
 * Model-based tests of the payment-success page: @xstate/graph's TestModel over the success-page statechart,
 * shortest and simple paths, each run against the real page with the storage, clipboard and config actors
 * answered by the path, asserting what the buyer sees in every state.
 */
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { TestModel } from '@xstate/graph';
import toast from 'react-hot-toast';
import { describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import type { AnyEventObject, AnyMachineSnapshot } from 'xstate';
import type { PaymentRecordReading, PaymentSuccessRecord } from '../../src/api/paymentRecord';
import type { PaymentReturn } from '../../src/api/paymentReturn';
import { formatDollars } from '../../src/domain/pricing';
import { paymentSuccessMachine } from '../../src/machines/paymentSuccessMachine';
import { TOASTS } from '../../src/machines/toasts';
import { PaymentSuccessPage } from '../../src/views/success/PaymentSuccessPage';
import { AppToaster } from '../../src/views/toasts/AppToaster';
import { advance } from '../views/support/timers';
import { PendingCalls } from './pendingCalls';
import { createTimedMachine, expectFullCoverage, ModelCoverage } from './timedModel';

vi.useFakeTimers();

const RECORD: PaymentSuccessRecord = {
  success: true,
  token: 'model-handoff-token',
  loginDetails: { email: 'ada@example.com', password: 'Model-Password-0123', productPurchased: 'AI Training Subscription (Monthly)' },
  signInLinkEmailed: false,
  seatCount: 3,
  totalAmount: 1000,
  email: 'ada@example.com',
  name: 'Ada Palmer',
  transactionId: 'txn_model',
};
/** Finalize after the first hand-off window (docs/decisions/0026): no credentials, a sign-in link mailed. */
const RECORD_WITHOUT_CREDENTIALS: PaymentSuccessRecord = { ...RECORD, token: null, loginDetails: null, signInLinkEmailed: true };
const SUCCESS_SITE_URL = 'http://localhost:5174/?token=model-handoff-token';
/** The query string a 3-D Secure redirect returns with: with nothing stored, the page finalizes. */
const RETURN_SEARCH = 'payment_intent=pi_model&payment_intent_client_secret=pi_model_secret_x&redirect_status=succeeded';

const READINGS: PaymentRecordReading[] = [
  { kind: 'found', record: RECORD },
  { kind: 'found', record: { ...RECORD, token: '' } },
  { kind: 'found', record: RECORD_WITHOUT_CREDENTIALS },
  { kind: 'missing' },
  { kind: 'corrupt' },
];

// No timers here; the timed wrapper is used for what it records: the transitions each step takes.
const { timedMachine, metaOf } = createTimedMachine(paymentSuccessMachine, Date.UTC(2026, 0, 5, 9, 0, 0));
const coverage = new ModelCoverage(paymentSuccessMachine, metaOf);

type Snapshot = ReturnType<typeof paymentSuccessMachine.getInitialSnapshot>;

function modelEvents(snapshot: Snapshot): AnyEventObject[] {
  const events: AnyEventObject[] = [];
  for (const id of Object.keys(snapshot.children)) {
    const done = (output?: unknown) => ({ type: `xstate.done.actor.${id}`, output, actorId: id });
    const error = { type: `xstate.error.actor.${id}`, error: new Error('refused'), actorId: id };
    if (id === 'loadPaymentRecord') events.push(...READINGS.map(done), error);
    if (id === 'findKnownPurchase') events.push(done(RECORD.email), done(null), error);
    if (id === 'finalizeFromPaymentReturn') events.push(done(RECORD), done(RECORD_WITHOUT_CREDENTIALS), error);
    if (id === 'copyToClipboard') events.push(done(), error);
    if (id === 'resolveSuccessSiteUrl') events.push(done(SUCCESS_SITE_URL), error);
  }
  if (snapshot.matches('returnFailed')) events.push({ type: 'RETURN_RETRY_CLICKED' });
  // Without credentials the page has no copy buttons and no agreement button: nothing to click.
  if (snapshot.matches({ ready: 'viewing' }) && snapshot.context.record?.loginDetails) {
    events.push({ type: 'COPY_CLICKED', field: 'email' }, { type: 'COPY_CLICKED', field: 'password' }, { type: 'SIGN_AGREEMENT_CLICKED' });
  }
  return events;
}

// createTestModel refuses machines that invoke actors; TestModel is the class it builds (decisions/0001).
const model = new TestModel(timedMachine as never, {
  events: modelEvents as never,
  stateMatcher: (snapshot, key) => (snapshot as Snapshot).matches(key as never),
});
const dropStart = <T extends { steps: Array<{ event: AnyEventObject }> }>(path: T) => ({
  ...path,
  steps: path.steps.filter((step) => step.event.type !== 'xstate.init'),
});
const shortestPaths = model.getShortestPaths().map(dropStart);
const simplePaths = model.getSimplePaths().map(dropStart);
// From a redirect return's address, the paths that go through finalizing from it (the rest repeat the above).
const RETURN_INPUT = { search: RETURN_SEARCH };
const throughReturn = <T extends { steps: Array<{ state: unknown }> }>(path: T) =>
  path.steps.some((step) => (step.state as Snapshot).matches('finalizingReturn'));
const returnShortestPaths = model.getShortestPaths({ input: RETURN_INPUT }).map(dropStart).filter(throughReturn);
const returnSimplePaths = model.getSimplePaths({ input: RETURN_INPUT }).map(dropStart).filter(throughReturn);

type ActorKind = 'load' | 'known' | 'finalize' | 'copy' | 'resolve';

/** Which call each invoked actor of the success page (by its id) makes. */
const ACTOR_BY_STATE: Record<string, ActorKind> = {
  loadPaymentRecord: 'load',
  findKnownPurchase: 'known',
  finalizeFromPaymentReturn: 'finalize',
  copyToClipboard: 'copy',
  resolveSuccessSiteUrl: 'resolve',
};

function renderPage(search: string) {
  const calls = new PendingCalls<ActorKind>(ACTOR_BY_STATE);
  const machine = paymentSuccessMachine.provide({
    actors: {
      loadPaymentRecord: calls.actor<PaymentRecordReading, unknown>('load'),
      findKnownPurchase: calls.actor<string | null, unknown>('known'),
      finalizeFromPaymentReturn: calls.actor<PaymentSuccessRecord, PaymentReturn>('finalize'),
      copyToClipboard: calls.actor<void, { text: string }>('copy'),
      resolveSuccessSiteUrl: calls.actor<string, { token: string }>('resolve'),
    },
    actions: { clearStoredRecord: () => window.sessionStorage.removeItem('paymentSuccess') },
  });
  const redirect = vi.fn();
  const location = memoryLocation({ path: '/payment-success', searchPath: search });
  render(
    <Router hook={location.hook} searchHook={location.searchHook}>
      <PaymentSuccessPage machine={machine} redirect={redirect} />
      <AppToaster />
    </Router>,
  );
  return { calls, redirect };
}

type Page = ReturnType<typeof renderPage>;

async function execute(page: Page, event: AnyEventObject): Promise<void> {
  if (page.calls.answer(event)) {
    // settled: the flush below lets the page take the answer
  } else if (event.type === 'COPY_CLICKED') {
    fireEvent.click(screen.getByRole('button', { name: `Copy ${String(event.field)}` }));
  } else if (event.type === 'SIGN_AGREEMENT_CLICKED') {
    fireEvent.click(screen.getByRole('button', { name: /Sign Training Agreement →|Redirecting\.\.\./ }));
  } else if (event.type === 'RETURN_RETRY_CLICKED') {
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
  } else {
    throw new Error(`The model test cannot make ${event.type} happen`);
  }
  await advance(0);
}

function expectToast(text: string): void {
  expect(screen.getAllByText(text).length).toBeGreaterThan(0);
}

/** What the buyer sees in `state`, and the toast or redirect that the step into it caused. */
function expectPageShows(page: Page, state: AnyMachineSnapshot, event: AnyEventObject | undefined): void {
  const record = state.context.record as PaymentSuccessRecord | null;
  // While the stored record, a purchase this browser remembers or a returned payment is read, the page says so
  // (spec §4: the page reads the record on load), and only then: the states named here, not the chart's tags.
  const reading = ['loading', 'checkingKnownPurchase', 'finalizingReturn'].some((value) => state.matches(value));
  expect(screen.queryByText('Loading payment details...') !== null, 'Loading payment details...').toBe(reading);
  if (state.matches('noData')) {
    expect(screen.getByText('No payment found')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Return to checkout' })).toHaveAttribute('href', '/');
    expectToast(TOASTS.noPaymentData.description);
  }
  if (state.matches('purchaseKnown')) {
    // A buyer whose purchase this browser remembers is sent to their account, without the 'No Payment Data' toast.
    expect(screen.getByRole('heading', { name: 'Your purchase is complete' })).toHaveFocus();
    expect(screen.getByText(RECORD.email)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Manage your subscription' })).toHaveAttribute('href', '/account');
    expect(screen.queryByRole('link', { name: 'Return to checkout' })).toBeNull();
    expect(screen.queryByText(TOASTS.noPaymentData.description)).toBeNull();
  }
  if (state.matches('corrupt') || state.matches('returnFailed')) {
    expect(screen.getByText('We could not read your payment details')).toBeInTheDocument();
    expectToast(TOASTS.loadFailed.description);
    // A failed finalize of a returned payment can be tried again; an unreadable stored record cannot.
    expect(screen.queryByRole('button', { name: 'Try again' }) !== null).toBe(state.matches('returnFailed'));
  }
  if (state.matches('handedOff')) {
    // The token went to the agreement site, which redeems it: the page links only to /account (decision 0053).
    expect(screen.getByRole('heading', { name: 'On to your training agreement' })).toHaveFocus();
    expect(screen.getByText(/this page no longer manages your team/)).toBeInTheDocument();
    expect(screen.getAllByRole('link').map((link) => link.getAttribute('href'))).toEqual(['/account', '/account']);
    expect(screen.queryAllByRole('button')).toEqual([]);
    expect(screen.queryByRole('heading', { name: 'Payment Successful!' })).toBeNull();
    expect(document.body.innerHTML).not.toContain(RECORD.token);
  }
  if (record && !state.matches('handedOff')) {
    const heading = screen.getByRole('heading', { name: 'Payment Successful!' });
    // Arriving at the details, the heading takes the focus (a screen reader announces the page).
    if (event?.type === 'xstate.done.actor.loadPaymentRecord' || event?.type === 'xstate.done.actor.finalizeFromPaymentReturn')
      expect(heading).toHaveFocus();
    expect(screen.getByText('Your AI training subscription has been activated')).toBeInTheDocument();
    expect(screen.getByText(`${formatDollars(record.totalAmount * 100)}/month`)).toBeInTheDocument();
    if (record.loginDetails) {
      expect(screen.getByText('IMPORTANT: Save Your Login Credentials')).toBeInTheDocument();
      expect(screen.getByText(record.loginDetails.password)).toBeInTheDocument();
      const button = screen.getByRole('button', { name: /Sign Training Agreement →|Redirecting\.\.\./ });
      expect(button).toHaveTextContent(state.matches('redirecting') ? 'Redirecting...' : 'Sign Training Agreement →');
      const next = screen.getByRole('region', { name: 'What happens next' });
      expect(next).toHaveTextContent(`A confirmation with your order is on its way to ${record.email}`);
      expect(within(next).getByRole('link', { name: `${window.location.origin}/account` })).toHaveAttribute('href', '/account');
    } else {
      expect(screen.getByRole('heading', { name: 'We’ve emailed you a sign-in link' })).toBeInTheDocument();
      expect(screen.getByText(record.email)).toBeInTheDocument();
      expect(screen.getByRole('link', { name: `${window.location.origin}/account` })).toHaveAttribute('href', '/account');
      expect(screen.queryByText('IMPORTANT: Save Your Login Credentials')).toBeNull();
      expect(screen.queryAllByRole('button')).toEqual([]);
    }
  }
  if (event?.type === 'xstate.done.actor.copyToClipboard')
    expectToast(TOASTS.copied(state.context.copyField === 'email' ? 'Email' : 'Password').description);
  if (event?.type === 'xstate.error.actor.copyToClipboard') expectToast(TOASTS.copyFailed.description);
  if (event?.type === 'SIGN_AGREEMENT_CLICKED' && state.matches('ready')) expectToast(TOASTS.noToken.description);
  if (state.matches('handedOff')) {
    expect(page.redirect).toHaveBeenCalledWith(SUCCESS_SITE_URL);
    expect(window.sessionStorage.getItem('paymentSuccess')).toBeNull();
  } else {
    expect(page.redirect).not.toHaveBeenCalled();
  }
}

async function runPath(path: (typeof shortestPaths)[number], input?: typeof RETURN_INPUT): Promise<void> {
  window.sessionStorage.setItem('paymentSuccess', JSON.stringify(RECORD));
  const page = renderPage(input?.search ?? '');
  await advance(0);
  const initial = model.testLogic.getInitialSnapshot(null as never, input) as AnyMachineSnapshot;
  expectPageShows(page, initial, undefined);
  coverage.record(initial);
  try {
    for (const step of path.steps) {
      await execute(page, step.event);
      expectPageShows(page, step.state as AnyMachineSnapshot, step.event);
      coverage.record(step.state as AnyMachineSnapshot);
    }
  } finally {
    act(() => toast.remove());
  }
}

describe(`payment-success statechart: ${shortestPaths.length} shortest paths`, () => {
  it.each(shortestPaths.map((path) => [path.description, path] as const))('%s', async (_description, path) => {
    await runPath(path);
  });
});

describe(`payment-success statechart: ${simplePaths.length} simple paths`, () => {
  it.each(simplePaths.map((path) => [path.description, path] as const))('%s', async (_description, path) => {
    await runPath(path);
  });
});

describe(`payment-success statechart after a redirect return: ${returnShortestPaths.length} shortest and ${returnSimplePaths.length} simple paths`, () => {
  it.each([...returnShortestPaths, ...returnSimplePaths].map((path) => [path.description, path] as const))(
    '%s',
    async (_description, path) => {
      await runPath(path, RETURN_INPUT);
    },
  );
});

describe('payment-success statechart coverage', () => {
  it('reached every state and took every transition in the views', () => {
    expectFullCoverage(coverage, 'paymentSuccess');
  });
});
