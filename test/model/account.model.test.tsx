/**
 * Model-based tests of the manage page (/account): @xstate/graph's TestModel over the manage page's statechart,
 * shortest paths from a visit without a link and from a mail's link, each run against the real page with the
 * calls answered by the path, asserting what the buyer sees in every state: the link form or the subscription,
 * the status in words, the card first when past due, each change confirmed in words, new credentials only after
 * the confirm step and with copy buttons, a refusal as an alert, a session that ended back at the link form.
 */
import { fireEvent, render, screen, within } from '@testing-library/react';
import { TestModel } from '@xstate/graph';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AnyEventObject, AnyMachineSnapshot } from 'xstate';
import { ApiError } from '../../src/api/client';
import type { AccountSessionResponse, AccountView, NewCredentials, SeatChangePreview } from '../../src/contract/account';
import { isRefundAskable } from '../../src/domain/refunds';
import { accountMachine, type PendingChange } from '../../src/machines/accountMachine';
import { AccountPage } from '../../src/views/account/AccountPage';
import { advance } from '../views/support/timers';
import { PendingCalls } from './pendingCalls';
import { chooseCoveringPaths, replayExactly } from './paths';
import { createTimedMachine, expectFullCoverage, ModelCoverage } from './timedModel';

vi.useFakeTimers();

const ACCOUNT: AccountView = {
  email: 'ada@example.com',
  name: 'Ada Palmer',
  status: 'paid',
  seats: 1,
  monthlyTotalCents: 50_000,
  monthlyTaxCents: 0,
  currentPeriodEnd: '2026-12-24T09:00:00.000Z',
  cancelAt: null,
  cardLast4: '4242',
  taxState: null,
  invoices: [],
  managedByProvider: false,
  // Paid on November 20: the guarantee runs until December 20, after the model's clock (November 24).
  guaranteeEndsAt: '2026-12-20T09:00:00.000Z',
  refundableCents: 50_000,
  refundAsked: null,
};
const PAST_DUE: AccountView = { ...ACCOUNT, status: 'past_due' };
/** Paid more than 30 days before the model's clock: no refund is offered. */
const LATE: AccountView = { ...ACCOUNT, guaranteeEndsAt: '2026-11-01T09:00:00.000Z' };
const NOW = new Date(Date.UTC(2026, 10, 24, 9, 0, 0));
const PROVIDER: AccountView = { ...ACCOUNT, managedByProvider: true };
const CREDENTIALS: NewCredentials = { email: 'ada@example.com', password: 'Model-New-Password-01' };
const AGREEMENT_URL = 'http://localhost:5174/?token=model-agreement';
const PORTAL_URL = 'https://billing.example/p/model';
const LINK_SENT = 'If that email has a subscription, a link to manage it is on its way.';

/** What the server answers a change with (the page confirms it in these words, below). */
function answerTo(change: PendingChange, account: AccountView): AccountView | { url: string } {
  switch (change.kind) {
    case 'cancel':
      return { ...account, cancelAt: account.currentPeriodEnd };
    case 'resume':
      return { ...account, cancelAt: null };
    case 'refund':
      return {
        ...account,
        cancelAt: account.currentPeriodEnd,
        refundAsked: { at: '2026-11-24T09:00:00.000Z', amountCents: account.refundableCents },
      };
    case 'seats':
      return { ...account, seats: change.quantity, monthlyTotalCents: change.quantity === 3 ? 100_000 : 50_000 };
    case 'card':
      return { ...account, status: 'paid', cardLast4: '4444' };
    case 'portal':
      return { url: PORTAL_URL };
  }
}

/** What the server answers a seat preview with: more seats cost $250 now, fewer leave $166.67 for the next invoice. */
function previewOf(quantity: number): SeatChangePreview {
  const more = quantity > 1;
  return {
    quantity,
    amountDueNowCents: more ? 25_000 : 0,
    taxDueNowCents: 0,
    creditCents: more ? 0 : 16_667,
    monthlyTotalCents: more ? 100_000 : 50_000,
    monthlyTaxCents: 0,
    nextChargeDate: '2026-12-24T09:00:00.000Z',
    prorationDate: 1_795_000_000,
  };
}

/** The confirmation each change must show: the manage page confirms every change it makes. */
const CONFIRMATIONS: Record<PendingChange['kind'], RegExp | null> = {
  cancel: /^Your subscription is cancelled\. You keep access until December 24, 2026/,
  resume: /^Your cancellation is undone/,
  refund: /^You asked for your refund of \$500\. We mailed you a receipt\./,
  seats:
    /^Your subscription now has (3 seats: \$1,000\/month\. We charged \$250 for the rest of this period|1 seat: \$500\/month\. \$166\.67 comes off your next invoice)\.$/,
  card: /^Your new card ending in 4444 is saved\.$/,
  portal: null,
};

