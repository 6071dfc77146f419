/**
 * Model-based tests of the owner's console: @xstate/graph's TestModel over the session's, the
 * dashboard's, the orders list's and one order's statecharts, shortest paths to every state (each extended by one more event), each run
 * against the real view in jsdom with the server calls answered by the path. After every step the test asserts
 * what the owner sees in that state (loading, the figures and the MRR table, the list, the status in words, the
 * confirmation question, the action's notice, the error with 'Try again', the sign-in form asked for on a 401),
 * and that every state and transition of the three machines was reached in the views.
 */
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { TestModel } from '@xstate/graph';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import type { AnyEventObject, AnyMachineSnapshot, AnyStateMachine, NonReducibleUnknown } from 'xstate';
import { ApiError } from '../../src/api/client';
import type { Dashboard, DashboardQuery, OrderAction, OrderDetail, OrderRow, OrdersQuery, Referrer } from '../../src/contract/admin';
import { formatDollars } from '../../src/domain/pricing';
import { consoleOrderMachine } from '../../src/machines/consoleOrderMachine';
import { consoleDashboardMachine } from '../../src/machines/consoleDashboardMachine';
import { consoleOrdersMachine } from '../../src/machines/consoleOrdersMachine';
import { consoleSessionMachine } from '../../src/machines/consoleSessionMachine';
import { refundMachine } from '../../src/machines/refundMachine';
import { AdminDashboard } from '../../src/views/admin/AdminDashboard';
import { AdminOrderDetail, AdminOrders } from '../../src/views/admin/AdminOrders';
import { AdminPage } from '../../src/views/admin/AdminPage';
import { advance } from '../views/support/timers';
import { CONSOLE_ORDER } from './pageRules';
import { chooseCoveringPaths, shortestPathCandidates } from './paths';
import { PendingCalls } from './pendingCalls';
import { createTimedMachine, expectFullCoverage, ModelCoverage } from './timedModel';

// jsdom has no canvas: the chart is stood in for; its table is what is asserted.
vi.mock('../../src/views/admin/MrrChart', () => ({ MrrChart: () => <div data-testid="mrr-chart" /> }));

afterEach(cleanup);

const NOW = new Date();
const iso = (daysAgo: number) => new Date(NOW.getTime() - daysAgo * 86_400_000).toISOString();
const ORDER: OrderRow = {
  transactionId: 'txn_model',
  status: 'paid',
  quantity: 3,
  amountCents: 100_000,
  email: 'ada@example.com',
  name: 'Ada Palmer',
  referrer: null,
  affiliateId: 'dr-sample',
  provider: 'sandbox',
  customerId: 'cus_model',
  subscriptionId: 'sub_model',
  createdAt: iso(3),
  paidAt: iso(3),
  cancelledAt: null,
  cancelAt: null,
  cancellationReason: null,
  pastDueSince: null,
  refundedCents: 0,
};
const CANCELLING: OrderRow = {
  ...ORDER,
  transactionId: 'txn_cancelling',
  cancelAt: '2026-12-24T10:00:00.000Z',
  cancellationReason: 'Too expensive',
};
const DETAIL: OrderDetail = {
  order: ORDER,
  events: [{ type: 'paid', occurredAt: iso(3), detail: { seats: 3, amountCents: 100_000 } }],
  invoices: [{ id: 'in_model', amountCents: 100_000, taxCents: 0, status: 'paid', refundedCents: 0, date: iso(3) }],
  seats: [],
  buyerAgreementSignedAt: null,
  commissions: [],
};
const DETAIL_AFTER: OrderDetail = { ...DETAIL, order: { ...ORDER, cancelAt: '2026-12-24T10:00:00.000Z' } };
const DASHBOARD: Dashboard = {
  setup: [],
  from: '2026-11-01',
  to: '2026-11-03',
  mrrCents: 150_000,
  interval: 'day',
  assignedSeats: 0,
  claimedSeats: 0,
  commissions: [{ referrerId: 'ref-1', displayName: 'Mark Lee', owedCents: 20_000, paidCents: 0 }],
  mrrSeries: [
    { date: '2026-11-01', mrrCents: 50_000 },
    { date: '2026-11-02', mrrCents: 50_000 },
    { date: '2026-11-03', mrrCents: 150_000 },
  ],
  collectedCents: 150_000,
  newMrrCents: 100_000,
  churnedMrrCents: 0,
  netMrrCents: 100_000,
  paidOrders: 2,
  paidSeats: 4,
  abandonedCheckouts: 1,
  cancellations: 1,
  failedPayments: 1,
  byReferrer: [{ referrer: null, views: 4, opened: 2, submitted: 2, paid: 2, paidSeats: 4, mrrCents: 150_000 }],
};
const FAILURE = new ApiError('The console could not reach the server. Please try again.', 0);
const SIGNED_OUT = new ApiError('Please sign in to the console.', 401);

