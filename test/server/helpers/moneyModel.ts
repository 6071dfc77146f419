/**
 * The money invariants' model (test/server/moneyInvariants.test.ts, docs/decisions/0055): random sequences of what
 * happens to a paid order after its first payment, run against the real server on PGlite with either provider
 * (the sandbox and its billing clock, or the stateful Stripe double with its webhooks), and after every step the
 * provider's truth compared with what the app recorded.
 *
 * The model holds only what the test did (refunds it asked for, the payments it has seen, whether `unpaid` was
 * reached); everything else is read from the provider (its truth) and from the database (the app's view), so the
 * checks state rules, not a second implementation.
 *
 * Two switches, each a default narrowed by an environment variable:
 * - ENABLED_STEPS: the step kinds generated (all by default).
 * - ENFORCED_INVARIANTS: the checks that fail a run. A check that is off is still computed and counted, and
 *   `MONEY_INVARIANTS=all` turns every one on (to read the counterexamples of the known findings).
 */
import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import fc from 'fast-check';
import type Stripe from 'stripe';
import { BUILT_IN_RULE, commissionCents, refundedShareCents } from '../../../src/domain/commissions';
import { monthlyTotalCents } from '../../../src/domain/pricing';
import { refundedTaxCents } from '../../../src/domain/tax';
import type { FinalizeResponse, SubscriptionSession } from '../../../src/contract/checkout';
import { changeSeats, cancelAtPeriodEnd, replaceCard, undoCancellation } from '../../../server/account/manageSubscription';
import { runOrderAction } from '../../../server/admin/orderActions';
import {
  commissionEntries,
  funnelEvents,
  orderRefunds,
  orderDisputes,
  sandboxClock,
  sandboxDisputes,
  sandboxInvoices,
  sandboxRefunds,
  sandboxSubscriptions,
  taxRecords,
} from '../../../server/db/schema';
import { applyPaymentEvent, applyPaymentEvents } from '../../../server/checkout/applyPaymentEvent';
import { findOrder, type Order } from '../../../server/checkout/order';
import { refundOrder } from '../../../server/checkout/refundOrder';
import type { PaymentEvent, PaymentProvider } from '../../../server/payments/provider';
import { advanceSandboxClock, firstInvoiceId, renewDueSandboxSubscriptions, SANDBOX_NOW } from '../../../server/payments/sandbox/billing';
import { createStripeClient } from '../../../server/payments/stripe/client';
import { confirmBody, createBody, locateBody, TEST_CARDS, type TestServer } from '../helper';
import type { StatefulStripe } from './statefulStripe';
import { TEST_SECRET_KEY } from './stripeDouble';
import { deliver } from './stripeEvents';

// --- The switches ---

/** Every step kind the model knows. */
const ALL_STEPS = [
  'renew',
  'renewDeclined',
  'retry',
  'newCard',
  'seats',
  'cancelAtPeriodEnd',
  'undo',
  'cancelNow',
  'refund',
  'refundRetried',
  'dashboardRefund',
  'unpaid',
  'replay',
  'outOfOrder',
  'disputeOpened',
  'disputeWon',
  'disputeLost',
] as const;
type StepKind = (typeof ALL_STEPS)[number];

/** The step kinds generated: all of them (MONEY_STEPS narrows them, to read one feature's counterexamples). */
export const ENABLED_STEPS: readonly StepKind[] = namesFrom('MONEY_STEPS', ALL_STEPS) ?? ALL_STEPS;

/** Every invariant checked after each step. */
const ALL_INVARIANTS = [
  /** What the provider refunded (and lost to disputes) on each payment is what the order recorded. */
  'money',
  /** Collected − refunded − lost to disputes at the provider equals the console's money collected for the order. */
  'money-collected',
  /** Each refund the owner asked for was made once: the provider refunded exactly what was accepted. */
  'refund-once',
  /** Each payment earns the referrer the rule's commission, less the share of it refunded or disputed away. */
  'commission',
  /** No seat is held that is not paid for: the order's seats are at most those of the latest payment. */
  'seats-paid',
  /** The order's status, seats and scheduled cancellation agree with the provider's subscription. */
  'state-agrees',
  /** After `unpaid`, an order and its provider subscription end together, or recover together. */
  'unpaid-settles',
  /**
   * The tax recorded for the order (tax_records) is the tax the provider charged less the tax share of what it
   * refunded (src/domain/tax.ts refundedTaxCents, docs/decisions/0074), never below 0; each refund keeps its share.
   */
  'tax',
] as const;
type InvariantName = (typeof ALL_INVARIANTS)[number];

/** The invariants that fail a run: all of them (MONEY_INVARIANTS narrows them). */
export const ENFORCED_INVARIANTS: readonly InvariantName[] = namesFrom('MONEY_INVARIANTS', ALL_INVARIANTS) ?? ALL_INVARIANTS;

/**
 * A list given in the environment instead of the default (to read a finding's counterexample, or try a feature
 * before its switch is on): 'all', or names separated by commas. Undefined when the variable is not set.
 * @throws Error naming what is not in `known`.
 */
function namesFrom<Name extends string>(variable: string, known: readonly Name[]): Name[] | undefined {
  const setting = process.env[variable];
  if (!setting) return undefined;
  if (setting === 'all') return [...known];
  const names = setting.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !(known as readonly string[]).includes(name));
  if (unknown.length > 0) throw new Error(`${variable} names ${unknown.join(', ')}, none of ${known.join(', ')}`);
  return names as Name[];
}

// --- Steps ---

/** A refund's amount: everything left, a share of what is left (basis points), or more than is left (refused). */
type RefundAmount = { kind: 'all' } | { kind: 'share'; basisPoints: number } | { kind: 'too_much' };

type Step =
  | { kind: 'seats'; to: number }
  | { kind: 'refund' | 'refundRetried'; amount: RefundAmount }
  | { kind: 'replay'; pick: number; freshId: boolean }
  | { kind: 'dashboardRefund'; pick: number; basisPoints: number }
  | { kind: Exclude<StepKind, 'seats' | 'refund' | 'refundRetried' | 'dashboardRefund' | 'replay'> };