const { timedMachine, metaOf } = createTimedMachine(accountMachine, Date.UTC(2026, 10, 24, 9, 0, 0));
const coverage = new ModelCoverage(accountMachine, metaOf);

type Snapshot = ReturnType<typeof accountMachine.getInitialSnapshot>;

const ended = new ApiError('Your session has ended. Please ask for a new link.', 401);

function modelEvents(snapshot: Snapshot): AnyEventObject[] {
  const events: AnyEventObject[] = [];
  const { account, pending, credentials, seatsWanted } = snapshot.context;
  for (const id of Object.keys(snapshot.children)) {
    const done = (output?: unknown) => ({ type: `xstate.done.actor.${id}`, output, actorId: id });
    const error = (failure: unknown) => ({ type: `xstate.error.actor.${id}`, error: failure, actorId: id });
    if (id === 'openSession') {
      const opened: AccountSessionResponse = { account: ACCOUNT, agreementUrl: null };
      events.push(done(opened), done({ ...opened, agreementUrl: AGREEMENT_URL }), error(new ApiError('This link has expired.', 401)));
    }
    if (id === 'loadAccount')
      events.push(done(ACCOUNT), done(PAST_DUE), done(LATE), done(PROVIDER), done(null), error(new Error('Network down.')));
    if (id === 'requestLink') events.push(done({ message: LINK_SENT }), error(new ApiError('Too many requests. Please wait.', 429)));
    if (id === 'applyChange' && pending && account) {
      events.push(done(answerTo(pending, account)));
      if (pending.kind !== 'portal') events.push(error(ended), error(new ApiError('Your card was declined.', 402)));
    }
    if (id === 'previewSeats' && seatsWanted !== null)
      events.push(
        done(previewOf(seatsWanted)),
        error(ended),
        error(new ApiError('Seats can be changed while the subscription is active and paid up.', 409)),
      );
    if (id === 'issueCredentials') events.push(done(CREDENTIALS), error(ended), error(new ApiError('Please try again.', 503)));
    if (id === 'copyToClipboard') events.push(done(), error(new Error('denied')));
    if (id === 'signOut') events.push(done(), error(new Error('Network down.')));
  }
  if (snapshot.matches({ signedOut: 'askingForLink' })) events.push({ type: 'LINK_REQUESTED', email: 'ada@example.com' });
  if (snapshot.matches({ signedIn: 'viewing' }) && account) {
    if (account.managedByProvider) events.push({ type: 'PORTAL_CLICKED', flow: 'seats' });
    else {
      if (!account.cancelAt) events.push({ type: 'CANCEL_CLICKED', reason: '' });
      else if (!account.refundAsked) events.push({ type: 'RESUME_CLICKED' });
      if (account.cancelAt && isRefundAskable(account, NOW)) events.push({ type: 'REFUND_ASK_CLICKED' });
      if (account.status === 'paid') events.push({ type: 'SEATS_SUBMITTED', quantity: account.seats === 1 ? 3 : 1 });
      events.push({ type: 'CARD_SUBMITTED', card: CARD });
      if (credentials) events.push({ type: 'COPY_CLICKED', field: 'password' });
      else events.push({ type: 'NEW_CREDENTIALS_CLICKED' });
    }
    events.push({ type: 'SIGN_OUT_CLICKED' });
  }
  if (snapshot.matches({ signedIn: 'confirmingCancel' })) {
    events.push({ type: 'CANCEL_CONFIRMED' }, { type: 'CANCEL_ABANDONED' });
    if (isRefundAskable(account, NOW)) events.push({ type: 'REFUND_ASK_CONFIRMED' });
  }
  if (snapshot.matches({ signedIn: 'confirmingRefund' })) events.push({ type: 'REFUND_ASK_CONFIRMED' }, { type: 'REFUND_ASK_ABANDONED' });
  if (snapshot.matches({ signedIn: 'confirmingSeats' })) events.push({ type: 'SEATS_CONFIRMED' }, { type: 'SEATS_ABANDONED' });
  if (snapshot.matches({ signedIn: 'confirmingCredentials' }))
    events.push({ type: 'NEW_CREDENTIALS_CONFIRMED' }, { type: 'NEW_CREDENTIALS_ABANDONED' });
  return events;
}