type Snapshot = AnyMachineSnapshot;
type Kind = 'load' | 'action' | 'refund';

/** One statechart of the console: its model events, its view, and what each state shows. */
interface ConsoleModel {
  name: string;
  machine: AnyStateMachine;
  input?: unknown;
  events: (snapshot: Snapshot) => AnyEventObject[];
  view: (calls: PendingCalls<Kind>, onUnauthorised: () => void) => React.JSX.Element;
  /** Makes a view event happen (the actors' results are settled by PendingCalls). */
  act: (event: AnyEventObject, calls: PendingCalls<Kind>) => Promise<void>;
  expectShows: (state: Snapshot, event: AnyEventObject | undefined) => void;
}

const actorEvents = (snapshot: Snapshot, suffix: string, outputs: unknown[], errors: unknown[]) => {
  const events: AnyEventObject[] = [];
  for (const id of Object.keys(snapshot.children)) {
    if (!id.endsWith(suffix)) continue;
    events.push(...outputs.map((output) => ({ type: `xstate.done.actor.${id}`, output, actorId: id })));
    events.push(...errors.map((error) => ({ type: `xstate.error.actor.${id}`, error, actorId: id })));
  }
  return events;
};
const isError = (event: AnyEventObject | undefined, error: ApiError) =>
  event?.type.startsWith('xstate.error.actor.') === true && (event as { error?: unknown }).error === error;

function expectError(state: Snapshot): void {
  if (state.context.error) expect(screen.getByRole('alert')).toHaveTextContent(state.context.error as string);
  else expect(screen.queryByRole('alert')).toBeNull();
}

/** The dashboard's calls in the running path, and the query its steps chose so far (what every load must send). */
let dashboardCalls: PendingCalls<Kind>;
let chosenQuery: DashboardQuery = {};