const refundAmount: fc.Arbitrary<RefundAmount> = fc.oneof(
  { weight: 2, arbitrary: fc.constant<RefundAmount>({ kind: 'all' }) },
  { weight: 3, arbitrary: fc.integer({ min: 1, max: 10_000 }).map((basisPoints): RefundAmount => ({ kind: 'share', basisPoints })) },
  { weight: 1, arbitrary: fc.constant<RefundAmount>({ kind: 'too_much' }) },
);

/** The arbitrary of each step kind; weights favour what moves money. */
const STEP_ARBITRARIES: Record<StepKind, { weight: number; arbitrary: fc.Arbitrary<Step> }> = {
  renew: { weight: 4, arbitrary: fc.constant({ kind: 'renew' }) },
  renewDeclined: { weight: 2, arbitrary: fc.constant({ kind: 'renewDeclined' }) },
  retry: { weight: 1, arbitrary: fc.constant({ kind: 'retry' }) },
  newCard: { weight: 2, arbitrary: fc.constant({ kind: 'newCard' }) },
  seats: { weight: 3, arbitrary: fc.integer({ min: 1, max: 6 }).map((to): Step => ({ kind: 'seats', to })) },
  cancelAtPeriodEnd: { weight: 2, arbitrary: fc.constant({ kind: 'cancelAtPeriodEnd' }) },
  undo: { weight: 1, arbitrary: fc.constant({ kind: 'undo' }) },
  cancelNow: { weight: 1, arbitrary: fc.constant({ kind: 'cancelNow' }) },
  refund: { weight: 2, arbitrary: refundAmount.map((amount): Step => ({ kind: 'refund', amount })) },
  refundRetried: { weight: 1, arbitrary: refundAmount.map((amount): Step => ({ kind: 'refundRetried', amount })) },
  dashboardRefund: {
    weight: 2,
    arbitrary: fc
      .record({ pick: fc.nat(1_000), basisPoints: fc.integer({ min: 1, max: 10_000 }) })
      .map((refund): Step => ({ kind: 'dashboardRefund', ...refund })),
  },
  unpaid: { weight: 1, arbitrary: fc.constant({ kind: 'unpaid' }) },
  replay: {
    weight: 2,
    arbitrary: fc.record({ pick: fc.nat(1_000), freshId: fc.boolean() }).map((replay): Step => ({ kind: 'replay', ...replay })),
  },
  outOfOrder: { weight: 1, arbitrary: fc.constant({ kind: 'outOfOrder' }) },
  disputeOpened: { weight: 1, arbitrary: fc.constant({ kind: 'disputeOpened' }) },
  disputeWon: { weight: 1, arbitrary: fc.constant({ kind: 'disputeWon' }) },
  disputeLost: { weight: 1, arbitrary: fc.constant({ kind: 'disputeLost' }) },
};

/** How a step reads in a counterexample. */
function describeStep(step: Step): string {
  switch (step.kind) {
    case 'seats':
      return `seats → ${step.to}`;
    case 'refund':
    case 'refundRetried': {
      const amount =
        step.amount.kind === 'share' ? `${step.amount.basisPoints / 100} % of what is left` : step.amount.kind.replace('_', ' ');
      return `${step.kind === 'refund' ? 'refund' : 'refund retried after a fault'} (${amount})`;
    }
    case 'replay':
      return `replay event #${step.pick}${step.freshId ? ' under a new id' : ''}`;
    case 'dashboardRefund':
      return `refund from the provider's Dashboard (${step.basisPoints / 100} % of what is left of payment #${step.pick})`;
    default:
      return step.kind;
  }
}

/** Whether disputes happen at all (the first payment disputed at once, besides the dispute steps). */
const DISPUTES_ON = ENABLED_STEPS.some((kind) => kind.startsWith('dispute'));

/**
 * The first payment: seats bought; for the sandbox whether the card is 0341 (pays now, declines later); whether the
 * buyer's bank disputes it at once (the sandbox's 0259 card, where disputes open only so; Stripe's dispute control).
 */
interface FirstPayment {
  seats: number;
  failsLater: boolean;
  disputed: boolean;
  /** The buyer is in Honolulu: the order is taxed (the sandbox's rates; the Stripe double's registrations). */
  taxed: boolean;
}
export const firstPayment: fc.Arbitrary<FirstPayment> = fc.record({
  seats: fc.integer({ min: 1, max: 5 }),
  taxed: fc.boolean(),
  failsLater: fc.boolean(),
  disputed: fc.nat(5).map((draw) => DISPUTES_ON && draw === 0),
});

// --- The provider's truth and the app's view ---

/** One payment the provider took, in cents, with what it refunded and lost to disputes on it. */
interface ProviderPayment {
  /** What a refund or dispute names: the PaymentIntent (Stripe; the sandbox's first payment) or the sandbox's invoice. */
  paymentId: string;
  invoiceId: string;
  /** Paid, tax included; `taxCents` the tax in it. */
  amountCents: number;
  taxCents: number;
  refundedCents: number;
  disputeLostCents: number;
}

/** The subscription as the provider holds it now. */
interface ProviderTruth {
  status: string;
  quantity: number;
  cancelScheduled: boolean;
  /** Oldest first. */
  payments: ProviderPayment[];
}

/** What the test did and saw, for the checks. */
interface Model {
  /** The provider's step kinds that cannot happen (ProviderDriver.unsupported). */
  unsupported: readonly StepKind[];
  /** Sum of the refunds the app accepted, in cents. */
  refundsAcceptedCents: number;
  /** Payment ids seen paid, and the seats the latest one paid for. */
  seenPayments: Set<string>;
  paidSeats: number;
  /** The provider reported `unpaid` at some point. */
  sawUnpaid: boolean;
  /** The order or its subscription has ended (steps that need a live subscription are not generated). */
  ended: boolean;
  pastDue: boolean;
  /** Stripe: deliver the next step's events in reverse order. */
  reverseNextDelivery: boolean;
}