const CARD = { number: '4242 4242 4242 4242', expMonth: 12, expYear: 2030, cvc: '123', postalCode: '' };

/** A model state: where the page is and what it shows (not every word of the context, which would not end). */
function serialize(snapshot: Snapshot): string {
  const { account, credentials, pending } = snapshot.context;
  return JSON.stringify([
    snapshot.value,
    account && [account.status, !!account.cancelAt, account.managedByProvider, !!account.refundAsked, isRefundAskable(account, NOW)],
    !!credentials,
    snapshot.matches({ signedIn: 'changing' }) ? pending?.kind : null,
  ]);
}

const model = new TestModel(timedMachine as never, {
  events: modelEvents as never,
  stateMatcher: (snapshot, key) => (snapshot as Snapshot).matches(key as never),
  serializeState: serialize as never,
});
const TOKEN_INPUT = { token: 'model-link-token' };
/**
 * The shortest paths to every model state and each of them extended by one more event, replayed exactly from
 * their events (a model state stands for snapshots that differ in words, like an error's text, and a step must
 * carry the snapshot the page really reaches); then the fewest of them that take every transition.
 */
function pathsFrom(input: { token: string | null }, maxSteps = Infinity) {
  const candidates = model.getShortestPaths({ input, allowDuplicatePaths: true }).flatMap((path) => {
    const events = path.steps.map((step) => step.event).filter((event) => event.type !== 'xstate.init');
    return [events, ...modelEvents(path.state as Snapshot).map((next) => [...events, next])].filter((each) => each.length <= maxSteps);
  });
  const replayed = candidates.map((events) => {
    const { description, statePath } = replayExactly(model as never, events, input);
    return { description, steps: statePath.steps };
  });
  return chooseCoveringPaths(replayed, (path) => coverage.keysOf(path.steps.map((step) => step.state)));
}
const visitPaths = pathsFrom({ token: null });
// From a mail's link: the paths through opening the session (after it, the page is the one above).
const linkPaths = pathsFrom(TOKEN_INPUT, 2);

type ActorKind = 'open' | 'load' | 'link' | 'change' | 'preview' | 'credentials' | 'copy' | 'signOut';

const ACTOR_BY_ID: Record<string, ActorKind> = {
  openSession: 'open',
  loadAccount: 'load',
  requestLink: 'link',
  applyChange: 'change',
  previewSeats: 'preview',
  issueCredentials: 'credentials',
  copyToClipboard: 'copy',
  signOut: 'signOut',
};

function renderPage(token: string | null) {
  window.history.replaceState(null, '', token ? `/account?token=${token}` : '/account');
  const calls = new PendingCalls<ActorKind>(ACTOR_BY_ID);
  const machine = accountMachine.provide({
    actors: {
      openSession: calls.actor<AccountSessionResponse, { token: string }>('open'),
      loadAccount: calls.actor<AccountView | null, unknown>('load'),
      requestLink: calls.actor<{ message: string }, { email: string }>('link'),
      applyChange: calls.actor<AccountView | { url: string }, PendingChange>('change'),
      previewSeats: calls.actor<SeatChangePreview, { quantity: number }>('preview'),
      issueCredentials: calls.actor<NewCredentials, unknown>('credentials'),
      copyToClipboard: calls.actor<void, { text: string }>('copy'),
      signOut: calls.actor<void, unknown>('signOut'),
    },
  });
  const redirect = vi.fn();
  render(<AccountPage machine={machine} redirect={redirect} />);
  return { calls, redirect };
}

type Page = ReturnType<typeof renderPage>;

const click = (name: string | RegExp) => fireEvent.click(screen.getByRole('button', { name }));

