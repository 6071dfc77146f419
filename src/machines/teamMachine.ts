/**
 * The buyer's team, one statechart for the success page's "Your team" and the manage page's Team
 * section: load the order's seats, then invite, resend, revoke or reassign one change at a time, or give seat 1, the
 * buyer's own, to someone else (docs/decisions/0038; revoking that person gives it back). The calls are
 * invoked actors (src/api/teamApi.ts) with the page's access (the session, or the success page's hand-off token);
 * the view renders a snapshot and sends events. A refusal keeps the team as it was and shows the server's words,
 * under the email field when the server says it belongs there.
 */
import { assign, fromPromise, setup } from 'xstate';
import { failureOf, outputOf } from './actorError';
import { ApiError } from '../api/client';
import { teamApi, type TeamAccess, type TeamChange } from '../api/teamApi';
import type { TeamView } from '../contract/team';

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
}

type TeamEvent =
  | { type: 'INVITE_SUBMITTED'; email: string; name: string }
  | { type: 'RESEND_CLICKED'; seatId: string }
  | { type: 'REVOKE_CLICKED'; seatId: string }
  | { type: 'REASSIGN_SUBMITTED'; seatId: string; email: string; name: string }
  | { type: 'GIVE_SEAT_ONE_SUBMITTED'; email: string; name: string }
  | { type: 'RETRY' };

const NOTICES: Record<TeamChange['kind'], string> = {
  invite: 'Invitation sent.',
  resend: 'Invitation sent again.',
  revoke: 'Seat revoked: that person can no longer sign in.',
  reassign: 'Seat given to someone else; the invitation is on its way.',
  giveSeatOne: 'Seat 1 offered; the invitation is on its way. Your login keeps seat 1 until they accept.',
};

const changeOf = (event: TeamEvent): TeamChange | null => {
  switch (event.type) {
    case 'INVITE_SUBMITTED':
      return { kind: 'invite', email: event.email.trim(), name: event.name.trim() };
    case 'RESEND_CLICKED':
      return { kind: 'resend', seatId: event.seatId };
    case 'REVOKE_CLICKED':
      return { kind: 'revoke', seatId: event.seatId };
    case 'REASSIGN_SUBMITTED':
      return { kind: 'reassign', seatId: event.seatId, email: event.email.trim(), name: event.name.trim() };
    case 'GIVE_SEAT_ONE_SUBMITTED':
      return { kind: 'giveSeatOne', email: event.email.trim(), name: event.name.trim() };
    case 'RETRY':
      return null;
  }
};

const messageOf = (error: unknown) => (error instanceof Error && error.message ? error.message : 'Something went wrong. Please try again.');
const isFieldError = (error: unknown) =>
  error instanceof ApiError &&
  typeof error.body === 'object' &&
  error.body !== null &&
  (error.body as { field?: unknown }).field === 'email';

export const teamMachine = setup({
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
      change: ({ event }) => changeOf(event),
      fieldError: null,
      error: null,
      notice: null,
    }),
    assignTeam: assign(({ event }) => ({ team: outputOf<TeamView>(event) })),
    assignDone: assign(({ context }) => ({ notice: context.change ? NOTICES[context.change.kind] : null })),
    assignError: assign(({ event }) => ({ error: messageOf(failureOf(event)) })),
    assignFieldError: assign(({ event }) => ({ fieldError: messageOf(failureOf(event)) })),
  },
}).createMachine({
  id: 'team',
  context: ({ input }) => ({ access: input.access, team: null, change: null, fieldError: null, error: null, notice: null }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
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
        REVOKE_CLICKED: { target: 'changing', actions: 'assignChange' },
        REASSIGN_SUBMITTED: { target: 'changing', actions: 'assignChange' },
        GIVE_SEAT_ONE_SUBMITTED: { target: 'changing', actions: 'assignChange' },
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
