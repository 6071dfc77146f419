/**
 * The manage page's statechart (/account): open a session from a mail's link (or find the one this
 * browser has), or ask for a link by email; then show the subscription and run what the buyer asks, one change at
 * a time, each confirmed in words when it is done: cancel at the end of the period (asked once more first, naming
 * the refund guarantee or the day access ends; within the guarantee the refund is asked for in the same step, or on
 * its own after a cancel, docs/decisions/0068) and undo, change seats (what the
 * change costs now shown first, confirmed or abandoned; docs/decisions/0045), a new card, new login credentials
 * (asked once more first, then shown once), the provider's portal, sign-out.
 * No DOM here: the calls are invoked actors (src/api/accountApi.ts); leaving for the agreement site or the
 * provider's portal is an emitted `redirectRequested`. A session that ended (401) sends the page back to asking
 * for a link. The page passes the address's `?token=` as input and removes it from the address itself.
 * The first question (is this browser signed in?) is answered 200 either way, so a normal visit logs no error.
 * Every action and guard is named in the chart, without params: the invoked actors have ids, and their done and
 * error events are typed below, so an action reads its event itself (Stately draws each of them).
 */
import { assertEvent, assign, emit, fromPromise, setup } from 'xstate';
import { accountApi } from '../api/accountApi';
import { copyText } from '../browser/clipboard';
import type { AccountSessionResponse, AccountView, CardRequest, NewCredentials, SeatChangePreview } from '../contract/account';
import { formatDollars } from '../domain/pricing';
import { taxLabelOf } from '../domain/tax';
import { isRefundAskable } from '../domain/refunds';
import { sessionEndedGuards } from './consoleSessionEnded';
import { failureMessage } from './failureMessage';

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
  /** The credential the last copy button copies. */
  copyField: CredentialField;
  /** A change in flight (its input), for the invoked actor. */
  pending: PendingChange | null;
  /** The reason the buyer gave for cancelling, kept while they are asked once more. */
  cancelReason: string;
  /** The seats the buyer asked for, while their cost is being read. */
  seatsWanted: number | null;
  /** What the asked-for seats cost now, shown for the buyer to confirm. */
  seatPreview: SeatChangePreview | null;
}

/** A change the buyer asked for, as the call that makes it takes it. */
export type PendingChange =
  | { kind: 'cancel'; reason: string }
  | { kind: 'resume' }
  /** The guarantee's refund asked for (with the cancel, or after it): docs/decisions/0068. */
  | { kind: 'refund'; reason: string }
  | { kind: 'seats'; quantity: number; prorationDate?: number }
  | { kind: 'card'; card: CardRequest['card'] }
  | { kind: 'portal'; flow: PortalFlow };

/** Which of the new credentials a copy button copies. */
type CredentialField = 'email' | 'password';

/** The ids of the invoked actors: their done and error events are `xstate.done.actor.<id>`, `xstate.error.actor.<id>`. */
const OPEN = 'openSession';
const LOAD = 'loadAccount';
const LINK = 'requestLink';
const CHANGE = 'applyChange';
const PREVIEW = 'previewSeats';
const CREDENTIALS = 'issueCredentials';
const COPY = 'copyToClipboard';
const SIGN_OUT = 'signOut';
type ActorId =
  typeof OPEN | typeof LOAD | typeof LINK | typeof CHANGE | typeof PREVIEW | typeof CREDENTIALS | typeof COPY | typeof SIGN_OUT;

/** The invoked actors' answers and failures, as the actions and guards read them. */
type ActorEvent =
  | { type: `xstate.done.actor.${typeof OPEN}`; output: AccountSessionResponse }
  | { type: `xstate.done.actor.${typeof LOAD}`; output: AccountView | null }
  | { type: `xstate.done.actor.${typeof LINK}`; output: { message: string } }
  | { type: `xstate.done.actor.${typeof CHANGE}`; output: AccountView | { url: string } }
  | { type: `xstate.done.actor.${typeof PREVIEW}`; output: SeatChangePreview }
  | { type: `xstate.done.actor.${typeof CREDENTIALS}`; output: NewCredentials }
  | { type: `xstate.done.actor.${typeof COPY}` | `xstate.done.actor.${typeof SIGN_OUT}` }
  | { type: `xstate.error.actor.${ActorId}`; error: unknown };