/** The figures the bench prints. */
export interface MoneyStats {
  sequences: number;
  steps: number;
  checks: number;
  /** Checks that would have failed, by invariant, while off (ENFORCED_INVARIANTS). */
  failedWhileOff: Partial<Record<InvariantName, number>>;
}
export const newStats = (): MoneyStats => ({ sequences: 0, steps: 0, checks: 0, failedWhileOff: {} });

/** An order under test and the provider's means to act on it. */
interface Real {
  driver: ProviderDriver;
  session: SubscriptionSession;
}

/** What each provider does for a step that the app does not do itself (the clock, the card, the Dashboard). */
export interface ProviderDriver {
  readonly name: 'sandbox' | 'stripe';
  readonly server: TestServer;
  /** Opens a referred checkout of `first.seats`, pays it and finalizes it; returns the session. */
  buy(first: FirstPayment): Promise<SubscriptionSession>;
  /** The period ends: the renewal is charged to the card on file (`declines`: the card declines from now). */
  periodEnds(session: SubscriptionSession, declines: boolean): Promise<void>;
  /** The provider tries the open invoice again (Stripe's Smart Retries; the sandbox's next retry). */
  retry(session: SubscriptionSession): Promise<void>;
  /** The buyer puts on a card that pays. */
  newCard(session: SubscriptionSession): Promise<void>;
  /** The provider gives up on a past-due subscription (Stripe: `unpaid`; the sandbox: retries exhausted). */
  unpaid(session: SubscriptionSession): Promise<void>;
  /** The step kinds this provider cannot run (nothing the buyer or owner could do there). */
  readonly unsupported: readonly StepKind[];
  /**
   * A refund made at the provider, not from the console (Stripe's Dashboard): `basisPoints` of what is left of the
   * `pick`-th payment that has something left. Answers the cents refunded (0 when nothing was left).
   */
  dashboardRefund(session: SubscriptionSession, pick: number, basisPoints: number): Promise<number>;
  /** The next refund's answer is lost after the provider made it (a fault the owner retries). */
  faultNextRefund(): void;
  /**
   * `opened`: the bank disputes the newest payment nothing was refunded or disputed of (Stripe only; the sandbox's
   * disputes open with the 0259 card's first payment); `won`/`lost`: the oldest open dispute is decided.
   */
  dispute(session: SubscriptionSession, stage: 'opened' | 'won' | 'lost'): Promise<void>;
  /** Delivers what the provider reported and the app has not heard yet; reversed for out-of-order delivery. */
  deliverPending(reversed: boolean): Promise<void>;
  /** Reports an event the app already heard again (`freshId`: under a new id, as a late or repeated report). */
  replay(pick: number, freshId: boolean): Promise<void>;
  truth(session: SubscriptionSession): Promise<ProviderTruth>;
  /** Ends the sequence: nothing of this order runs in the next sequence's clock moves. */
  retire(session: SubscriptionSession): Promise<void>;
}

const BUYER = { name: 'Ada Palmer', email: 'ada@example.com' };
const DAY_SECONDS = 24 * 60 * 60;

/** The referral cookie of the sample referrer's link, so every order earns a commission. */
async function referralCookie(server: TestServer): Promise<string> {
  const link = await server.app.inject({ method: 'GET', url: '/r/sample' });
  const cookie = link.cookies.find((each) => each.name === 'referral');
  if (!cookie) throw new Error(`GET /r/sample set no referral cookie (${link.statusCode})`);
  return `referral=${cookie.value}`;
}

async function openReferredCheckout(server: TestServer, seats: number): Promise<SubscriptionSession> {
  const opened = await server.post('/api/create-anon-subscription-intent', createBody(seats), { cookie: await referralCookie(server) });
  if (opened.statusCode !== 200) throw new Error(`create answered ${opened.statusCode}: ${opened.body}`);
  return opened.json<SubscriptionSession>();
}

async function finalizeOrder(server: TestServer, session: SubscriptionSession): Promise<void> {
  const finalized = await server.post('/api/finalize-anon-subscription', {
    subscriptionId: session.subscriptionId,
    customerId: session.customerId,
    transactionId: session.transactionId,
    ...BUYER,
  });
  if (finalized.statusCode !== 200 || !finalized.json<FinalizeResponse>().success)
    throw new Error(`finalize answered ${finalized.statusCode}: ${finalized.body}`);
}

/** The location step with a Honolulu ZIP (decision 0071): the order's session replaced by a taxed one. */
async function locateInHonolulu(server: TestServer, session: SubscriptionSession): Promise<SubscriptionSession> {
  const located = await server.post('/api/locate-anon-subscription', locateBody(session, '96813'));
  if (located.statusCode !== 200) throw new Error(`locate answered ${located.statusCode}: ${located.body}`);
  return { ...session, ...located.json<Partial<SubscriptionSession>>() };
}

// --- The sandbox ---

/**
 * The sandbox, with every PaymentEvent its operations answer recorded (for replays): `wrap` goes to
 * startTestServer's wrapProvider.
 */
export function sandboxRecorder() {
  const events: PaymentEvent[] = [];
  let loseNextRefund = false;
  const recorded = <T extends { ok: true; events: PaymentEvent[] } | { ok: false }>(result: T): T => {
    if (result.ok) events.push(...result.events);
    return result;
  };
  const wrap = (sandbox: PaymentProvider): PaymentProvider => ({
    ...sandbox,
    scheduleCancel: async (...args) => recorded(await sandbox.scheduleCancel(...args)),
    undoCancel: async (...args) => recorded(await sandbox.undoCancel(...args)),
    endNow: async (...args) => recorded(await sandbox.endNow(...args)),
    changeSeats: async (...args) => recorded(await sandbox.changeSeats(...args)),
    async replaceCard(input) {
      const replaced = await sandbox.replaceCard(input);
      if (replaced.kind === 'replaced') events.push(...replaced.events);
      return replaced;
    },
    async refund(input) {
      const refunded = recorded(await sandbox.refund(input));
      if (loseNextRefund && refunded.ok) {
        loseNextRefund = false;
        throw new Error('The refund’s answer was lost (injected fault)');
      }
      return refunded;
    },
  });
  return {
    events,
    wrap,
    loseNextRefund() {
      loseNextRefund = true;
    },
  };
}