const dashboardModel: ConsoleModel = {
  name: 'dashboard',
  machine: consoleDashboardMachine,
  events: (snapshot) => [
    ...actorEvents(snapshot, 'consoleDashboard.loading', [DASHBOARD], [FAILURE, SIGNED_OUT]),
    ...(snapshot.matches('loading') ? [] : [{ type: 'PERIOD_CHOSEN', from: '2026-11-01', to: '2026-11-03' }]),
    ...(snapshot.matches('loading') || !snapshot.context.dashboard ? [] : [{ type: 'INTERVAL_CHOSEN', interval: 'week' }]),
    ...(snapshot.matches('failed') ? [{ type: 'RETRY_CLICKED' }] : []),
  ],
  view(calls, onUnauthorised) {
    dashboardCalls = calls;
    chosenQuery = {};
    const logic = consoleDashboardMachine.provide({ actors: { loadDashboard: calls.actor<Dashboard, DashboardQuery>('load') } });
    return <AdminDashboard logic={logic} onUnauthorised={onUnauthorised} />;
  },
  async act(event) {
    if (event.type === 'PERIOD_CHOSEN') {
      fireEvent.change(screen.getByLabelText('From'), { target: { value: event.from } });
      fireEvent.change(screen.getByLabelText('To'), { target: { value: event.to } });
      fireEvent.click(screen.getByRole('button', { name: 'Show' }));
      // An empty date asks for the server's default period (the last 30 days): it is not sent.
      const { from, to, ...rest } = chosenQuery;
      chosenQuery = { ...rest, ...(event.from ? { from: event.from as string } : {}), ...(event.to ? { to: event.to as string } : {}) };
    } else if (event.type === 'INTERVAL_CHOSEN') {
      fireEvent.change(screen.getByLabelText('One point per'), { target: { value: event.interval } });
      chosenQuery = { ...chosenQuery, interval: event.interval as DashboardQuery['interval'] };
    } else if (event.type === 'RETRY_CLICKED') {
      fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    } else throw new Error(`The model test cannot make ${event.type} happen`);
  },
  expectShows(state) {
    const data = state.context.dashboard as Dashboard | null;
    expect(screen.getByRole('button', { name: 'Show' })).toHaveProperty('disabled', state.matches('loading'));
    // Every load asks for the period and grouping the owner chose last (from the steps, not the chart's context).
    if (state.matches('loading')) expect(dashboardCalls.inputsOf('load').at(-1)).toEqual(chosenQuery);
    if (!data) {
      expect(screen.queryByText('Money collected')).toBeNull();
      if (state.matches('loading')) expect(screen.getByText('Loading…')).toBeInTheDocument();
    } else {
      const figure = (label: string) => screen.getByText(label, { selector: 'dt' }).parentElement!;
      expect(figure('Money collected')).toHaveTextContent(formatDollars(data.collectedCents));
      expect(figure('Money collected')).toHaveTextContent('First payments and paid renewals in the period, less the refunds made in it.');
      expect(figure(`MRR on ${data.to}`)).toHaveTextContent(formatDollars(data.mrrCents));
      expect(figure('Abandoned checkouts')).toHaveTextContent('no paid order 24 hours after they opened');
      expect(within(figure('Failed payments')).getByRole('link', { name: 'See these orders' })).toHaveAttribute(
        'href',
        `/orders?status=payment_failed&from=${data.from}&to=${data.to}`,
      );
      const table = screen.getByRole('table', { name: `MRR by ${data.interval}`, hidden: true });
      expect(within(table).getAllByRole('row', { hidden: true })).toHaveLength(data.mrrSeries.length + 1);
      expect(screen.getByTestId('mrr-chart')).toBeInTheDocument();
    }
    expectError(state);
    expect(screen.queryByRole('button', { name: 'Try again' }) !== null).toBe(state.matches('failed') && state.context.error !== null);
  },
};

const ordersModel: ConsoleModel = {
  name: 'orders',
  machine: consoleOrdersMachine,
  input: { query: {} },
  events: (snapshot) => [
    ...actorEvents(
      snapshot,
      'consoleOrders.loading',
      [
        { orders: [ORDER, CANCELLING], referrers: [] },
        { orders: [], referrers: [] },
      ],
      [FAILURE, SIGNED_OUT],
    ),
    ...(snapshot.matches('loading') ? [] : [{ type: 'FILTER_SUBMITTED', query: { status: 'cancelling' } satisfies OrdersQuery }]),
    ...(snapshot.matches('failed') ? [{ type: 'RETRY_CLICKED' }] : []),
  ],
  view(calls, onUnauthorised) {
    const logic = consoleOrdersMachine.provide({
      actors: { loadOrders: calls.actor<{ orders: OrderRow[]; referrers: Referrer[] }, OrdersQuery>('load') },
    });
    return <AdminOrders logic={logic} onUnauthorised={onUnauthorised} />;
  },
  async act(event) {
    if (event.type === 'FILTER_SUBMITTED') {
      fireEvent.change(screen.getByLabelText('Status'), { target: { value: (event.query as OrdersQuery).status } });
      fireEvent.click(screen.getByRole('button', { name: 'Filter' }));
    } else if (event.type === 'RETRY_CLICKED') {
      fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    } else throw new Error(`The model test cannot make ${event.type} happen`);
  },
  expectShows(state) {
    const orders = state.context.orders as OrderRow[];
    const table = screen.getByRole('table', { name: 'Orders' });
    expect(within(table).getAllByRole('row')).toHaveLength(orders.length + 1);
    if (orders.some((order) => order.transactionId === CANCELLING.transactionId)) {
      expect(within(table).getByText('Cancels on Dec 24, 2026')).toBeInTheDocument();
      expect(within(table).getByText('Active')).toBeInTheDocument();
    }
    expect(screen.queryByText('No orders match.') !== null).toBe(state.matches('ready') && orders.length === 0);
    expect(screen.getByRole('button', { name: 'Filter' })).toHaveProperty('disabled', state.matches('loading'));
    expectError(state);
  },
};

