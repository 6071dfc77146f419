/**
 * The success-page statechart (spec §2 "Payment-success page", §4 "Success page", §8 toasts): reads the stored
 * payment record, shows it, copies credentials, and hands the buyer on to the success site with the token; once
 * handed off, the page points to /account for the team instead of using the token (docs/decisions/0053).
 * A record without credentials (finalize mailed a sign-in link instead, docs/decisions/0026) has nothing to copy
 * and no token: the page says where to get in.
 * After a 3-D Secure redirect return there is no stored record: the address's PaymentIntent
 * parameters, given as input, finalize the order and the answer is stored as the record.
 * With neither, a buyer whose purchase this browser remembers (src/api/pendingPayment.ts, decision 0007) is sent to
 * /account instead of the checkout; only a visitor with no known purchase gets spec §8's 'No Payment Data'.
 * No DOM here: storage, clipboard and navigation are invoked actors or emitted events; the page passes the
 * address's query string as input.
 * Every action and guard is named in the chart, without params: the invoked actors have ids, and their done
 * events are typed below, so an action reads its event's output itself (Stately draws each of them).
 */
import { assertEvent, assign, emit, fromPromise, setup } from 'xstate';
import { readRecentPurchase } from '../api/pendingPayment';
import {
  clearPaymentRecord,
  readPaymentRecord,
  savePaymentRecord,
  type PaymentRecordReading,
  type PaymentSuccessRecord,
} from '../api/paymentRecord';
import { finalizeFromPaymentReturn, readPaymentReturn, type PaymentReturn } from '../api/paymentReturn';
import { resolveSuccessSiteUrl } from '../api/successSite';
import { copyText } from '../browser/clipboard';
import { TOASTS, type ToastMessage } from './toasts';

/** Which credential a copy button copies. */
export type CredentialField = 'email' | 'password';

/** The page's query string (`location.search`); absent in tests that do not care. */
interface PaymentSuccessInput {
  search?: string;
}

interface PaymentSuccessContext {
  record: PaymentSuccessRecord | null;
  /** The email of a purchase this browser remembers, when there is no record to show (then the page points to /account). */
  knownPurchaseEmail: string | null;
  copyField: CredentialField;
  /** The redirect return's PaymentIntent parameters, when the address carries them. */
  paymentReturn: PaymentReturn | null;
}

/** The ids of the invoked actors: their done events are `xstate.done.actor.<id>`. */
const LOAD = 'loadPaymentRecord';
const KNOWN = 'findKnownPurchase';
const FINALIZE = 'finalizeFromPaymentReturn';
const RESOLVE = 'resolveSuccessSiteUrl';

/** The invoked actors' answers, as the actions and guards read them. */
type ActorDoneEvent =
  | { type: `xstate.done.actor.${typeof LOAD}`; output: PaymentRecordReading }
  | { type: `xstate.done.actor.${typeof KNOWN}`; output: string | null }
  | { type: `xstate.done.actor.${typeof FINALIZE}`; output: PaymentSuccessRecord }
  | { type: `xstate.done.actor.${typeof RESOLVE}`; output: string };

type PaymentSuccessEvent =
  | { type: 'COPY_CLICKED'; field: CredentialField }
  | { type: 'SIGN_AGREEMENT_CLICKED' }
  /** 'Try again' after the returned payment could not be finalized (docs/decisions/0051). */
  | { type: 'RETURN_RETRY_CLICKED' }
  | ActorDoneEvent;

export type PaymentSuccessEmitted =
  | { type: 'toast'; toast: ToastMessage }
  | { type: 'redirectRequested'; url: string }
  /** The returned payment is finalized and stored: its client secret should leave the address bar and history. */
  | { type: 'paymentReturnConsumed' };

const FIELD_LABELS: Record<CredentialField, 'Email' | 'Password'> = { email: 'Email', password: 'Password' };

/** The credential a copy button copies: the page copies only from a record with credentials (`hasCredentials`). */
const credentialText = (record: PaymentSuccessRecord | null, field: CredentialField): string => record!.loginDetails![field];