export function sandboxDriver(server: TestServer, recorder: ReturnType<typeof sandboxRecorder>): ProviderDriver {
  const { db } = server;
  const context = () => server.context();
  let replays = 0;

  async function runClock(seconds: number): Promise<void> {
    if (!(await advanceSandboxClock(db, seconds))) throw new Error('the sandbox clock reached its horizon');
    const events = await renewDueSandboxSubscriptions(db);
    recorder.events.push(...events);
    await applyPaymentEvents(context(), events);
  }
  const row = async (session: SubscriptionSession) =>
    (await db.select().from(sandboxSubscriptions).where(eq(sandboxSubscriptions.id, session.subscriptionId)))[0]!;

  return {
    name: 'sandbox',
    server,
    // The sandbox's refunds are made from the console only.
    unsupported: ['dashboardRefund', 'disputeOpened'],
    dashboardRefund: () => Promise.reject(new Error('The sandbox has no Dashboard')),
    async buy(first) {
      // Each sequence starts the clock at today: thousands of sequences would otherwise carry it past its horizon
      // (SANDBOX_CLOCK_MAX_SECONDS); the sequences before are retired, so nothing of theirs runs again.
      await db.update(sandboxClock).set({ offsetSeconds: 0 });
      const opened = await openReferredCheckout(server, first.seats);
      const session = first.taxed ? await locateInHonolulu(server, opened) : opened;
      const card = first.disputed ? '4000 0000 0000 0259' : first.failsLater ? '4000 0000 0000 0341' : TEST_CARDS.succeeds;
      const paid = await server.post('/api/sandbox/payment-intents/confirm', confirmBody(session.clientSecret, card, BUYER));
      if (paid.statusCode !== 200) throw new Error(`payment answered ${paid.statusCode}: ${paid.body}`);
      await finalizeOrder(server, session);
      return session;
    },
    async periodEnds(session, declines) {
      if (declines)
        await db
          .update(sandboxSubscriptions)
          .set({ cardBehaviour: 'fails_later' })
          .where(eq(sandboxSubscriptions.id, session.subscriptionId));
      const { currentPeriodEnd } = await row(session);
      const [clock] = await db.select({ now: sql<string>`(${SANDBOX_NOW})::text` }).from(sql`(select 1) as one`);
      const seconds = Math.ceil((currentPeriodEnd!.getTime() - new Date(clock!.now).getTime()) / 1000) + 60;
      await runClock(Math.max(seconds, 60));
    },
    retry: () => runClock(DAY_SECONDS),
    async newCard(session) {
      const order = (await findOrder(db, session.transactionId))!;
      await replaceCard(context(), order, { card: confirmBody('', TEST_CARDS.succeeds).card, returnUrl: 'https://checkout.test/account' });
    },
    async unpaid(session) {
      for (let attempt = 0; attempt < 5 && (await row(session)).status === 'past_due'; attempt += 1) await runClock(DAY_SECONDS);
    },
    faultNextRefund: () => recorder.loseNextRefund(),
    async dispute(session, stage) {
      if (stage === 'opened') throw new Error('The sandbox opens disputes only with the 0259 card’s first payment');
      const [open] = await db
        .select()
        .from(sandboxDisputes)
        .where(and(eq(sandboxDisputes.subscriptionId, session.subscriptionId), eq(sandboxDisputes.status, 'needs_response')))
        .orderBy(asc(sandboxDisputes.createdAt));
      if (!open) return;
      const closed = await server.post(`/api/sandbox/disputes/${open.id}/close`, { outcome: stage });
      if (closed.statusCode !== 200) throw new Error(`closing dispute ${open.id} answered ${closed.statusCode}: ${closed.body}`);
    },
    // The sandbox's answers are applied by the app as they come; nothing waits.
    deliverPending: () => Promise.resolve(),
    async replay(pick, freshId) {
      const event = recorder.events[pick % Math.max(recorder.events.length, 1)];
      if (!event) return;
      replays += 1;
      const replayed = freshId ? { ...event, eventId: `${event.eventId}:replayed:${replays}` } : event;
      const applied = await applyPaymentEvent(context(), replayed);
      if (!applied.ok) throw new Error(`replayed ${replayed.eventId} refused: ${applied.refusal}`);
    },
    async truth(session) {
      const subscription = await row(session);
      const renewals = await db
        .select()
        .from(sandboxInvoices)
        .where(and(eq(sandboxInvoices.subscriptionId, subscription.id), eq(sandboxInvoices.status, 'paid')))
        .orderBy(asc(sandboxInvoices.createdAt));
      const refunds = await db.select().from(sandboxRefunds).where(eq(sandboxRefunds.subscriptionId, subscription.id));
      const refunded = (paymentId: string) =>
        refunds.filter((refund) => refund.paymentId === paymentId).reduce((sum, refund) => sum + refund.amountCents, 0);
      const disputes = await db.select().from(sandboxDisputes).where(eq(sandboxDisputes.subscriptionId, subscription.id));
      // An open dispute's amount is withdrawn at once, a lost one's kept by the bank; a won one's comes back.
      const disputed = (paymentId: string) =>
        disputes
          .filter((dispute) => dispute.paymentId === paymentId && dispute.status !== 'won')
          .reduce((sum, dispute) => sum + dispute.amountCents, 0);
      const payments: ProviderPayment[] = [
        {
          paymentId: subscription.paymentIntentId,
          invoiceId: firstInvoiceId(subscription.id),
          amountCents: subscription.amountPaidCents,
          taxCents: subscription.taxCents,
        },
        ...renewals.map((invoice) => ({
          paymentId: invoice.id,
          invoiceId: invoice.id,
          amountCents: invoice.amountCents,
          taxCents: invoice.taxCents,
        })),
      ]
        // A renewal the seats' credit paid in full charged nothing: no payment.
        .filter((payment) => payment.amountCents > 0)
        .map((payment) => ({ ...payment, refundedCents: refunded(payment.paymentId), disputeLostCents: disputed(payment.paymentId) }));
      return {
        status: subscription.status,
        quantity: subscription.quantity,
        cancelScheduled: subscription.cancelAtPeriodEnd,
        payments,
      };
    },
    async retire(session) {
      recorder.events.length = 0;
      await db
        .update(sandboxSubscriptions)
        .set({ status: 'canceled' })
        .where(and(eq(sandboxSubscriptions.id, session.subscriptionId), inArray(sandboxSubscriptions.status, ['active', 'past_due'])));
    },
  };
}

