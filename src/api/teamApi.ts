/**
 * The team's calls (src/contract/team.ts; server/seats/routes.ts): the buyer's, with the manage page's session
 * cookie or the success page's hand-off token, and the invitee's on /join. Each raises ApiError with the server's
 * `error` text (and its body, whose `field` says which field a refusal belongs under).
 */
import type { JoinClaimed, JoinInvitation, TeamView } from '../contract/team';
import { readJson, requestJson } from './client';

const FAILED = 'We could not reach the server. Please try again.';

/** How the buyer's calls are authorized: the session (manage page) or the order's hand-off token (success page). */
export type TeamAccess = { kind: 'session' } | { kind: 'token'; token: string };

/** A change the buyer makes to the team. */
export type TeamChange =
  | { kind: 'invite'; email: string; name: string }
  | { kind: 'resend'; seatId: string }
  | { kind: 'revoke'; seatId: string }
  | { kind: 'reassign'; seatId: string; email: string; name: string }
  /** Seat 1, the buyer's own, to someone else (docs/decisions/0038). */
  | { kind: 'giveSeatOne'; email: string; name: string };

const headersOf = (access: TeamAccess): Record<string, string> =>
  access.kind === 'token' ? { Authorization: `Bearer ${access.token}` } : {};

export const teamApi = {
  load: (access: TeamAccess) => readJson<TeamView>('/api/account/team', FAILED, headersOf(access)),
  change: (access: TeamAccess, change: TeamChange) => {
    const path =
      change.kind === 'invite'
        ? '/api/account/team/invite'
        : change.kind === 'giveSeatOne'
          ? '/api/account/team/seat-one'
          : `/api/account/team/${encodeURIComponent(change.seatId)}/${change.kind}`;
    const body = 'email' in change ? { email: change.email, name: change.name } : {};
    return requestJson<TeamView>('POST', path, body, FAILED, headersOf(access));
  },
  invitation: (token: string) => requestJson<JoinInvitation>('POST', '/api/join/invitation', { token }, FAILED),
  claim: (token: string) => requestJson<JoinClaimed>('POST', '/api/join/claim', { token }, FAILED),
};