type AccountEvent =
  | ActorEvent
  | { type: 'LINK_REQUESTED'; email: string }
  | { type: 'CANCEL_CLICKED'; reason: string }
  | { type: 'CANCEL_CONFIRMED' }
  | { type: 'CANCEL_ABANDONED' }
  | { type: 'REFUND_ASK_CLICKED' }
  | { type: 'REFUND_ASK_CONFIRMED' }
  | { type: 'REFUND_ASK_ABANDONED' }
  | { type: 'RESUME_CLICKED' }
  | { type: 'SEATS_SUBMITTED'; quantity: number }
  | { type: 'SEATS_CONFIRMED' }
  | { type: 'SEATS_ABANDONED' }
  | { type: 'CARD_SUBMITTED'; card: CardRequest['card'] }
  | { type: 'PORTAL_CLICKED'; flow: PortalFlow }
  | { type: 'NEW_CREDENTIALS_CLICKED' }
  | { type: 'NEW_CREDENTIALS_CONFIRMED' }
  | { type: 'NEW_CREDENTIALS_ABANDONED' }
  | { type: 'COPY_CLICKED'; field: CredentialField }
  | { type: 'SIGN_OUT_CLICKED' };

type AccountEmitted = { type: 'redirectRequested'; url: string };

/**
 * What a state says to the page: `busy` a call runs while the page shows its buttons (they are disabled). Opening the
 * session and the first read show only "Loading…", chosen by the state itself, so they carry no tag.
 */
type AccountTag = 'busy';

const seatsText = (seats: number) => `${seats} ${seats === 1 ? 'seat' : 'seats'}`;
const day = (iso: string | null) =>
  iso ? new Date(iso).toLocaleDateString('en-US', { dateStyle: 'long', timeZone: 'UTC' }) : 'the end of the period';

/** What the confirmed seat change charged now, in words ('' when nothing). */
function chargedText(preview: SeatChangePreview): string {
  if (preview.amountDueNowCents) return ` We charged ${formatDollars(preview.amountDueNowCents)} for the rest of this period.`;
  if (preview.creditCents) return ` ${formatDollars(preview.creditCents)} comes off your next invoice.`;
  return '';
}

/** The monthly total the buyer pays, with its tax named when there is tax: '$1,047.12/month with Hawaii general excise tax'. */
function monthlyText(view: AccountView): string {
  const total = `${formatDollars(view.monthlyTotalCents + view.monthlyTaxCents)}/month`;
  return view.monthlyTaxCents > 0 ? `${total} with ${taxLabelOf(view.taxState)}` : total;
}

/**
 * The confirmation of a change the server answered with `view` (`preview`: what a seat change was shown to cost, kept
 * from its confirm step until the answer). The portal's change answers with an address instead, and is confirmed by
 * leaving for it.
 */
function noticeOf(change: Exclude<PendingChange, { kind: 'portal' }>, view: AccountView, preview: SeatChangePreview | null): string {
  switch (change.kind) {
    case 'cancel':
      return `Your subscription is cancelled. You keep access until ${day(view.cancelAt)} and will not be charged again.`;
    case 'resume':
      return 'Your cancellation is undone: your subscription continues and renews as before.';
    case 'refund':
      return (
        `You asked for your refund of ${formatDollars(view.refundAsked?.amountCents ?? view.refundableCents)}. We mailed you a receipt. ` +
        'It goes back to the card you paid with, and you get a mail when it is made; your subscription is cancelled meanwhile.'
      );
    case 'seats':
      return `Your subscription now has ${seatsText(view.seats)}: ${monthlyText(view)}.${chargedText(preview!)}`;
    case 'card':
      return view.status === 'past_due'
        ? `Your new card ending in ${view.cardLast4 ?? '—'} is saved, but the open payment did not go through. Please try another card.`
        : `Your new card ending in ${view.cardLast4 ?? '—'} is saved.`;
  }
}