const orderModel: ConsoleModel = {
  name: 'order',
  machine: consoleOrderMachine,
  input: { transactionId: ORDER.transactionId },
  events: (snapshot) => {
    const events = [
      ...actorEvents(snapshot, 'consoleOrder.loading', [DETAIL], [FAILURE, SIGNED_OUT]),
      ...actorEvents(
        snapshot,
        'consoleOrder.ready.acting',
        [DETAIL_AFTER],
        [new ApiError('This subscription has already ended.', 409), SIGNED_OUT],
      ),
    ];
    if (snapshot.matches('failed')) events.push({ type: 'RETRY_CLICKED' });
    if (snapshot.matches({ ready: 'viewing' })) {
      events.push(
        { type: 'ACTION_CLICKED', action: 'resend_confirmation' },
        { type: 'ACTION_CLICKED', action: 'cancel_now' },
        { type: 'xstate.done.actor.refund', actorId: 'refund' },
      );
    }
    if (snapshot.matches({ ready: 'confirming' })) events.push({ type: 'ACTION_CONFIRMED' }, { type: 'ACTION_ABANDONED' });
    return events;
  },
  view(calls, onUnauthorised) {
    const refund = refundMachine.provide({
      actors: {
        refundOrder: calls.actor<OrderDetail, { transactionId: string; amountCents: number | null; requestKey: string }>('refund'),
      },
    });
    const logic = consoleOrderMachine.provide({
      actors: {
        loadOrder: calls.actor<OrderDetail, { transactionId: string }>('load'),
        runAction: calls.actor<OrderDetail, { transactionId: string; action: OrderAction }>('action'),
        refund,
      },
    });
    return <AdminOrderDetail transactionId={ORDER.transactionId} logic={logic} onUnauthorised={onUnauthorised} />;
  },
  async act(event, calls) {
    if (event.type === 'RETRY_CLICKED') fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    else if (event.type === 'ACTION_CLICKED') {
      lastAction = event.action as typeof lastAction;
      fireEvent.click(
        screen.getByRole('button', { name: event.action === 'cancel_now' ? 'Cancel now…' : 'Re-send the confirmation mail' }),
      );
    } else if (event.type === 'ACTION_CONFIRMED') fireEvent.click(screen.getByRole('button', { name: 'End it now' }));
    else if (event.type === 'ACTION_ABANDONED') fireEvent.click(screen.getByRole('button', { name: 'Keep the subscription' }));
    else if (event.type === 'xstate.done.actor.refund') {
      // The refund statechart, through its own form: everything, within the guarantee; confirmed; the server answers.
      fireEvent.click(screen.getByRole('button', { name: 'Refund…' }));
      await advance(0);
      fireEvent.click(screen.getByRole('button', { name: 'Refund and end the subscription' }));
      await advance(0);
      calls.answer({ type: 'xstate.done.actor.0.refund.refunding', output: DETAIL });
    } else throw new Error(`The model test cannot make ${event.type} happen`);
  },
  expectShows(state, event) {
    const detail = state.context.detail as OrderDetail | null;
    if (state.matches('failed')) {
      expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
      if (state.context.error) expect(screen.getByRole('alert')).toHaveTextContent(state.context.error as string);
      return;
    }
    if (state.matches('loading')) expect(screen.getByText('Loading…')).toBeInTheDocument();
    // A refund made says so while the order is read again.
    if (event?.type === 'xstate.done.actor.refund') expect(screen.getByRole('status')).toHaveTextContent(CONSOLE_ORDER.refunded);
    if (!detail || state.matches('loading')) return;
    expect(screen.getByRole('heading', { name: `${ORDER.name} <${ORDER.email}>` })).toBeInTheDocument();
    const order = screen.getByRole('table', { name: 'Order' });
    expect(within(order).getByText(detail.order.cancelAt ? 'Cancels on Dec 24, 2026' : 'Active')).toBeInTheDocument();
    expect(within(screen.getByRole('table', { name: 'Invoices' })).getByText(formatDollars(100_000))).toBeInTheDocument();
    expect(within(screen.getByRole('list', { name: 'Events' })).getByText('Paid for 3 seats: $1,000/month')).toBeInTheDocument();
    const confirming = state.matches({ ready: 'confirming' });
    expect(screen.queryByRole('alertdialog', { name: 'Confirm' }) !== null).toBe(confirming);
    if (confirming) expect(screen.getByText(/End this subscription now, without a refund\?/)).toBeInTheDocument();
    expect(screen.queryByText('Working…') !== null).toBe(state.matches({ ready: 'acting' }));
    const notice = state.context.notice as string | null;
    if (notice) expect(screen.getByRole('status')).toHaveTextContent(notice);
    else expect(screen.getByRole('status')).toBeEmptyDOMElement();
    if (event?.type.endsWith('ready.acting') && event.type.startsWith('xstate.done')) {
      expect(screen.getByRole('status')).toHaveTextContent(DONE_WORDS[lastAction]);
    }

    if (!isError(event, SIGNED_OUT)) expectError(state);
  },
};

