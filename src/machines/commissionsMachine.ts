/**
 * The console's commissions statechart (/admin/commissions): load the overview (the default rule, each
 * referrer's email, rule and balances, the payout batches) for a payout minimum, then run one change at a time:
 * the default rule, a referrer's email and rule, a payout batch created, marked paid with a reference, or voided;
 * each reloads the overview and says what it did (role=status). The calls are invoked actors
 * (src/api/commissionsApi.ts); a 401 emits `unauthorised` (the console shows its sign-in form). Money in cents.
 */
import { assertEvent, assign, fromPromise, setup } from 'xstate';
import { sessionEndedActions, sessionEndedGuards, sessionEndedTo, type SessionEndedEmitted } from './consoleSessionEnded';
import { outputOf } from './actorError';
import { failureMessage } from './failureMessage';
import { commissionsApi } from '../api/commissionsApi';
import type { CommissionRuleBody, CommissionsOverview } from '../contract/commissions';
import { DEFAULT_PAYOUT_MINIMUM_CENTS } from '../domain/commissions';

/** A change the owner asked for. */
export type CommissionChange =
  | { kind: 'defaultRule'; rule: CommissionRuleBody }
  | { kind: 'referrer'; referrerId: string; email: string | null; rule?: CommissionRuleBody | null }
  | { kind: 'createBatch'; minimumCents: number }
  | { kind: 'markPaid'; batchId: number; reference: string }
  | { kind: 'voidBatch'; batchId: number };

interface CommissionsContext {
  overview: CommissionsOverview | null;
  minimumCents: number;
  pending: CommissionChange | null;
  error: string | null;
  notice: string | null;
}

type CommissionsEvent =
  { type: 'MINIMUM_CHANGED'; minimumCents: number } | { type: 'CHANGE_REQUESTED'; change: CommissionChange } | { type: 'RELOAD' };

type CommissionsEmitted = SessionEndedEmitted;

const NOTICES: Record<CommissionChange['kind'], string> = {
  defaultRule: 'The default rule is saved; it applies to invoices paid from now on.',
  referrer: 'The referrer’s email and rule are saved; the rule applies to invoices paid from now on.',
  createBatch: 'Payout batch created: download its file, pay it, then mark it paid.',
  markPaid: 'The batch is marked paid; each referrer gets a mail.',
  voidBatch: 'The batch is voided; its commissions are payable again.',
};

/** The change's call. */
function callFor(change: CommissionChange): Promise<unknown> {
  switch (change.kind) {
    case 'defaultRule':
      return commissionsApi.setDefaultRule(change.rule);
    case 'referrer':
      // A rule left undefined is left out of the JSON body: the referrer keeps the current one.
      return commissionsApi.setReferrer(change.referrerId, { email: change.email, rule: change.rule });
    case 'createBatch':
      return commissionsApi.createBatch(change.minimumCents);
    case 'markPaid':
      return commissionsApi.markPaid(change.batchId, change.reference);
    case 'voidBatch':
      return commissionsApi.voidBatch(change.batchId);
  }
}

export const commissionsMachine = setup({
  // Stryker disable next-line ObjectLiteral: TypeScript-only, XState ignores `types` at run time
  types: {
    context: {} as CommissionsContext,
    events: {} as CommissionsEvent,
    emitted: {} as CommissionsEmitted,
    tags: {} as 'busy',
  },
  actors: {
    loadOverview: fromPromise<CommissionsOverview, { minimumCents: number }>(({ input }) => commissionsApi.overview(input.minimumCents)),
    applyChange: fromPromise<unknown, CommissionChange>(({ input }) => callFor(input)),
  },
  guards: sessionEndedGuards,
  actions: {
    ...sessionEndedActions<CommissionsContext, CommissionsEvent>(),
    assignOverview: assign(({ event }) => ({ overview: outputOf<CommissionsOverview>(event), error: null })),
    assignError: assign(({ event }) => ({ error: failureMessage(event), notice: null })),
    assignMinimum: assign({
      minimumCents: ({ event }) => {
        assertEvent(event, 'MINIMUM_CHANGED');
        return event.minimumCents;
      },
    }),
    assignChange: assign({
      pending: ({ event }) => {
        assertEvent(event, 'CHANGE_REQUESTED');
        return event.change;
      },
      error: null,
      notice: null,
    }),
    // Runs only as `changing` ends, which is entered with the change assigned.
    assignDone: assign(({ context }) => ({ notice: NOTICES[context.pending!.kind], pending: null })),
  },
}).createMachine({
  id: 'commissions',
  context: { overview: null, minimumCents: DEFAULT_PAYOUT_MINIMUM_CENTS, pending: null, error: null, notice: null },
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadOverview',
        src: 'loadOverview',
        input: ({ context }) => ({ minimumCents: context.minimumCents }),
        onDone: { target: 'ready', actions: 'assignOverview' },
        onError: [sessionEndedTo('signedOut'), { target: 'failed', actions: 'assignError' }],
      },
    },
    failed: {
      on: { RELOAD: 'loading' },
    },
    ready: {
      on: {
        MINIMUM_CHANGED: { target: 'loading', actions: 'assignMinimum' },
        CHANGE_REQUESTED: { target: 'changing', actions: 'assignChange' },
        RELOAD: 'loading',
      },
    },
    changing: {
      tags: ['busy'],
      invoke: {
        id: 'applyChange',
        src: 'applyChange',
        input: ({ context }) => context.pending!,
        onDone: { target: 'loading', actions: 'assignDone' },
        onError: [sessionEndedTo('signedOut'), { target: 'ready', actions: 'assignError' }],
      },
    },
    signedOut: { type: 'final' },
  },
});