// --- Stripe (the stateful double and its webhooks) ---

export function stripeDriver(server: TestServer, stripe: StatefulStripe): ProviderDriver {
  const client = createStripeClient({ secretKey: TEST_SECRET_KEY, apiBase: stripe.url });
  let delivered = stripe.events.length;
  const heard: Record<string, unknown>[] = [];
  let loseNextRefund = false;
  /** The disputes the bank opened in this sequence, oldest first (the double's ids). */
  const disputeIds: string[] = [];

  /**
   * What disputes took of a payment, in cents (Stripe's GET /v1/disputes/:id): open ones (Stripe withdraws the
   * amount at once) and lost ones; a won dispute gives it back, an inquiry (`warning_*`) takes nothing.
   */
  async function lostToDisputes(paymentIntentId: string): Promise<number> {
    const disputes = await Promise.all(disputeIds.map((id) => client.disputes.retrieve(id)));
    return disputes
      .filter((dispute) => dispute.payment_intent === paymentIntentId)
      .filter((dispute) => dispute.status !== 'won' && !dispute.status.startsWith('warning'))
      .reduce((sum, dispute) => sum + dispute.amount, 0);
  }

  async function send(event: Record<string, unknown>): Promise<void> {
    const response = await deliver(server, event);
    if (response.statusCode !== 200) throw new Error(`webhook ${String(event.type)} answered ${response.statusCode}: ${response.body}`);
  }
  const subscriptionOf = (session: SubscriptionSession) => stripe.subscription(session.subscriptionId)!;

  return {
    name: 'stripe',
    server,
    unsupported: [],
    async dashboardRefund(session, pick, basisPoints) {
      // The Dashboard offers no refund of a charge a dispute holds (Stripe refuses it: `charge_disputed`).
      const open = (await this.truth(session)).payments.filter(
        (payment) => payment.amountCents > payment.refundedCents && payment.disputeLostCents === 0,
      );
      const payment = open[pick % Math.max(open.length, 1)];
      if (!payment) return 0;
      const amount = Math.max(1, Math.floor(((payment.amountCents - payment.refundedCents) * basisPoints) / 10_000));
      await client.refunds.create({ payment_intent: payment.paymentId, amount });
      return amount;
    },
    async buy(first) {
      delivered = stripe.events.length;
      heard.length = 0;
      const opened = await openReferredCheckout(server, first.seats);
      const session = first.taxed ? await locateInHonolulu(server, opened) : opened;
      if (!stripe.pay(session.clientSecret, BUYER)) throw new Error('the double refused the first payment');
      await finalizeOrder(server, session);
      disputeIds.length = 0;
      if (first.disputed) await this.dispute(session, 'opened');
      return session;
    },
    async periodEnds(session, declines) {
      const subscription = subscriptionOf(session);
      if (declines) {
        const method = subscription.default_payment_method ?? stripe.customer(subscription.customer)!.default_payment_method;
        if (method) stripe.declineFromNow(method);
      }
      // Stripe ends a subscription at its `cancel_at` instead of renewing it.
      if (subscription.cancel_at !== null && subscription.cancel_at <= subscription.current_period_end)
        stripe.cancel(session.subscriptionId);
      else stripe.renew(session.subscriptionId);
    },
    async retry(session) {
      const invoice = stripe.invoiceOf(session.subscriptionId);
      if (invoice?.status === 'open' && invoice.billing_reason === 'subscription_cycle') stripe.retry(invoice.id);
    },
    async newCard(session) {
      stripe.portalUpdateCard(session.customerId, BUYER);
    },
    async unpaid(session) {
      if (subscriptionOf(session).status === 'past_due') stripe.setStatus(session.subscriptionId, 'unpaid');
    },
    faultNextRefund() {
      loseNextRefund = true;
      // The refund is made; cancelling the subscription after it fails.
      stripe.failNext('DELETE', /^\/v1\/subscriptions\//);
    },
    async dispute(session, stage) {
      if (stage === 'opened') {
        const payments = (await this.truth(session)).payments;
        const open = payments.filter((payment) => payment.refundedCents === 0 && payment.disputeLostCents === 0);
        const newest = open.at(-1);
        if (newest && !disputeIds.some((id) => stripe.disputeOf(id)?.payment_intent === newest.paymentId))
          disputeIds.push(stripe.dispute(newest.paymentId));
        return;
      }
      const open = disputeIds.find((id) => ['needs_response', 'under_review'].includes(stripe.disputeOf(id)!.status));
      if (open) stripe.closeDispute(open, stage);
    },
    async deliverPending(reversed) {
      // What the app does on hearing an event (paying the open renewal after a new card) makes more events: Stripe
      // sends those too, so delivery goes on until nothing is left.
      while (delivered < stripe.events.length) {
        const pending = stripe.events.slice(delivered) as unknown as Record<string, unknown>[];
        delivered = stripe.events.length;
        for (const event of reversed ? pending.reverse() : pending) {
          await send(event);
          heard.push(event);
        }
      }
      if (loseNextRefund) loseNextRefund = false;
    },
    async replay(pick, freshId) {
      const event = heard[pick % Math.max(heard.length, 1)];
      if (!event) return;
      await send(freshId ? { ...event, id: `evt_replayed_${randomUUID().replace(/-/g, '')}` } : event);
    },
    async truth(session) {
      const subscription = subscriptionOf(session);
      const invoices = await client.invoices.list({
        subscription: session.subscriptionId,
        status: 'paid',
        limit: 100,
        expand: ['data.payments'],
      });
      const payments: ProviderPayment[] = [];
      // A seat decrease's invoice is paid with nothing charged (a credit): no payment.
      for (const invoice of [...invoices.data].reverse().filter((each) => each.amount_paid > 0)) {
        const intentId = invoice.payments?.data[0]?.payment.payment_intent;
        if (typeof intentId !== 'string') throw new Error(`invoice ${invoice.id} names no PaymentIntent`);
        const intent = await client.paymentIntents.retrieve(intentId, { expand: ['latest_charge'] });
        const charge = intent.latest_charge as Stripe.Charge | null;
        payments.push({
          paymentId: intentId,
          invoiceId: invoice.id,
          amountCents: invoice.amount_paid,
          taxCents: taxInPayment(invoice),
          refundedCents: charge?.amount_refunded ?? 0,
          disputeLostCents: await lostToDisputes(intentId),
        });
      }
      return {
        status: subscription.status,
        quantity: subscription.quantity,
        cancelScheduled: subscription.cancel_at !== null || subscription.cancel_at_period_end,
        payments,
      };
    },
    async retire() {
      delivered = stripe.events.length;
    },
  };
}

/**
 * The tax in what a Stripe invoice charged, in cents: its `total_taxes`, less the tax share of the credit balance it
 * took (a seat decrease's credit carried its own tax), split in proportion to the amount as Stripe Tax splits money
 * against tax ("Refunds and credit notes"; docs/decisions/0077).
 */
function taxInPayment(invoice: Stripe.Invoice): number {
  const tax = (invoice.total_taxes ?? []).reduce((sum, each) => sum + each.amount, 0);
  if (invoice.amount_paid >= invoice.total) return tax;
  return refundedTaxCents(invoice.amount_paid, invoice.total, tax);
}

// --- The checks ---

interface AppView {
  order: Order;
  /** The console's money collected for the order: its paid, renewal_paid and proration_paid events less refunds. */
  collectedCents: number;
  refundsByPayment: Map<string, number>;
  /** The tax share each refunded payment's refunds returned, as the order records it (order_refunds), in cents. */
  refundTaxByPayment: Map<string, number>;
  /** The tax recorded for the order (the sum of its tax_records), in cents. */
  taxRecordedCents: number;
  /** What the order records the bank holding, by payment: open and lost disputes, in cents. */
  disputedByPayment: Map<string, number>;
  commissions: (typeof commissionEntries.$inferSelect)[];
}

async function appView(server: TestServer, transactionId: string): Promise<AppView> {
  const order = (await findOrder(server.db, transactionId))!;
  const events = await server.db.select().from(funnelEvents).where(eq(funnelEvents.transactionId, transactionId));
  const cents = (event: (typeof events)[number]) => Number((event.detail as { amountCents?: number } | null)?.amountCents ?? 0);
  const collectedCents = events.reduce(
    (sum, event) =>
      sum +
      (['paid', 'renewal_paid', 'proration_paid'].includes(event.type) ? cents(event) : event.type === 'refunded' ? -cents(event) : 0),
    0,
  );
  const refunds = await server.db.select().from(orderRefunds).where(eq(orderRefunds.transactionId, transactionId));
  const disputes = await server.db.select().from(orderDisputes).where(eq(orderDisputes.transactionId, transactionId));
  const disputedByPayment = new Map<string, number>();
  for (const dispute of disputes.filter((each) => each.outcome !== 'won'))
    disputedByPayment.set(dispute.paymentId, (disputedByPayment.get(dispute.paymentId) ?? 0) + dispute.amountCents);
  const commissions = await server.db
    .select()
    .from(commissionEntries)
    .where(eq(commissionEntries.transactionId, transactionId))
    .orderBy(asc(commissionEntries.id));
  const [tax] = await server.db
    .select({ cents: sql<number>`coalesce(sum(${taxRecords.taxCents}), 0)::int` })
    .from(taxRecords)
    .where(eq(taxRecords.transactionId, transactionId));
  return {
    order,
    collectedCents,
    refundsByPayment: new Map(refunds.map((refund) => [refund.paymentId, refund.refundedCents])),
    refundTaxByPayment: new Map(refunds.map((refund) => [refund.paymentId, refund.taxCents])),
    taxRecordedCents: tax?.cents ?? 0,
    disputedByPayment,
    commissions,
  };
}

/** A failed check: which invariant, and what differs. */
class InvariantBroken extends Error {
  override name = 'InvariantBroken';
  constructor(
    readonly invariant: InvariantName,
    detail: string,
  ) {
    super(`${invariant}: ${detail}`);
  }
}

/** Each invariant's failures for this truth and view (empty: all hold). Pure. */
function brokenInvariants(truth: ProviderTruth, view: AppView, model: Model): { invariant: InvariantName; detail: string }[] {
  const broken: { invariant: InvariantName; detail: string }[] = [];
  const fail = (invariant: InvariantName, detail: string) => broken.push({ invariant, detail });
  const sum = (pick: (payment: ProviderPayment) => number) => truth.payments.reduce((total, payment) => total + pick(payment), 0);
  const collected = sum((payment) => payment.amountCents);
  const refunded = sum((payment) => payment.refundedCents);
  const lost = sum((payment) => payment.disputeLostCents);
  const { order } = view;

  // The console's money collected is paid less refunded; what disputes hold is shown beside it, per order.
  const recordedDisputed = [...view.disputedByPayment.values()].reduce((total, cents) => total + cents, 0);
  if (collected - refunded - lost !== view.collectedCents - recordedDisputed)
    fail(
      'money-collected',
      `the provider kept ${collected} − ${refunded} refunded − ${lost} disputed, the console's money collected says ${view.collectedCents} − ${recordedDisputed} disputed`,
    );
  if (order.refundedCents !== refunded) fail('money', `the provider refunded ${refunded}, the order says ${order.refundedCents}`);
  for (const payment of truth.payments) {
    const known = view.refundsByPayment.get(payment.paymentId) ?? 0;
    if (known !== payment.refundedCents)
      fail('money', `payment ${payment.paymentId}: the provider refunded ${payment.refundedCents}, the order recorded ${known}`);
    const disputed = view.disputedByPayment.get(payment.paymentId) ?? 0;
    if (disputed !== payment.disputeLostCents)
      fail(
        'money',
        `payment ${payment.paymentId}: disputes hold ${payment.disputeLostCents} at the provider, the order records ${disputed}`,
      );
  }

  if (refunded !== model.refundsAcceptedCents)
    fail('refund-once', `the owner's accepted refunds total ${model.refundsAcceptedCents}, the provider refunded ${refunded}`);

  // A renewal the seats' credit paid in full charged nothing: no payment, nothing earned on it.
  const earned = view.commissions.filter((entry) => entry.kind === 'earned' && entry.invoiceCents > 0);
  if (earned.length !== truth.payments.length) fail('commission', `${truth.payments.length} payments, ${earned.length} commissions earned`);
  truth.payments.forEach((payment, index) => {
    const entry = earned.find((each) => each.paymentId === payment.paymentId || each.invoiceId === payment.invoiceId);
    // Commissions are on the amount before tax, and a refund takes back only on its part before tax (decision 0074).
    const beforeTax = payment.amountCents - payment.taxCents;
    const refundedBeforeTax = payment.refundedCents - refundedTaxCents(payment.refundedCents, payment.amountCents, payment.taxCents);
    const rule = commissionCents(BUILT_IN_RULE, beforeTax, 0, index + 1);
    const kept = rule - refundedShareCents(rule, beforeTax, refundedBeforeTax + payment.disputeLostCents);
    if (!entry) return fail('commission', `payment ${payment.paymentId} (${payment.amountCents}) earned nothing`);
    const net =
      entry.amountCents +
      view.commissions.filter((each) => each.reverses === entry.id).reduce((total, each) => total + each.amountCents, 0);
    if (entry.amountCents !== rule || net !== kept)
      fail(
        'commission',
        `payment ${payment.paymentId} (${payment.amountCents}, ${payment.refundedCents} refunded): earned ${entry.amountCents} kept ${net}, the rule says ${rule} kept ${kept}`,
      );
  });

  // Tax: charged less the refunds' shares, as recorded, never below 0; each refund keeps its share.
  const taxCharged = order.taxState === null ? 0 : sum((payment) => payment.taxCents);
  const taxReturned = sum((payment) => refundedTaxCents(payment.refundedCents, payment.amountCents, payment.taxCents));
  if (view.taxRecordedCents !== taxCharged - taxReturned || view.taxRecordedCents < 0)
    fail('tax', `the provider charged ${taxCharged} tax and returned ${taxReturned}, the record holds ${view.taxRecordedCents}`);
  for (const payment of truth.payments) {
    const share = refundedTaxCents(payment.refundedCents, payment.amountCents, payment.taxCents);
    const kept = view.refundTaxByPayment.get(payment.paymentId) ?? 0;
    if (kept !== share) fail('tax', `payment ${payment.paymentId}: its refunds return ${share} tax, the order's refund keeps ${kept}`);
  }

  const live = order.status === 'paid' || order.status === 'past_due';
  // Compared by what the seats cost: the second seat is free (src/domain/pricing.ts), so 1 → 2 charges nothing.
  if (live && monthlyTotalCents(order.quantity) > monthlyTotalCents(model.paidSeats))
    fail('seats-paid', `the order holds ${order.quantity} seats, the latest payment paid for ${model.paidSeats}`);

  const expected: Record<string, Order['status'][]> = {
    active: ['paid'],
    past_due: ['past_due'],
    canceled: ['cancelled'],
    // Either way of settling `unpaid` (docs/decisions) leaves the order not paid while Stripe says unpaid.
    unpaid: ['past_due', 'cancelled'],
  };
  const settled = !model.sawUnpaid || order.status !== 'cancelled';
  if (!(expected[truth.status] ?? []).includes(order.status)) {
    if (settled) fail('state-agrees', `the provider's subscription is ${truth.status}, the order ${order.status}`);
    else fail('unpaid-settles', `after unpaid the provider's subscription is ${truth.status}, the order ${order.status}`);
  }
  if (order.status !== 'cancelled') {
    if (order.quantity !== truth.quantity) fail('state-agrees', `the provider has ${truth.quantity} seats, the order ${order.quantity}`);
    if ((order.cancelAt !== null) !== truth.cancelScheduled)
      fail(
        'state-agrees',
        `the provider ${truth.cancelScheduled ? 'has' : 'has no'} cancellation scheduled, the order ${order.cancelAt ? 'has' : 'has none'}`,
      );
  } else if (truth.status === 'unpaid' && model.sawUnpaid) {
    fail('unpaid-settles', 'the order ended while its Stripe subscription stays unpaid (not terminal: the buyer may still pay)');
  }
  return broken;
}

/** Reads the truth and the view, notes new payments in the model, and throws on an enforced invariant. */
async function check(real: Real, model: Model, stats: MoneyStats): Promise<void> {
  const truth = await real.driver.truth(real.session);
  for (const payment of truth.payments) {
    if (model.seenPayments.has(payment.paymentId)) continue;
    model.seenPayments.add(payment.paymentId);
    model.paidSeats = truth.quantity;
  }
  if (truth.status === 'unpaid') model.sawUnpaid = true;
  const view = await appView(real.driver.server, real.session.transactionId);
  model.ended = truth.status === 'canceled' || view.order.status === 'cancelled';
  model.pastDue = truth.status === 'past_due';
  const broken = brokenInvariants(truth, view, model);
  stats.checks += ALL_INVARIANTS.length;
  for (const { invariant, detail } of broken) {
    if (ENFORCED_INVARIANTS.includes(invariant)) throw new InvariantBroken(invariant, detail);
    stats.failedWhileOff[invariant] = (stats.failedWhileOff[invariant] ?? 0) + 1;
  }
}

// --- Running a step ---

/** The owner id refunds are made as. */
const OWNER_ID = 'money-invariants-owner';

async function refund(real: Real, model: Model, amount: RefundAmount, faulty: boolean): Promise<void> {
  const { driver, session } = real;
  const before = await driver.truth(session);
  const left = before.payments.reduce((sum, payment) => sum + payment.amountCents - payment.refundedCents - payment.disputeLostCents, 0);
  const amountCents =
    amount.kind === 'all'
      ? undefined
      : amount.kind === 'too_much'
        ? left + 1
        : Math.max(1, Math.floor((left * amount.basisPoints) / 10_000));
  // The console's refund statechart keeps one request key per refund the owner confirms, and sends it again on retry.
  const requestKey = randomUUID();
  const ask = () =>
    refundOrder(driver.server.context(), { transactionId: session.transactionId, amountCents, ownerId: OWNER_ID, requestKey });
  // The fault: the provider refunds and its answer is lost (the sandbox), or the step after it (ending the
  // subscription) fails (Stripe); only where both run.
  if (faulty && amount.kind !== 'too_much' && left > 0 && before.status !== 'canceled') {
    driver.faultNextRefund();
    const first = await ask().then(
      (answer) => answer,
      () => null,
    );
    await driver.deliverPending(false);
    // The owner sees an error and asks again for the same refund, which must be made once.
    if (first === null) await ask().catch(() => undefined);
    if (first === null || first.ok) model.refundsAcceptedCents += amountCents ?? left;
    return;
  }
  const result = await ask();
  if (result.ok) model.refundsAcceptedCents += amountCents ?? left;
}

async function runStep(real: Real, model: Model, step: Step): Promise<void> {
  const { driver, session } = real;
  const context = driver.server.context();
  const order = async () => (await findOrder(driver.server.db, session.transactionId))!;
  const reversed = model.reverseNextDelivery;
  model.reverseNextDelivery = false;
  switch (step.kind) {
    case 'renew':
      await driver.periodEnds(session, false);
      break;
    case 'renewDeclined':
      await driver.periodEnds(session, true);
      break;
    case 'retry':
      await driver.retry(session);
      break;
    case 'newCard':
      await driver.newCard(session);
      break;
    case 'seats':
      await changeSeats(context, await order(), step.to);
      break;
    case 'cancelAtPeriodEnd':
      await cancelAtPeriodEnd(context, await order(), 'Trying the model');
      break;
    case 'undo':
      await undoCancellation(context, await order());
      break;
    case 'cancelNow':
      await runOrderAction(context, session.transactionId, 'cancel_now');
      break;
    case 'refund':
    case 'refundRetried':
      await refund(real, model, step.amount, step.kind === 'refundRetried');
      break;
    case 'dashboardRefund':
      model.refundsAcceptedCents += await driver.dashboardRefund(session, step.pick, step.basisPoints);
      break;
    case 'unpaid':
      await driver.unpaid(session);
      break;
    case 'replay':
      await driver.replay(step.pick, step.freshId);
      break;
    case 'outOfOrder':
      model.reverseNextDelivery = true;
      break;
    case 'disputeOpened':
      await driver.dispute(session, 'opened');
      break;
    case 'disputeWon':
      await driver.dispute(session, 'won');
      break;
    case 'disputeLost':
      await driver.dispute(session, 'lost');
      break;
  }
  await driver.deliverPending(reversed);
}

/** Whether `step` can happen to an order in the model's state (an ended order only hears refunds and replays). */
function possible(step: Step, model: Readonly<Model>): boolean {
  if (model.unsupported.includes(step.kind)) return false;
  if (model.ended) return ['refund', 'refundRetried', 'dashboardRefund', 'replay'].includes(step.kind) || step.kind.startsWith('dispute');
  if (step.kind === 'retry' || step.kind === 'unpaid') return model.pastDue;
  if (step.kind === 'renew' || step.kind === 'renewDeclined') return !model.pastDue;
  return true;
}

class StepCommand implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly step: Step,
    private readonly stats: MoneyStats,
  ) {}
  check(model: Readonly<Model>): boolean {
    return possible(this.step, model);
  }
  async run(model: Model, real: Real): Promise<void> {
    this.stats.steps += 1;
    await runStep(real, model, this.step);
    await check(real, model, this.stats);
  }
  toString(): string {
    return describeStep(this.step);
  }
}