/** The console's other pages load over fetch: a dashboard, or 401 once the test has ended the session. */
let sessionEndedOnServer = false;
const fakeFetch = async () =>
  sessionEndedOnServer
    ? new Response(JSON.stringify({ error: 'Please sign in to the console.' }), {
        status: 401,
        headers: { 'content-type': 'application/json' },
      })
    : new Response(JSON.stringify(DASHBOARD), { status: 200, headers: { 'content-type': 'application/json' } });
const OWNER_SESSION = { email: 'owner@example.com' };
const WRONG_PASSWORD = new ApiError('Wrong email or password.', 401);
/** The first look for a session, before sign-in: a 401 that is no session ending. */
const NO_SESSION = new ApiError('Please sign in to the console.', 401);

const sessionModel: ConsoleModel = {
  name: 'session',
  machine: consoleSessionMachine,
  events: (snapshot) => [
    ...actorEvents(snapshot, 'consoleSession.checking', [OWNER_SESSION], [NO_SESSION]),
    ...actorEvents(snapshot, 'consoleSession.signingIn', [OWNER_SESSION], [WRONG_PASSWORD]),
    ...actorEvents(snapshot, 'consoleSession.signingOut', [undefined], [FAILURE]),
    ...(snapshot.matches('signedOut') ? [{ type: 'SIGN_IN_SUBMITTED', email: 'owner@example.com', password: 'a long passphrase' }] : []),
    ...(snapshot.matches('signedIn') ? [{ type: 'SIGN_OUT_CLICKED' }, { type: 'SESSION_ENDED' }] : []),
  ],
  view(calls) {
    sessionEndedOnServer = false;
    vi.stubGlobal('fetch', fakeFetch);
    const logic = consoleSessionMachine.provide({
      actors: {
        loadSession: calls.actor<{ email: string }, NonReducibleUnknown>('load'),
        signIn: calls.actor<{ email: string }, { email: string; password: string }>('action'),
        signOut: calls.actor<void, NonReducibleUnknown>('refund'),
      },
    });
    return <AdminPage logic={logic} />;
  },
  async act(event) {
    if (event.type === 'SIGN_IN_SUBMITTED') {
      fireEvent.change(screen.getByLabelText('Email'), { target: { value: event.email } });
      fireEvent.change(screen.getByLabelText('Password'), { target: { value: event.password } });
      fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    } else if (event.type === 'SIGN_OUT_CLICKED') {
      fireEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    } else if (event.type === 'SESSION_ENDED') {
      // The session ends on the server; the dashboard's next call is answered 401.
      sessionEndedOnServer = true;
      await advance(0);
      fireEvent.click(screen.getByRole('button', { name: 'Show' }));
      await advance(0);
    } else throw new Error(`The model test cannot make ${event.type} happen`);
  },
  expectShows(state) {
    expect(screen.queryByText('Loading…') !== null).toBe(state.matches('checking'));
    const signInShown = state.matches('signedOut') || state.matches('signingIn');
    expect(screen.queryByRole('button', { name: 'Sign in' }) !== null).toBe(signInShown);
    if (signInShown) expect(screen.getByRole('button', { name: 'Sign in' })).toHaveProperty('disabled', state.matches('signingIn'));
    if (state.matches('signedOut') && state.context.error) expect(screen.getByRole('alert')).toHaveTextContent('Wrong email or password.');
    const inside = state.matches('signedIn') || state.matches('signingOut');
    expect(screen.queryByRole('navigation', { name: 'Console' }) !== null).toBe(inside);
    if (inside) {
      expect(screen.getByText(OWNER_SESSION.email)).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Sign out' })).toHaveProperty('disabled', state.matches('signingOut'));
    }
  },
};