async function execute(page: Page, event: AnyEventObject): Promise<void> {
  if (page.calls.answer(event)) {
    // settled: the flush below lets the page take the answer
  } else if (event.type === 'LINK_REQUESTED') {
    fireEvent.change(screen.getByLabelText('Email Address'), { target: { value: String(event.email) } });
    fireEvent.submit(screen.getByRole('form', { name: 'Email me a link' }));
  } else if (event.type === 'CANCEL_CLICKED') click('Cancel subscription');
  else if (event.type === 'CANCEL_CONFIRMED') click('Yes, cancel my subscription');
  else if (event.type === 'CANCEL_ABANDONED') click('Keep my subscription');
  else if (event.type === 'RESUME_CLICKED') click('Undo cancellation');
  else if (event.type === 'REFUND_ASK_CLICKED') click('Ask for your refund');
  else if (event.type === 'REFUND_ASK_CONFIRMED')
    // In the cancel step the refund is asked with the cancel; after a cancel, on its own.
    click(
      screen.queryByRole('button', { name: 'Cancel and ask for my $500 back' })
        ? 'Cancel and ask for my $500 back'
        : 'Yes, ask for my $500 back',
    );
  else if (event.type === 'REFUND_ASK_ABANDONED') click('Not now');
  else if (event.type === 'SEATS_SUBMITTED') {
    fireEvent.change(screen.getByRole('spinbutton', { name: 'Seats' }), { target: { value: String(event.quantity) } });
    click('Change seats');
  } else if (event.type === 'SEATS_CONFIRMED') click(/^(Pay \$250 and change seats|Confirm seat change)$/);
  else if (event.type === 'SEATS_ABANDONED') click('Keep my seats');
  else if (event.type === 'CARD_SUBMITTED') {
    const form = within(screen.getByRole('form', { name: 'Update card' }));
    fireEvent.change(form.getByLabelText('Card number'), { target: { value: CARD.number } });
    fireEvent.change(form.getByLabelText('Expiration date'), { target: { value: '12 / 30' } });
    fireEvent.change(form.getByLabelText('Security code'), { target: { value: CARD.cvc } });
    fireEvent.click(form.getByRole('button', { name: 'Update card' }));
  } else if (event.type === 'PORTAL_CLICKED') click('Change seats');
  else if (event.type === 'NEW_CREDENTIALS_CLICKED') click('Get new login credentials');
  else if (event.type === 'NEW_CREDENTIALS_CONFIRMED') click('Yes, replace my password');
  else if (event.type === 'NEW_CREDENTIALS_ABANDONED') click('Keep my password');
  else if (event.type === 'COPY_CLICKED') click(`Copy ${String(event.field)}`);
  else if (event.type === 'SIGN_OUT_CLICKED') click('Sign out');
  else throw new Error(`The model test cannot make ${event.type} happen`);
  await advance(0);
}

