/**
 * The manage page's statechart (/account; issue 21): open a session from a mail's link (or find the one this
 * browser has), or ask for a link by email; then show the subscription and run what the buyer asks, one change at
 * a time, each confirmed in words when it is done: cancel at the end of the period and undo, change seats, a new
 * card, new login credentials (asked once more first, then shown once), the provider's portal, sign-out.
 * No DOM here: the calls are invoked actors (src/api/accountApi.ts); leaving for the agreement site or the
 * provider's portal is an emitted `redirectRequested`. A session that ended (401) sends the page back to asking
 * for a link. The page passes the address's `?token=` as input and removes it from the address itself.
 */
import { assertEvent, assign, emit, fromPromise, setup } from 'xstate';
import { errorOf } from './actorError';
import { accountApi } from '../api/accountApi';
import { ApiError } from '../api/client';
import type { AccountSessionResponse, AccountView, CardRequest, NewCredentials } from '../contract/account';
import { formatDollars } from '../domain/pricing';

interface AccountInput {
  /** The single-use token of the mail's link, when the page was opened from one. */
  token?: string | null;
}

/** Where the provider's portal opens. */
export type PortalFlow = 'home' | 'cancel' | 'seats' | 'card';

interface AccountContext {
  token: string | null;
  account: AccountView | null;
  /** The last refusal or failure, shown at the top of the page (role=alert). */
  error: string | null;
  /** What the last change did, in words (role=status): "Your subscription now has 3 seats: $1,000/month." */
  notice: string | null;
  /** The answer to a link request ("If that email has a subscription, a link … is on its way."). */
  linkSent: string | null;
  /** New credentials, shown once until the page is left. */
  credentials: NewCredentials | null;
  /** A change in flight (its input), for the invoked actor. */
  pending: PendingChange | null;
}

/** A change the buyer asked for, as the call that makes it takes it. */
export type PendingChange =
  | { kind: 'cancel'; reason: string }
  | { kind: 'resume' }
  | { kind: 'seats'; quantity: number }
  | { kind: 'card'; card: CardRequest['card'] }
  | { kind: 'portal'; flow: PortalFlow };

type AccountEvent =
  | { type: 'LINK_REQUESTED'; email: string }
  | { type: 'CANCEL_CLICKED'; reason: string }
  | { type: 'RESUME_CLICKED' }
  | { type: 'SEATS_SUBMITTED'; quantity: number }
  | { type: 'CARD_SUBMITTED'; card: CardRequest['card'] }
  | { type: 'PORTAL_CLICKED'; flow: PortalFlow }
  | { type: 'NEW_CREDENTIALS_CLICKED' }
  | { type: 'NEW_CREDENTIALS_CONFIRMED' }
  | { type: 'NEW_CREDENTIALS_ABANDONED' }
  | { type: 'SIGN_OUT_CLICKED' };

type AccountEmitted = { type: 'redirectRequested'; url: string };

/** What a state says to the page: `busy` a call runs (buttons disabled). */
type AccountTag = 'busy';

const seatsText = (seats: number) => `${seats} ${seats === 1 ? 'seat' : 'seats'}`;
const day = (iso: string | null) =>
  iso ? new Date(iso).toLocaleDateString('en-US', { dateStyle: 'long', timeZone: 'UTC' }) : 'the end of the period';

/** The confirmation of a change the server answered with `view`. */
function noticeOf(change: PendingChange, view: AccountView): string {
  switch (change.kind) {
    case 'cancel':
      return `Your subscription is cancelled. You keep access until ${day(view.cancelAt)} and will not be charged again.`;
    case 'resume':
      return 'Your cancellation is undone: your subscription continues and renews as before.';
    case 'seats':
      return `Your subscription now has ${seatsText(view.seats)}: ${formatDollars(view.monthlyTotalCents)}/month.`;
    case 'card':
      return view.status === 'past_due'
        ? `Your new card ending in ${view.cardLast4 ?? '—'} is saved, but the open payment did not go through. Please try another card.`
        : `Your new card ending in ${view.cardLast4 ?? '—'} is saved.`;
    case 'portal':
      return '';
  }
}