/** What the owner reads once an action is done (each action confirmed in words). */
const DONE_WORDS = {
  resend_confirmation: CONSOLE_ORDER.done.resend_confirmation('ada@example.com'),
  cancel_now: CONSOLE_ORDER.done.cancel_now,
};
let lastAction: keyof typeof DONE_WORDS = 'resend_confirmation';

const ACTOR_BY_STATE: Record<string, Kind> = {
  'consoleDashboard.loading': 'load',
  'consoleOrders.loading': 'load',
  'consoleOrder.loading': 'load',
  'consoleOrder.ready.acting': 'action',
  'refund.refunding': 'refund',
  'consoleSession.checking': 'load',
  'consoleSession.signingIn': 'action',
  'consoleSession.signingOut': 'refund',
};

for (const spec of [dashboardModel, ordersModel, orderModel, sessionModel]) {
  const { timedMachine, metaOf } = createTimedMachine(spec.machine, NOW.getTime());
  const coverage = new ModelCoverage(spec.machine, metaOf);
  const model = new TestModel(timedMachine as never, {
    events: spec.events as never,
    stateMatcher: (snapshot, key) => (snapshot as Snapshot).matches(key),
  });
  // Shortest paths to every state, each also extended by every event its end offers.
  const candidates = shortestPathCandidates(model as never, (snapshot) => spec.events(snapshot), spec.input);
  const paths = chooseCoveringPaths(candidates, (path) => coverage.keysOf(path.statePath.steps.map((step) => step.state)));

  describe(`console ${spec.name} statechart: ${paths.length} paths`, () => {
    it.each(paths.map((path) => [path.description, path] as const))('%s', async (_description, path) => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
      try {
        const calls = new PendingCalls<Kind>(ACTOR_BY_STATE);
        const onUnauthorised = vi.fn();
        const location = memoryLocation({ path: '/' });
        render(<Router hook={location.hook}>{spec.view(calls, onUnauthorised)}</Router>);
        await advance(0);
        const initial = model.testLogic.getInitialSnapshot(null as never, spec.input) as Snapshot;
        spec.expectShows(initial, undefined);
        coverage.record(initial);
        for (const step of path.statePath.steps) {
          if (!calls.answer(step.event)) await spec.act(step.event, calls);
          await advance(0);
          spec.expectShows(step.state, step.event);
          expect(onUnauthorised).toHaveBeenCalledTimes(
            path.statePath.steps.slice(0, path.statePath.steps.indexOf(step) + 1).filter((each) => isError(each.event, SIGNED_OUT)).length,
          );
          coverage.record(step.state);
        }
      } finally {
        vi.useRealTimers();
        vi.unstubAllGlobals();
      }
    });

    it('reached every state and took every transition in the view', () => {
      expectFullCoverage(coverage, `console ${spec.name}`);
    });
  });
}