/** The change's call: the view it answers, or the portal's address. */
function callFor(change: PendingChange): Promise<AccountView | { url: string }> {
  switch (change.kind) {
    case 'cancel':
      return accountApi.cancel(change.reason);
    case 'resume':
      return accountApi.resume();
    case 'refund':
      return accountApi.askForRefund(change.reason);
    case 'seats':
      return accountApi.changeSeats(change.quantity, change.prorationDate);
    case 'card':
      return accountApi.updateCard(change.card);
    case 'portal':
      return accountApi.portal(change.flow);
  }
}

const COPY_LABELS: Record<CredentialField, string> = { email: 'Email', password: 'Password' };

export const accountMachine = setup({
  // Stryker disable next-line ObjectLiteral: TypeScript-only, XState ignores `types` at run time
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
    /** The signed-in subscription, or null without a session (GET /api/account/session answers 200 either way). */
    loadAccount: fromPromise<AccountView | null>(async () => (await accountApi.probe()).account),
    requestLink: fromPromise<{ message: string }, { email: string }>(({ input }) => accountApi.requestLink(input.email)),
    applyChange: fromPromise<AccountView | { url: string }, PendingChange>(({ input }) => callFor(input)),
    /** What a seat change would cost now (POST /api/account/seats/preview); changes nothing. */
    previewSeats: fromPromise<SeatChangePreview, { quantity: number }>(({ input }) => accountApi.previewSeats(input.quantity)),
    issueCredentials: fromPromise<NewCredentials>(() => accountApi.newCredentials()),
    copyToClipboard: fromPromise<void, { text: string }>(({ input }) => copyText(input.text)),
    signOut: fromPromise<void>(() => accountApi.signOut()),
  },
  guards: {
    hasToken: ({ context }) => context.token !== null,
    handsOnToAgreement: ({ event }) => {
      assertEvent(event, `xstate.done.actor.${OPEN}`);
      return event.output.agreementUrl !== null;
    },
    signedIn: ({ event }) => {
      assertEvent(event, `xstate.done.actor.${LOAD}`);
      return event.output !== null;
    },
    ...sessionEndedGuards,
    /** The guarantee's refund may be asked for now: within its days, money left to refund, not asked yet (decision 0068). */
    refundAskable: ({ context }) => isRefundAskable(context.account, new Date()),
    isPortalAddress: ({ event }) => {
      assertEvent(event, `xstate.done.actor.${CHANGE}`);
      return 'url' in event.output;
    },
  },
  actions: {
    assignOpened: assign(({ event }) => {
      assertEvent(event, `xstate.done.actor.${OPEN}`);
      return { account: event.output.account, token: null, error: null };
    }),
    assignAccount: assign(({ event }) => {
      assertEvent(event, `xstate.done.actor.${LOAD}`);
      return { account: event.output, error: null };
    }),
    assignError: assign(({ event }) => ({ error: failureMessage(event) })),
    clearMessages: assign({ error: null, notice: null }),
    forgetSession: assign({ account: null, credentials: null, notice: null, token: null, seatPreview: null, seatsWanted: null }),
    assignLinkSent: assign(({ event }) => {
      assertEvent(event, `xstate.done.actor.${LINK}`);
      return { linkSent: event.output.message, error: null };
    }),
    assignSeatsWanted: assign({
      seatsWanted: ({ event }) => {
        assertEvent(event, 'SEATS_SUBMITTED');
        return event.quantity;
      },
      seatPreview: null,
      error: null,
      notice: null,
    }),
    assignSeatPreview: assign(({ event }) => {
      assertEvent(event, `xstate.done.actor.${PREVIEW}`);
      return { seatPreview: event.output, seatsWanted: null };
    }),
    clearSeatPreview: assign({ seatPreview: null, seatsWanted: null }),
    assignCancelReason: assign({
      cancelReason: ({ event }) => {
        assertEvent(event, 'CANCEL_CLICKED');
        return event.reason.trim();
      },
      error: null,
      notice: null,
    }),
    assignChange: assign({
      pending: ({ context, event }): PendingChange => {
        assertEvent(event, [
          'CANCEL_CONFIRMED',
          'RESUME_CLICKED',
          'REFUND_ASK_CONFIRMED',
          'SEATS_CONFIRMED',
          'CARD_SUBMITTED',
          'PORTAL_CLICKED',
        ]);
        switch (event.type) {
          case 'CANCEL_CONFIRMED':
            return { kind: 'cancel', reason: context.cancelReason };
          case 'RESUME_CLICKED':
            return { kind: 'resume' };
          case 'REFUND_ASK_CONFIRMED':
            return { kind: 'refund', reason: context.cancelReason };
          case 'SEATS_CONFIRMED': {
            // The seats' confirm step is entered only with the preview it shows.
            const { quantity, prorationDate } = context.seatPreview!;
            return { kind: 'seats', quantity, prorationDate };
          }
          case 'CARD_SUBMITTED':
            return { kind: 'card', card: event.card };
          case 'PORTAL_CLICKED':
            return { kind: 'portal', flow: event.flow };
        }
      },
      error: null,
      notice: null,
    }),
    assignChanged: assign(({ context, event }) => {
      assertEvent(event, `xstate.done.actor.${CHANGE}`);
      // The portal's address was taken by isPortalAddress first: this answer is the changed subscription.
      const answer = event.output as AccountView;
      const change = context.pending as Exclude<PendingChange, { kind: 'portal' }>;
      return { account: answer, notice: noticeOf(change, answer, context.seatPreview), pending: null, seatPreview: null };
    }),
    assignCredentials: assign(({ event }) => {
      assertEvent(event, `xstate.done.actor.${CREDENTIALS}`);
      return { credentials: event.output, notice: 'New login credentials: save them now, the password is shown only once.' };
    }),
    assignCopyField: assign({
      copyField: ({ event }) => {
        assertEvent(event, 'COPY_CLICKED');
        return event.field;
      },
      error: null,
    }),
    noticeCopied: assign(({ context }) => ({ notice: `${COPY_LABELS[context.copyField]} copied to clipboard.` })),
    assignCopyFailed: assign({ error: 'Could not copy to the clipboard. Please select the text and copy it.' }),
    redirectToAgreement: emit(({ event }) => {
      assertEvent(event, `xstate.done.actor.${OPEN}`);
      // Taken only when handsOnToAgreement found the address.
      return { type: 'redirectRequested' as const, url: event.output.agreementUrl! };
    }),
    redirectToPortal: emit(({ event }) => {
      assertEvent(event, `xstate.done.actor.${CHANGE}`);
      // Taken only when isPortalAddress found the address.
      return { type: 'redirectRequested' as const, url: (event.output as { url: string }).url };
    }),
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
    // Stryker disable next-line StringLiteral: every COPY_CLICKED assigns the field before the copy reads it
    copyField: 'email',
    pending: null,
    cancelReason: '',
    seatsWanted: null,
    seatPreview: null,
  }),
  initial: 'starting',
  states: {
    starting: {
      always: [{ guard: 'hasToken', target: 'openingSession' }, { target: 'loading' }],
    },
    openingSession: {
      invoke: {
        id: OPEN,
        src: 'openSession',
        // Entered only when hasToken found the link's token.
        input: ({ context }) => ({ token: context.token! }),
        onDone: [
          { guard: 'handsOnToAgreement', target: 'leaving', actions: 'redirectToAgreement' },
          { target: 'signedIn', actions: 'assignOpened' },
        ],
        onError: { target: 'signedOut', actions: 'assignError' },
      },
    },
    loading: {
      invoke: {
        id: LOAD,
        src: 'loadAccount',
        onDone: [
          { guard: 'signedIn', target: 'signedIn', actions: 'assignAccount' },
          // No session yet is the ordinary start: ask for a link, without an error.
          { target: 'signedOut' },
        ],
        onError: { target: 'signedOut', actions: 'assignError' },
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
            id: LINK,
            src: 'requestLink',
            input: ({ event }) => {
              assertEvent(event, 'LINK_REQUESTED');
              // Stryker disable next-line MethodExpression: the page's field is type="email", whose value the browser already strips of surrounding spaces
              return { email: event.email.trim() };
            },
            onDone: { target: 'linkSent', actions: 'assignLinkSent' },
            onError: { target: 'askingForLink', actions: 'assignError' },
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
            CANCEL_CLICKED: { target: 'confirmingCancel', actions: 'assignCancelReason' },
            RESUME_CLICKED: { target: 'changing', actions: 'assignChange' },
            REFUND_ASK_CLICKED: { guard: 'refundAskable', target: 'confirmingRefund', actions: 'clearMessages' },
            SEATS_SUBMITTED: { target: 'previewingSeats', actions: 'assignSeatsWanted' },
            CARD_SUBMITTED: { target: 'changing', actions: 'assignChange' },
            PORTAL_CLICKED: { target: 'changing', actions: 'assignChange' },
            NEW_CREDENTIALS_CLICKED: { target: 'confirmingCredentials', actions: 'clearMessages' },
            COPY_CLICKED: { target: 'copying', actions: 'assignCopyField' },
          },
        },
        previewingSeats: {
          tags: ['busy'],
          invoke: {
            id: PREVIEW,
            src: 'previewSeats',
            input: ({ context }) => ({ quantity: context.seatsWanted ?? 1 }),
            onDone: { target: 'confirmingSeats', actions: 'assignSeatPreview' },
            onError: [
              { guard: 'sessionEnded', target: '#account.signedOut', actions: 'assignError' },
              { target: 'viewing', actions: ['clearSeatPreview', 'assignError'] },
            ],
          },
        },
        /** Cancelling is asked once more, with the refund guarantee's words within its days (spec §9 FAQ, decision 0024). */
        confirmingCancel: {
          on: {
            CANCEL_CONFIRMED: { target: 'changing', actions: 'assignChange' },
            // Within the guarantee the refund is asked for in the same step: cancelled and asked at once.
            REFUND_ASK_CONFIRMED: { guard: 'refundAskable', target: 'changing', actions: 'assignChange' },
            CANCEL_ABANDONED: 'viewing',
          },
        },
        /** After a cancel, the guarantee's refund on its own, asked once more with the amount that would come back. */
        confirmingRefund: {
          on: {
            REFUND_ASK_CONFIRMED: { target: 'changing', actions: 'assignChange' },
            REFUND_ASK_ABANDONED: 'viewing',
          },
        },
        confirmingSeats: {
          on: {
            SEATS_CONFIRMED: { target: 'changing', actions: 'assignChange' },
            SEATS_ABANDONED: { target: 'viewing', actions: 'clearSeatPreview' },
          },
        },
        changing: {
          tags: ['busy'],
          invoke: {
            id: CHANGE,
            src: 'applyChange',
            input: ({ context }) => context.pending!,
            onDone: [
              { guard: 'isPortalAddress', target: '#account.leaving', actions: 'redirectToPortal' },
              { target: 'viewing', actions: 'assignChanged' },
            ],
            onError: [
              { guard: 'sessionEnded', target: '#account.signedOut', actions: 'assignError' },
              { target: 'viewing', actions: ['clearSeatPreview', 'assignError'] },
            ],
          },
        },
        confirmingCredentials: {
          on: {
            NEW_CREDENTIALS_CONFIRMED: 'issuingCredentials',
            NEW_CREDENTIALS_ABANDONED: 'viewing',
          },
        },
        issuingCredentials: {
          tags: ['busy'],
          invoke: {
            id: CREDENTIALS,
            src: 'issueCredentials',
            onDone: { target: 'viewing', actions: 'assignCredentials' },
            onError: [
              { guard: 'sessionEnded', target: '#account.signedOut', actions: 'assignError' },
              { target: 'viewing', actions: 'assignError' },
            ],
          },
        },
        copying: {
          invoke: {
            id: COPY,
            src: 'copyToClipboard',
            // The copy buttons are shown only with the new credentials.
            input: ({ context }) => ({ text: context.credentials![context.copyField] }),
            onDone: { target: 'viewing', actions: 'noticeCopied' },
            onError: { target: 'viewing', actions: 'assignCopyFailed' },
          },
        },
        signingOut: {
          tags: ['busy'],
          invoke: { id: SIGN_OUT, src: 'signOut', onDone: '#account.signedOut', onError: '#account.signedOut' },
        },
      },
      on: { SIGN_OUT_CLICKED: '.signingOut' },
    },
    leaving: { type: 'final' },
  },
});
