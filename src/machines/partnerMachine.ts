/**
 * The referrer's page statechart (/partner): open a session from the mail's single-use link (or find the
 * one this browser has), or ask for a link by email; then show their page over a period (their link and QR code,
 * visits, checkouts, practices, seats, revenue; commission held / payable / paid / reversed; practices; payouts),
 * reloaded when the period changes; copy the link; sign out. Without a link it first asks whether this browser holds
 * a session (a 200 either way), so a visitor's page logs no refused call. The calls are invoked actors (src/api/commissionsApi.ts);
 * copying is an emitted `copyRequested` the page carries out. A session that ended (401) asks for a link again; a
 * first read that failed otherwise says why and reads again when asked.
 */
import { assertEvent, assign, emit, fromPromise, setup } from 'xstate';
import { type ActorDone } from './actorError';
import { sessionEndedGuards } from './consoleSessionEnded';
import { failureMessage } from './failureMessage';
import { partnerApi } from '../api/commissionsApi';
import type { PartnerQuery, PartnerView } from '../contract/commissions';

interface PartnerInput {
  /** The single-use token of the mail's link, when the page was opened from one. */
  token?: string | null;
}

interface PartnerContext {
  token: string | null;
  view: PartnerView | null;
  period: PartnerQuery;
  error: string | null;
  linkSent: string | null;
  copied: boolean;
}

type PartnerEvent =
  | { type: 'LINK_REQUESTED'; email: string }
  | { type: 'PERIOD_CHANGED'; from?: string; to?: string }
  | { type: 'COPY_CLICKED' }
  | { type: 'SIGN_OUT_CLICKED' }
  | { type: 'RETRY_CLICKED' }
  | ActorDone<'probeSession', boolean>
  | ActorDone<'loadView', PartnerView>
  | ActorDone<'requestLink', { message: string }>;

type PartnerEmitted = { type: 'copyRequested'; text: string };

export const partnerMachine = setup({
  // Stryker disable next-line ObjectLiteral: TypeScript-only, XState ignores `types` at run time
  types: {
    context: {} as PartnerContext,
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- XState takes the input's type from this assertion
    input: {} as PartnerInput,
    events: {} as PartnerEvent,
    emitted: {} as PartnerEmitted,
    tags: {} as 'busy',
  },
  actors: {
    openSession: fromPromise<void, { token: string }>(({ input }) => partnerApi.openSession(input.token)),
    probeSession: fromPromise<boolean>(() => partnerApi.hasSession()),
    loadView: fromPromise<PartnerView, PartnerQuery>(({ input }) => partnerApi.view(input)),
    requestLink: fromPromise<{ message: string }, { email: string }>(({ input }) => partnerApi.requestLink(input.email)),
    signOut: fromPromise<void>(() => partnerApi.signOut()),
  },
  guards: {
    hasToken: ({ context }) => context.token !== null,
    /** The referrer's page was read before: a later read that fails keeps it on screen. */
    hasView: ({ context }) => context.view !== null,
    /** The probe's answer: this browser holds a referrer's session. */
    sessionFound: ({ event }) => {
      assertEvent(event, 'xstate.done.actor.probeSession');
      return event.output;
    },
    /** The referrer's session ended (401): the page asks for a link again. */
    ...sessionEndedGuards,
  },
  actions: {
    assignView: assign(({ event }) => {
      assertEvent(event, 'xstate.done.actor.loadView');
      return { view: event.output, error: null };
    }),
    assignError: assign(({ event }) => ({ error: failureMessage(event) })),
    assignPeriod: assign({
      period: ({ event }) => {
        assertEvent(event, 'PERIOD_CHANGED');
        // An empty end is left out of the address (queryString): the server's default for it.
        return { from: event.from, to: event.to };
      },
      copied: false,
    }),
    assignLinkSent: assign(({ event }) => {
      assertEvent(event, 'xstate.done.actor.requestLink');
      return { linkSent: event.output.message };
    }),
    clearLinkAnswer: assign({ linkSent: null, error: null }),
    // The copy button is shown only with the referrer's page, so a view is there.
    requestCopy: emit(({ context }) => ({ type: 'copyRequested' as const, text: context.view!.link })),
    markCopied: assign({ copied: true }),
  },
}).createMachine({
  id: 'partner',
  context: ({ input }) => ({ token: input.token ?? null, view: null, period: {}, error: null, linkSent: null, copied: false }),
  initial: 'starting',
  states: {
    starting: {
      always: [{ guard: 'hasToken', target: 'openingSession' }, { target: 'probing' }],
    },
    // Without a mail's link: is there a session to show? (A visitor without one is asked for a link, no 401.)
    probing: {
      invoke: {
        id: 'probeSession',
        src: 'probeSession',
        onDone: [{ guard: 'sessionFound', target: 'loading' }, { target: 'signedOut' }],
        onError: { target: 'signedOut', actions: 'assignError' },
      },
    },
    openingSession: {
      invoke: {
        id: 'openSession',
        src: 'openSession',
        // Reached only through `hasToken`.
        input: ({ context }) => ({ token: context.token! }),
        onDone: 'loading',
        onError: { target: 'signedOut', actions: 'assignError' },
      },
    },
    loading: {
      invoke: {
        id: 'loadView',
        src: 'loadView',
        input: ({ context }) => context.period,
        onDone: { target: 'signedIn', actions: 'assignView' },
        onError: [
          { guard: 'sessionEnded', target: 'signedOut' },
          { guard: 'hasView', target: 'signedIn', actions: 'assignError' },
          { target: 'unavailable', actions: 'assignError' },
        ],
      },
    },
    // The first read failed: nothing to show but why, and a way to read again.
    unavailable: {
      on: { RETRY_CLICKED: 'loading' },
    },
    signedOut: {
      initial: 'askingForLink',
      states: {
        askingForLink: {
          on: { LINK_REQUESTED: { target: 'requestingLink', actions: 'clearLinkAnswer' } },
        },
        requestingLink: {
          // The page's one control turned off while a call runs: the link button, so one click asks once.
          tags: ['busy'],
          invoke: {
            id: 'requestLink',
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
            PERIOD_CHANGED: { target: '#partner.loading', actions: 'assignPeriod' },
            COPY_CLICKED: { actions: ['requestCopy', 'markCopied'] },
            SIGN_OUT_CLICKED: 'signingOut',
          },
        },
        signingOut: {
          invoke: { id: 'signOut', src: 'signOut', onDone: '#partner.signedOut', onError: '#partner.signedOut' },
        },
      },
    },
  },
});