/** What a state says to the page: `loading` the record is being read or finalized; `unreadable` it could not be. */
type PaymentSuccessTag = 'loading' | 'unreadable';

export const paymentSuccessMachine = setup({
  // Stryker disable next-line ObjectLiteral: TypeScript only, XState ignores `types` at run time
  types: {
    context: {} as PaymentSuccessContext,
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- XState takes the input's type from this assertion
    input: {} as PaymentSuccessInput | undefined,
    events: {} as PaymentSuccessEvent,
    emitted: {} as PaymentSuccessEmitted,
    tags: {} as PaymentSuccessTag,
  },
  actors: {
    loadPaymentRecord: fromPromise<PaymentRecordReading>(async () => readPaymentRecord()),
    /** The email of the purchase this browser finalized in the last 24 hours, or null. */
    // Stryker disable next-line OptionalChaining: with no recent purchase `.email` throws, and the failure goes where null goes (noData, the same toast)
    findKnownPurchase: fromPromise<string | null>(async () => readRecentPurchase()?.email ?? null),
    finalizeFromPaymentReturn: fromPromise<PaymentSuccessRecord, PaymentReturn>(({ input }) => finalizeFromPaymentReturn(input)),
    copyToClipboard: fromPromise<void, { text: string }>(({ input }) => copyText(input.text)),
    resolveSuccessSiteUrl: fromPromise<string, { token: string }>(({ input }) => resolveSuccessSiteUrl(input.token)),
  },
  guards: {
    recordFound: ({ event }) => {
      assertEvent(event, `xstate.done.actor.${LOAD}`);
      return event.output.kind === 'found';
    },
    recordCorrupt: ({ event }) => {
      assertEvent(event, `xstate.done.actor.${LOAD}`);
      return event.output.kind === 'corrupt';
    },
    purchaseKnown: ({ event }) => {
      assertEvent(event, `xstate.done.actor.${KNOWN}`);
      return event.output !== null;
    },
    returnedFromRedirect: ({ context }) => context.paymentReturn !== null,
    /** Both guards run only in `ready`, which always holds a record (its token may be null or '', its credentials absent). */
    hasToken: ({ context }) => !!context.record!.token,
    hasCredentials: ({ context }) => !!context.record!.loginDetails,
  },
  actions: {
    assignRecord: assign(({ event }) => {
      assertEvent(event, `xstate.done.actor.${LOAD}`);
      // Stryker disable next-line ConditionalExpression: the action runs only after `recordFound`, so the kind is always 'found'
      return { record: event.output.kind === 'found' ? event.output.record : null };
    }),
    assignKnownPurchase: assign(({ event }) => {
      assertEvent(event, `xstate.done.actor.${KNOWN}`);
      return { knownPurchaseEmail: event.output };
    }),
    assignReturnedRecord: assign(({ event }) => {
      assertEvent(event, `xstate.done.actor.${FINALIZE}`);
      return { record: event.output };
    }),
    storeReturnedRecord: ({ event }) => {
      assertEvent(event, `xstate.done.actor.${FINALIZE}`);
      savePaymentRecord(event.output);
    },
    assignCopyField: assign({
      copyField: ({ event }) => {
        assertEvent(event, 'COPY_CLICKED');
        return event.field;
      },
    }),
    clearStoredRecord: () => clearPaymentRecord(),
    notifyNoPaymentData: emit({ type: 'toast', toast: TOASTS.noPaymentData }),
    notifyLoadFailed: emit({ type: 'toast', toast: TOASTS.loadFailed }),
    notifyNoToken: emit({ type: 'toast', toast: TOASTS.noToken }),
    notifyCopied: emit(({ context }) => ({ type: 'toast' as const, toast: TOASTS.copied(FIELD_LABELS[context.copyField]) })),
    notifyCopyFailed: emit({ type: 'toast', toast: TOASTS.copyFailed }),
    notifyRedirectFailed: emit({ type: 'toast', toast: TOASTS.redirectFailed }),
    requestRedirect: emit(({ event }) => {
      assertEvent(event, `xstate.done.actor.${RESOLVE}`);
      return { type: 'redirectRequested' as const, url: event.output };
    }),
    announcePaymentReturnConsumed: emit({ type: 'paymentReturnConsumed' }),
  },
}).createMachine({
  id: 'paymentSuccess',
  context: ({ input }) => ({
    record: null,
    knownPurchaseEmail: null,
    // Stryker disable next-line StringLiteral: every COPY_CLICKED assigns the field before the copy reads it
    copyField: 'email',
    // Stryker disable next-line StringLiteral: neither '' nor any other text without PaymentIntent parameters is a 3-D Secure return
    paymentReturn: readPaymentReturn(input?.search ?? ''),
  }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['loading'],
      invoke: {
        id: LOAD,
        src: 'loadPaymentRecord',
        onDone: [
          { guard: 'recordFound', target: 'ready', actions: 'assignRecord' },
          { guard: 'recordCorrupt', target: 'corrupt', actions: 'notifyLoadFailed' },
          { guard: 'returnedFromRedirect', target: 'finalizingReturn' },
          { target: 'checkingKnownPurchase' },
        ],
        onError: { target: 'corrupt', actions: 'notifyLoadFailed' },
      },
    },
    checkingKnownPurchase: {
      tags: ['loading'],
      invoke: {
        id: KNOWN,
        src: 'findKnownPurchase',
        onDone: [
          { guard: 'purchaseKnown', target: 'purchaseKnown', actions: 'assignKnownPurchase' },
          { target: 'noData', actions: 'notifyNoPaymentData' },
        ],
        onError: { target: 'noData', actions: 'notifyNoPaymentData' },
      },
    },
    finalizingReturn: {
      tags: ['loading'],
      invoke: {
        id: FINALIZE,
        src: 'finalizeFromPaymentReturn',
        input: ({ context }) => context.paymentReturn!,
        onDone: { target: 'ready', actions: ['storeReturnedRecord', 'assignReturnedRecord', 'announcePaymentReturnConsumed'] },
        onError: { target: 'returnFailed', actions: 'notifyLoadFailed' },
      },
    },
    noData: {},
    /** No record here, but this browser bought: the page points to /account. */
    purchaseKnown: {},
    corrupt: { tags: ['unreadable'] },
    /**
     * Finalizing the returned payment failed (the connection, the server): the buyer may have paid, so the page
     * offers 'Try again', which finalizes again; finalize is repeatable and never charges (decisions 0008, 0051).
     */
    returnFailed: {
      tags: ['unreadable'],
      on: { RETURN_RETRY_CLICKED: { target: 'finalizingReturn' } },
    },
    ready: {
      initial: 'viewing',
      on: {
        SIGN_AGREEMENT_CLICKED: [{ guard: 'hasToken', target: 'redirecting' }, { actions: 'notifyNoToken' }],
      },
      states: {
        viewing: {
          on: { COPY_CLICKED: { guard: 'hasCredentials', target: 'copying', actions: 'assignCopyField' } },
        },
        copying: {
          invoke: {
            id: 'copyToClipboard',
            src: 'copyToClipboard',
            input: ({ context }) => ({ text: credentialText(context.record, context.copyField) }),
            onDone: { target: 'viewing', actions: 'notifyCopied' },
            onError: { target: 'viewing', actions: 'notifyCopyFailed' },
          },
        },
      },
    },
    redirecting: {
      invoke: {
        id: RESOLVE,
        src: 'resolveSuccessSiteUrl',
        // Entered only through `hasToken`: the record holds a token.
        input: ({ context }) => ({ token: context.record!.token! }),
        onDone: { target: 'handedOff', actions: ['clearStoredRecord', 'requestRedirect'] },
        onError: { target: 'ready', actions: 'notifyRedirectFailed' },
      },
    },
    /**
     * The buyer left for the agreement site with the hand-off token, which that site redeems: from then on the
     * token manages nothing (docs/decisions/0053). A page shown again (Back, the browser's page cache) links only
     * to /account, where the buyer manages the team; nothing here uses the token any more.
     */
    handedOff: {
      type: 'final',
    },
  },
});