/** The commands fast-check draws: the enabled step kinds, at most `maxSteps` of them after the first payment. */
export function stepCommands(stats: MoneyStats, maxSteps: number) {
  // fc.commands takes a list of arbitraries, drawn alike: a step's weight repeats it in the list.
  const arbitraries = ENABLED_STEPS.flatMap((kind) => {
    const { weight, arbitrary } = STEP_ARBITRARIES[kind];
    const command = arbitrary.map((step) => new StepCommand(step, stats));
    return Array.from({ length: weight }, () => command);
  });
  return fc.commands(arbitraries, { maxCommands: maxSteps, size: 'max' });
}

/** One sequence: the first payment, then `commands`, checked after the payment and after every step. */
export async function runSequence(
  driver: ProviderDriver,
  first: FirstPayment,
  commands: Iterable<fc.AsyncCommand<Model, Real>>,
  stats: MoneyStats,
): Promise<void> {
  stats.sequences += 1;
  const session = await driver.buy(first);
  const real: Real = { driver, session };
  const model: Model = {
    unsupported: driver.unsupported,
    refundsAcceptedCents: 0,
    seenPayments: new Set(),
    paidSeats: first.seats,
    sawUnpaid: false,
    ended: false,
    pastDue: false,
    reverseNextDelivery: false,
  };
  try {
    await driver.deliverPending(false);
    await check(real, model, stats);
    await fc.asyncModelRun(() => ({ model, real }), commands);
  } finally {
    await driver.retire(session);
  }
}
