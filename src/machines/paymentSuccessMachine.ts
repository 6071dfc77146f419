/**
 * The success-page statechart (spec §2 "Payment-success page", §4 "Success page", §8 toasts): reads the stored
 * payment record, shows it, copies credentials, and hands the buyer on to the success site with the token.
 * A record without credentials (finalize mailed a sign-in link instead, docs/decisions/0026) has nothing to copy
 * and no token: the page says where to get in.
 * After a 3-D Secure redirect return there is no stored record: the address's PaymentIntent
 * parameters, given as input, finalize the order and the answer is stored as the record.
 * No DOM here: storage, clipboard and navigation are invoked actors or emitted events; the page passes the
 * address's query string as input.
 */
import { assertEvent, assign, emit, fromPromise, setup } from 'xstate';
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
  copyField: CredentialField;
  /** The redirect return's PaymentIntent parameters, when the address carries them. */
  paymentReturn: PaymentReturn | null;
}

type PaymentSuccessEvent = { type: 'COPY_CLICKED'; field: CredentialField } | { type: 'SIGN_AGREEMENT_CLICKED' };

export type PaymentSuccessEmitted =
  | { type: 'toast'; toast: ToastMessage }
  | { type: 'redirectRequested'; url: string }
  /** The returned payment is finalized and stored: its client secret should leave the address bar and history. */
  | { type: 'paymentReturnConsumed' };

const FIELD_LABELS: Record<CredentialField, 'Email' | 'Password'> = { email: 'Email', password: 'Password' };

/** The credential a copy button copies; '' without credentials (the machine only copies with them). */
function credentialText(record: PaymentSuccessRecord | null, field: CredentialField): string {
  const login = record?.loginDetails;
  return (field === 'email' ? login?.email : login?.password) ?? '';
}

/** What a state says to the page: `loading` the record is being read or finalized; `unreadable` it could not be. */
type PaymentSuccessTag = 'loading' | 'unreadable';

export const paymentSuccessMachine = setup({
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
    finalizeFromPaymentReturn: fromPromise<PaymentSuccessRecord, PaymentReturn>(({ input }) => finalizeFromPaymentReturn(input)),
    copyToClipboard: fromPromise<void, { text: string }>(({ input }) => copyText(input.text)),
    resolveSuccessSiteUrl: fromPromise<string, { token: string }>(({ input }) => resolveSuccessSiteUrl(input.token)),
  },
  guards: {
    recordFound: (_, reading: PaymentRecordReading) => reading.kind === 'found',
    recordCorrupt: (_, reading: PaymentRecordReading) => reading.kind === 'corrupt',
    returnedFromRedirect: ({ context }) => context.paymentReturn !== null,
    hasToken: ({ context }) => typeof context.record?.token === 'string' && context.record.token.length > 0,
    hasCredentials: ({ context }) => !!context.record?.loginDetails,
  },
  actions: {
    assignRecord: assign((_, reading: PaymentRecordReading) => ({ record: reading.kind === 'found' ? reading.record : null })),
    assignReturnedRecord: assign((_, record: PaymentSuccessRecord) => ({ record })),
    storeReturnedRecord: (_, record: PaymentSuccessRecord) => savePaymentRecord(record),
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
    requestRedirect: emit((_, { url }: { url: string }) => ({ type: 'redirectRequested' as const, url })),
    announcePaymentReturnConsumed: emit({ type: 'paymentReturnConsumed' }),
  },
}).createMachine({
  id: 'paymentSuccess',
  context: ({ input }) => ({ record: null, copyField: 'email', paymentReturn: readPaymentReturn(input?.search ?? '') }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['loading'],
      invoke: {
        src: 'loadPaymentRecord',
        onDone: [
          {
            guard: { type: 'recordFound', params: ({ event }) => event.output },
            target: 'ready',
            actions: { type: 'assignRecord', params: ({ event }) => event.output },
          },
          { guard: { type: 'recordCorrupt', params: ({ event }) => event.output }, target: 'corrupt', actions: 'notifyLoadFailed' },
          { guard: 'returnedFromRedirect', target: 'finalizingReturn' },
          { target: 'noData', actions: 'notifyNoPaymentData' },
        ],
        onError: { target: 'corrupt', actions: 'notifyLoadFailed' },
      },
    },
    finalizingReturn: {
      tags: ['loading'],
      invoke: {
        src: 'finalizeFromPaymentReturn',
        input: ({ context }) => context.paymentReturn!,
        onDone: {
          target: 'ready',
          actions: [
            { type: 'storeReturnedRecord', params: ({ event }) => event.output },
            { type: 'assignReturnedRecord', params: ({ event }) => event.output },
            'announcePaymentReturnConsumed',
          ],
        },
        onError: { target: 'returnFailed', actions: 'notifyLoadFailed' },
      },
    },
    noData: {},
    corrupt: { tags: ['unreadable'] },
    returnFailed: { tags: ['unreadable'] },
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
        src: 'resolveSuccessSiteUrl',
        input: ({ context }) => ({ token: context.record?.token ?? '' }),
        onDone: {
          target: 'redirected',
          actions: ['clearStoredRecord', { type: 'requestRedirect', params: ({ event }) => ({ url: event.output }) }],
        },
        onError: { target: 'ready', actions: 'notifyRedirectFailed' },
      },
    },
    redirected: {
      type: 'final',
    },
  },
});