/** What the buyer sees in `state`, and what the step into it must have confirmed. */
function expectPageShows(page: Page, state: Snapshot, event: AnyEventObject | undefined, before: Snapshot | undefined): void {
  const { account, error, credentials } = state.context;
  const loading = ['starting', 'openingSession', 'loading', 'leaving'].some((value) => state.matches(value as never));
  expect(screen.queryByText('Loading…') !== null, 'Loading…').toBe(loading);
  if (state.matches('leaving')) {
    expect(page.redirect).toHaveBeenCalledWith(event?.type.endsWith('openSession') ? AGREEMENT_URL : PORTAL_URL);
    return;
  }
  expect(page.redirect).not.toHaveBeenCalled();
  if (loading) return;
  // No error without a failure: the ordinary visit without a session shows none.
  if (error) expect(screen.getByRole('alert')).toHaveTextContent(error);
  else expect(screen.queryByRole('alert')).toBeNull();

  if (state.matches('signedOut')) {
    const heading = screen.getByRole('heading', { level: 1, name: 'Manage your subscription' });
    if (!before?.matches('signedOut')) expect(heading).toHaveFocus();
    if (state.matches({ signedOut: 'linkSent' })) expect(screen.getByText(LINK_SENT)).toHaveAttribute('role', 'status');
    else expect(screen.getByRole('form', { name: 'Email me a link' })).toBeInTheDocument();
    return;
  }

  expect(account).not.toBeNull();
  const heading = screen.getByRole('heading', { level: 1, name: 'Your subscription' });
  if (!before?.matches('signedIn')) expect(heading).toHaveFocus();
  const status = within(screen.getByRole('table', { name: 'Subscription' })).getByRole('status');
  if (account!.status === 'past_due') {
    expect(status.textContent).toMatch(/^Past due: your last payment failed/);
    // A past-due buyer sees the card first.
    expect(screen.getAllByRole('heading', { level: 2 })[0]).toHaveTextContent('Card');
  } else if (account!.cancelAt) expect(status.textContent).toBe('Cancelled at period end: ends on December 24, 2026');
  else expect(status.textContent).toBe('Active');
  if (account!.managedByProvider) expect(screen.queryByRole('form', { name: 'Update card' })).toBeNull();

  // Every change is confirmed in words.
  if (event?.type === 'xstate.done.actor.applyChange' && before?.context.pending) {
    const confirmation = CONFIRMATIONS[before.context.pending.kind];
    if (confirmation) expect(screen.getByText(confirmation)).toHaveAttribute('role', 'status');
  }
  // The typed card leaves the fields once sent.
  if (!account!.managedByProvider) expect(screen.getByLabelText<HTMLInputElement>('Card number').value).toBe('');

  // What the seats cost now is shown before the buyer confirms, and only then.
  const seatConfirmation = screen.queryByRole('group', { name: 'Confirm seat change' });
  expect(seatConfirmation !== null, 'the seats confirm step').toBe(state.matches({ signedIn: 'confirmingSeats' }));
  if (seatConfirmation && state.context.seatPreview)
    expect(seatConfirmation).toHaveTextContent(
      state.context.seatPreview.amountDueNowCents
        ? '$250 is charged now to your card ending in 4242'
        : '$166.67 for the unused time comes off your next invoice',
    );

  // Cancelling is asked once more; without a payment in the last 30 days it says when access ends.
  const cancelDialog = screen.queryByRole('alertdialog', { name: 'Cancel your subscription?' });
  expect(cancelDialog !== null, 'the cancel confirm step').toBe(state.matches({ signedIn: 'confirmingCancel' }));
  const accessEnds = 'You keep access until December 24, 2026 and will not be charged again; you can undo this until then.';
  if (cancelDialog)
    expect(cancelDialog).toHaveAccessibleDescription(
      isRefundAskable(account, NOW)
        ? 'You are within the 30-day money-back guarantee, until December 20, 2026: you can have $500 back, everything you paid. ' +
            'Cancelling alone stops the renewal but refunds nothing; “Cancel and ask for my $500 back” asks for the refund too. ' +
            accessEnds
        : accessEnds,
    );
  // Within the guarantee the refund is offered in the cancel step and after a cancel (in the provider's portal mode,
  // where the portal cancels, on its own section); asked for, it is named, and the cancellation can no longer be
  // undone here.
  const refundDialog = screen.queryByRole('alertdialog', { name: 'Ask for your refund?' });
  expect(refundDialog !== null, 'the refund confirm step').toBe(state.matches({ signedIn: 'confirmingRefund' }));
  if (refundDialog) expect(refundDialog).toHaveAccessibleDescription(/^We refund \$500, everything you paid, to the card you paid with/);
  const offered =
    (account!.managedByProvider || !!account!.cancelAt) &&
    isRefundAskable(account, NOW) &&
    !state.matches({ signedIn: 'confirmingRefund' });
  expect(screen.queryByRole('button', { name: 'Ask for your refund' }) !== null, 'the refund offered').toBe(offered);
  if (account!.refundAsked) {
    expect(screen.getByText(/^You asked for your refund of \$500 on November 24, 2026\./)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Undo cancellation' })).toBeNull();
  }

  const dialog = screen.queryByRole('alertdialog', { name: 'Replace your password?' });
  expect(dialog !== null, 'the confirm step').toBe(state.matches({ signedIn: 'confirmingCredentials' }));
  if (credentials) {
    expect(screen.getByText(credentials.password)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy email' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy password' })).toBeInTheDocument();
  } else expect(screen.queryByText(CREDENTIALS.password)).toBeNull();
  if (event?.type === 'xstate.done.actor.copyToClipboard') expect(screen.getByText('Password copied to clipboard.')).toBeInTheDocument();
}

async function runPath(path: (typeof visitPaths)[number], token: string | null): Promise<void> {
  const page = renderPage(token);
  await advance(0);
  let before = model.testLogic.getInitialSnapshot(null as never, { token }) as unknown as Snapshot;
  expectPageShows(page, before, undefined, undefined);
  coverage.record(before as AnyMachineSnapshot);
  for (const step of path.steps) {
    await execute(page, step.event);
    const state = step.state as Snapshot;
    expectPageShows(page, state, step.event, before);
    coverage.record(state as AnyMachineSnapshot);
    before = state;
  }
}

afterEach(() => window.history.replaceState(null, '', '/'));

describe(`manage page statechart: ${visitPaths.length} shortest paths from a visit`, () => {
  it.each(visitPaths.map((path) => [path.description, path] as const))('%s', async (_description, path) => {
    await runPath(path, null);
  });
});

describe(`manage page statechart: ${linkPaths.length} shortest paths from a mail's link`, () => {
  it.each(linkPaths.map((path) => [path.description, path] as const))('%s', async (_description, path) => {
    await runPath(path, TOKEN_INPUT.token);
  });
});

describe('manage page statechart coverage', () => {
  it('reached every state and took every transition in the views', () => {
    expectFullCoverage(coverage, 'account', { passedThrough: ['account.starting'] });
  });
});