/** The change's call: the view it answers, or the portal's address. */
function callFor(change: PendingChange): Promise<AccountView | { url: string }> {
  switch (change.kind) {
    case 'cancel':
      return accountApi.cancel(change.reason);
    case 'resume':
      return accountApi.resume();
    case 'seats':
      return accountApi.changeSeats(change.quantity);
    case 'card':
      return accountApi.updateCard(change.card);
    case 'portal':
      return accountApi.portal(change.flow);
  }
}

const messageOf = (error: unknown) => (error instanceof Error && error.message ? error.message : 'Something went wrong. Please try again.');

export const accountMachine = setup({
  types: {
    context: {} as AccountContext,
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- XState takes the input's type from this assertion
    input: {} as AccountInput,
    events: {} as AccountEvent,
    emitted: {} as AccountEmitted,
    tags: {} as AccountTag,
  },
  actors: {
    openSession: fromPromise<AccountSessionResponse, { token: string }>(({ input }) => accountApi.openSession(input.token)),
    loadAccount: fromPromise<AccountView>(() => accountApi.view()),
    requestLink: fromPromise<{ message: string }, { email: string }>(({ input }) => accountApi.requestLink(input.email)),
    applyChange: fromPromise<AccountView | { url: string }, PendingChange>(({ input }) => callFor(input)),
    issueCredentials: fromPromise<NewCredentials>(() => accountApi.newCredentials()),
    signOut: fromPromise<void>(() => accountApi.signOut()),
  },
  guards: {
    hasToken: ({ context }) => context.token !== null,
    handsOnToAgreement: (_, opened: AccountSessionResponse) => opened.agreementUrl !== null,
    sessionEnded: (_, error: unknown) => error instanceof ApiError && error.status === 401,
    isPortalAddress: (_, answer: AccountView | { url: string }) => 'url' in answer,
  },
  actions: {
    assignOpened: assign((_, opened: AccountSessionResponse) => ({ account: opened.account, token: null, error: null })),
    assignAccount: assign((_, account: AccountView) => ({ account, error: null })),
    assignError: assign((_, error: unknown) => ({ error: messageOf(error) })),
    clearMessages: assign({ error: null, notice: null }),
    forgetSession: assign({ account: null, credentials: null, notice: null, token: null }),
    assignLinkSent: assign((_, answer: { message: string }) => ({ linkSent: answer.message, error: null })),
    assignChange: assign({
      pending: ({ event }): PendingChange => {
        switch (event.type) {
          case 'CANCEL_CLICKED':
            return { kind: 'cancel', reason: event.reason.trim() };
          case 'RESUME_CLICKED':
            return { kind: 'resume' };
          case 'SEATS_SUBMITTED':
            return { kind: 'seats', quantity: event.quantity };
          case 'CARD_SUBMITTED':
            return { kind: 'card', card: event.card };
          case 'PORTAL_CLICKED':
            return { kind: 'portal', flow: event.flow };
          default:
            throw new Error(`No change for ${event.type}`);
        }
      },
      error: null,
      notice: null,
    }),
    assignChanged: assign(({ context }, answer: AccountView | { url: string }) =>
      'url' in answer || !context.pending ? {} : { account: answer, notice: noticeOf(context.pending, answer), pending: null },
    ),
    assignCredentials: assign((_, credentials: NewCredentials) => ({
      credentials,
      notice: 'New login credentials: save them now, the password is shown only once.',
    })),
    requestRedirect: emit((_, url: string) => ({ type: 'redirectRequested' as const, url })),
    clearLinkAnswer: assign({ linkSent: null, error: null }),
  },
}).createMachine({
  id: 'account',
  context: ({ input }) => ({
    token: input.token ?? null,
    account: null,
    error: null,
    notice: null,
    linkSent: null,
    credentials: null,
    pending: null,
  }),
  initial: 'starting',
  states: {
    starting: {
      always: [{ guard: 'hasToken', target: 'openingSession' }, { target: 'loading' }],
    },
    openingSession: {
      tags: ['busy'],
      invoke: {
        src: 'openSession',
        input: ({ context }) => ({ token: context.token ?? '' }),
        onDone: [
          {
            guard: { type: 'handsOnToAgreement', params: ({ event }) => event.output },
            target: 'leaving',
            actions: { type: 'requestRedirect', params: ({ event }) => event.output.agreementUrl ?? '' },
          },
          { target: 'signedIn', actions: { type: 'assignOpened', params: ({ event }) => event.output } },
        ],
        onError: { target: 'signedOut', actions: { type: 'assignError', params: errorOf } },
      },
    },
    loading: {
      tags: ['busy'],
      invoke: {
        src: 'loadAccount',
        onDone: { target: 'signedIn', actions: { type: 'assignAccount', params: ({ event }) => event.output } },
        // No session yet is the ordinary start: ask for a link, without an error.
        onError: 'signedOut',
      },
    },
    signedOut: {
      entry: 'forgetSession',
      initial: 'askingForLink',
      states: {
        askingForLink: {
          on: { LINK_REQUESTED: { target: 'requestingLink', actions: 'clearLinkAnswer' } },
        },
        requestingLink: {
          tags: ['busy'],
          invoke: {
            src: 'requestLink',
            input: ({ event }) => {
              assertEvent(event, 'LINK_REQUESTED');
              return { email: event.email.trim() };
            },
            onDone: { target: 'linkSent', actions: { type: 'assignLinkSent', params: ({ event }) => event.output } },
            onError: { target: 'askingForLink', actions: { type: 'assignError', params: errorOf } },
          },
        },
        linkSent: {},
      },
    },
    signedIn: {
      initial: 'viewing',
      states: {
        viewing: {
          on: {
            CANCEL_CLICKED: { target: 'changing', actions: 'assignChange' },
            RESUME_CLICKED: { target: 'changing', actions: 'assignChange' },
            SEATS_SUBMITTED: { target: 'changing', actions: 'assignChange' },
            CARD_SUBMITTED: { target: 'changing', actions: 'assignChange' },
            PORTAL_CLICKED: { target: 'changing', actions: 'assignChange' },
            NEW_CREDENTIALS_CLICKED: { target: 'confirmingCredentials', actions: 'clearMessages' },
          },
        },
        changing: {
          tags: ['busy'],
          invoke: {
            src: 'applyChange',
            input: ({ context }) => context.pending!,
            onDone: [
              {
                guard: { type: 'isPortalAddress', params: ({ event }) => event.output },
                target: '#account.leaving',
                actions: { type: 'requestRedirect', params: ({ event }) => ('url' in event.output ? event.output.url : '') },
              },
              { target: 'viewing', actions: { type: 'assignChanged', params: ({ event }) => event.output } },
            ],
            onError: [
              {
                guard: { type: 'sessionEnded', params: errorOf },
                target: '#account.signedOut',
                actions: { type: 'assignError', params: errorOf },
              },
              { target: 'viewing', actions: { type: 'assignError', params: errorOf } },
            ],
          },
        },
        confirmingCredentials: {
          on: {
            NEW_CREDENTIALS_CONFIRMED: 'issuingCredentials',
            NEW_CREDENTIALS_ABANDONED: 'viewing',
          },
        },
        signingOut: {
          tags: ['busy'],
          invoke: { src: 'signOut', onDone: '#account.signedOut', onError: '#account.signedOut' },
        },
        issuingCredentials: {
          tags: ['busy'],
          invoke: {
            src: 'issueCredentials',
            onDone: { target: 'viewing', actions: { type: 'assignCredentials', params: ({ event }) => event.output } },
            onError: [
              {
                guard: { type: 'sessionEnded', params: errorOf },
                target: '#account.signedOut',
                actions: { type: 'assignError', params: errorOf },
              },
              { target: 'viewing', actions: { type: 'assignError', params: errorOf } },
            ],
          },
        },
      },
      on: { SIGN_OUT_CLICKED: '.signingOut' },
    },
    leaving: { type: 'final' },
  },
});
