/**
 * The checkout's notice before a second purchase (docs/decisions/0031): once the buyer has typed a
 * complete email and paused, one call asks whether that email already has an active subscription this browser
 * holds; the notice 'You already have a subscription: manage it' shows while that email stays in the field.
 * Beside the checkout's statechart, not inside it: it never delays, blocks or changes the spec's flow (a failed
 * or slow check shows nothing). No DOM here: the page sends the email as it changes.
 */
import { assertEvent, assign, fromPromise, setup } from 'xstate';
import { accountApi } from '../api/accountApi';
import { readRecentPurchase } from '../api/pendingPayment';
import { EMAIL_PATTERN } from '../domain/validation';

interface ExistingSubscriptionContext {
  /** The email in the field, trimmed. */
  email: string;
}

/** The check's id: its done event is `xstate.done.actor.checkExistingSubscription`. */
const CHECK = 'checkExistingSubscription';

type ExistingSubscriptionEvent = { type: 'EMAIL_CHANGED'; email: string } | { type: `xstate.done.actor.${typeof CHECK}`; output: boolean };

/** How long the email must stay unchanged before it is checked, ms (a buyer types an address in bursts). */
export const EMAIL_SETTLE_MS = 800;

export const existingSubscriptionMachine = setup({
  // Stryker disable next-line ObjectLiteral: TypeScript only, XState ignores `types` at run time
  types: {
    context: {} as ExistingSubscriptionContext,
    events: {} as ExistingSubscriptionEvent,
  },
  actors: {
    /** True when the email has an active subscription this browser proves it holds (its recent purchase's ids, or the manage page's session). */
    checkExistingSubscription: fromPromise<boolean, { email: string }>(async ({ input }) => {
      const purchase = readRecentPurchase();
      const proof = purchase ? { transactionId: purchase.transactionId, customerId: purchase.customerId } : undefined;
      return (await accountApi.subscriptionCheck(input.email, proof)).activeSubscription;
    }),
  },
  delays: { emailSettled: EMAIL_SETTLE_MS },
  guards: {
    emailComplete: ({ event }) => {
      assertEvent(event, 'EMAIL_CHANGED');
      return EMAIL_PATTERN.test(event.email.trim());
    },
    hasActiveSubscription: ({ event }) => {
      assertEvent(event, `xstate.done.actor.${CHECK}`);
      return event.output;
    },
  },
  actions: {
    assignEmail: assign({
      email: ({ event }) => {
        assertEvent(event, 'EMAIL_CHANGED');
        return event.email.trim();
      },
    }),
  },
}).createMachine({
  id: 'existingSubscription',
  context: { email: '' },
  initial: 'idle',
  on: {
    EMAIL_CHANGED: [
      // Targeting the child from the root exits and re-enters it even from `settling`: each change restarts the pause.
      { guard: 'emailComplete', target: '.settling', actions: 'assignEmail' },
      { target: '.idle', actions: 'assignEmail' },
    ],
  },
  states: {
    idle: {},
    settling: { after: { emailSettled: 'checking' } },
    checking: {
      invoke: {
        id: CHECK,
        src: 'checkExistingSubscription',
        input: ({ context }) => ({ email: context.email }),
        onDone: [{ guard: 'hasActiveSubscription', target: 'found' }, { target: 'idle' }],
        // A failed check shows nothing: the checkout goes on as the spec says.
        onError: 'idle',
      },
    },
    /** The email in the field has an active subscription: the notice shows. */
    found: {},
  },
});
