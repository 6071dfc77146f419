/**
 * The buyer's team, one statechart for the success page's "Your team" and the manage page's Team
 * section: load the order's seats, then invite, resend, revoke or reassign one change at a time, or give seat 1, the
 * buyer's own, to someone else (docs/decisions/0038; revoking that person gives it back). The calls are
 * invoked actors (src/api/teamApi.ts) with the page's access (the session, or the success page's hand-off token);
 * the view renders a snapshot and sends events. Revoking is asked once more, in words for an invitation nobody
 * accepted or for a member. A refusal keeps the team as it was and shows the server's words, under the email field
 * when the server says it belongs there, until another email is typed.
 */
import { assertEvent, assign, fromPromise, setup } from 'xstate';
import { failureOf, outputOf } from './actorError';
import { failureMessage } from './failureMessage';
import { ApiError } from '../api/client';
import { teamApi, type TeamAccess, type TeamChange } from '../api/teamApi';
import type { TeamView } from '../contract/team';

/** The seat asked about before it is revoked: `member` when someone accepted it (else it is an open invitation). */
interface RevokeTarget {
  seatId: string;
  member: boolean;
}

interface TeamInput {
  access: TeamAccess;
}

interface TeamContext {
  access: TeamAccess;
  team: TeamView | null;
  /** The change being made (or last refused). */
  change: TeamChange | null;
  /** A refusal shown under the email field. */
  fieldError: string | null;
  /** Any other failure, shown above the list. */
  error: string | null;
  /** What the last change did, for a status line. */
  notice: string | null;
  /** The seat the buyer asked to revoke, while they are asked once more (and until the revoke is done). */
  revoking: RevokeTarget | null;
}

type TeamEvent =
  | { type: 'INVITE_SUBMITTED'; email: string; name: string }
  | { type: 'RESEND_CLICKED'; seatId: string }
  | { type: 'REVOKE_CLICKED'; seatId: string }
  | { type: 'REVOKE_CONFIRMED' }
  | { type: 'REVOKE_ABANDONED' }
  /** The buyer typed in an email field: a refusal about the email before is stale. */
  | { type: 'EMAIL_TYPED' }
  | { type: 'REASSIGN_SUBMITTED'; seatId: string; email: string; name: string }
  | { type: 'GIVE_SEAT_ONE_SUBMITTED'; email: string; name: string }
  | { type: 'RETRY' };

/** What a done revoke did: an accepted seat's person is signed out for good; an invitation's link stops working. */
const revokeNotice = (target: RevokeTarget) =>
  target.member ? 'Seat revoked: they can no longer sign in.' : 'Invitation revoked: the invitation link stops working.';

const NOTICES: Record<Exclude<TeamChange['kind'], 'revoke'>, string> = {
  invite: 'Invitation sent.',
  resend: 'Invitation sent again.',
  reassign: 'Seat given to someone else; the invitation is on its way.',
  giveSeatOne: 'Seat 1 offered; the invitation is on its way. Your login keeps seat 1 until they accept.',
};

const changeOf = (event: TeamEvent, revoking: RevokeTarget | null): TeamChange | null => {
  switch (event.type) {
    case 'INVITE_SUBMITTED':
      return {
        kind: 'invite',
        // Stryker disable next-line MethodExpression: the page's field is type="email", whose value the browser already strips of surrounding spaces
        email: event.email.trim(),
        name: event.name.trim(),
      };
    case 'RESEND_CLICKED':
      return { kind: 'resend', seatId: event.seatId };
    case 'REVOKE_CONFIRMED':
      return revoking && { kind: 'revoke', seatId: revoking.seatId };
    case 'REASSIGN_SUBMITTED':
      return {
        kind: 'reassign',
        seatId: event.seatId,
        // Stryker disable next-line MethodExpression: the page's field is type="email", whose value the browser already strips of surrounding spaces
        email: event.email.trim(),
        name: event.name.trim(),
      };
    case 'GIVE_SEAT_ONE_SUBMITTED':
      return {
        kind: 'giveSeatOne',
        // Stryker disable next-line MethodExpression: the page's field is type="email", whose value the browser already strips of surrounding spaces
        email: event.email.trim(),
        name: event.name.trim(),
      };
    // Stryker disable next-line ConditionalExpression: only RETRY comes here, and the next change assigns its own before anything reads it
    default:
      return null;
  }
};

/** A refusal naming the email field; every failure is the client's ApiError, whose body is absent when the network failed. */
const isFieldError = (error: unknown) => ((error as ApiError).body as { field?: unknown } | undefined)?.field === 'email';

export const teamMachine = setup({
  // Stryker disable next-line ObjectLiteral: TypeScript-only, XState ignores `types` at run time
  types: {
    context: {} as TeamContext,
    input: {} as TeamInput,
    events: {} as TeamEvent,
  },
  actors: {
    loadTeam: fromPromise<TeamView, { access: TeamAccess }>(({ input }) => teamApi.load(input.access)),
    changeTeam: fromPromise<TeamView, { access: TeamAccess; change: TeamChange }>(({ input }) =>
      teamApi.change(input.access, input.change),
    ),
  },
  guards: {
    fieldRefusal: ({ event }) => isFieldError(failureOf(event)),
  },
  actions: {
    assignChange: assign({
      change: ({ context, event }) => changeOf(event, context.revoking),
      fieldError: null,
      error: null,
      notice: null,
    }),
    assignTeam: assign(({ event }) => ({ team: outputOf<TeamView>(event) })),
    assignDone: assign(({ context }) => {
      // A change ran, so it is known; a revoke ran after its question, so its target is too.
      const kind = context.change!.kind;
      return { notice: kind === 'revoke' ? revokeNotice(context.revoking!) : NOTICES[kind], revoking: null };
    }),
    /** Who the seat is for decides the question's words (and the notice's after it). */
    assignRevokeTarget: assign({
      revoking: ({ context, event }) => {
        assertEvent(event, 'REVOKE_CLICKED');
        // The page offers a revoke only for a seat of the team it shows.
        const seat = context.team!.members.find((member) => member.id === event.seatId)!;
        return { seatId: event.seatId, member: Boolean(seat.claimedAt) };
      },
      fieldError: null,
      error: null,
      notice: null,
    }),
    // Stryker disable next-line ObjectLiteral: the question is shown by state, and the next REVOKE_CLICKED assigns its own target
    clearRevokeTarget: assign({ revoking: null }),
    clearFieldError: assign({ fieldError: null }),
    assignError: assign(({ event }) => ({ error: failureMessage(event), revoking: null })),
    assignFieldError: assign(({ event }) => ({ fieldError: failureMessage(event), revoking: null })),
  },
}).createMachine({
  id: 'team',
  context: ({ input }) => ({
    access: input.access,
    team: null,
    change: null,
    fieldError: null,
    error: null,
    notice: null,
    revoking: null,
  }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'loadTeam',
        input: ({ context }) => ({ access: context.access }),
        onDone: { target: 'ready', actions: 'assignTeam' },
        onError: { target: 'unavailable', actions: 'assignError' },
      },
    },
    unavailable: {
      on: { RETRY: { target: 'loading', actions: 'assignChange' } },
    },
    ready: {
      on: {
        INVITE_SUBMITTED: { target: 'changing', actions: 'assignChange' },
        RESEND_CLICKED: { target: 'changing', actions: 'assignChange' },
        REVOKE_CLICKED: { target: 'confirmingRevoke', actions: 'assignRevokeTarget' },
        REASSIGN_SUBMITTED: { target: 'changing', actions: 'assignChange' },
        GIVE_SEAT_ONE_SUBMITTED: { target: 'changing', actions: 'assignChange' },
        EMAIL_TYPED: { actions: 'clearFieldError' },
      },
    },
    /** Revoking is asked once more; the other changes wait (one change at a time). */
    confirmingRevoke: {
      tags: ['busy'],
      on: {
        REVOKE_CONFIRMED: { target: 'changing', actions: 'assignChange' },
        REVOKE_ABANDONED: { target: 'ready', actions: 'clearRevokeTarget' },
      },
    },
    changing: {
      tags: ['busy'],
      invoke: {
        src: 'changeTeam',
        input: ({ context }) => ({ access: context.access, change: context.change! }),
        onDone: { target: 'ready', actions: ['assignTeam', 'assignDone'] },
        onError: [
          { guard: 'fieldRefusal', target: 'ready', actions: 'assignFieldError' },
          { target: 'ready', actions: 'assignError' },
        ],
      },
    },
  },
});
