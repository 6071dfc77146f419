/**
 * The buyer's team: the seats of a paid order, invitations, and the invitee's claim on /join. The
 * buyer's calls run with the manage page's session (cookie) or, from the success page, the order's hand-off token
 * as `Authorization: Bearer …` (server/seats/teamAccess.ts). Every refusal is a 4xx `{ error }`; one about the
 * email field also names it (`field: 'email'`) so the page shows it under the field.
 */
import { Type, type Static } from 'typebox';
import { EmailText, NameText, Text, Uuid } from './fields';

/** A team member's seat as the buyer sees it. Times are ISO 8601. */
export const TeamSeat = Type.Object({
  id: Type.String(),
  seatNumber: Type.Integer(),
  /** 'suspended' while the subscription has fewer seats than people (the provider lowered it). */
  status: Type.Union([Type.Literal('invited'), Type.Literal('claimed'), Type.Literal('suspended'), Type.Literal('revoked')]),
  email: Type.String(),
  name: Type.String(),
  invitedAt: Type.String(),
  claimedAt: Type.Union([Type.String(), Type.Null()]),
  revokedAt: Type.Union([Type.String(), Type.Null()]),
  /** When the agreement site reported this person's training agreement signed (docs/decisions/0063); null: pending. */
  agreementSignedAt: Type.Union([Type.String(), Type.Null()]),
});
export type TeamSeat = Static<typeof TeamSeat>;

/**
 * The order's seats: seat 1 the buyer's (or given by the buyer: then a member with seat number 1,
 * docs/decisions/0038), `members` the seats given to someone, `free` the empty ones of seats 2 and on.
 */
export const TeamView = Type.Object({
  seats: Type.Integer({ description: 'The subscription’s quantity.' }),
  buyer: Type.Object({
    email: Type.String(),
    name: Type.String(),
    holdsSeat: Type.Boolean({
      description: 'False once someone the buyer gave seat 1 to has claimed it (the buyer still manages the subscription).',
    }),
  }),
  members: Type.Array(TeamSeat, { description: 'Invited, claimed and suspended seats (revoked ones are not listed).' }),
  free: Type.Integer({ description: 'Seats waiting to be assigned.' }),
  /** False once the subscription has ended (nothing can be invited). */
  active: Type.Boolean(),
});
export type TeamView = Static<typeof TeamView>;

/** Invite someone to a free seat (or, with a seat id in the path, reassign that seat; or give seat 1, the buyer's own). */
export const InviteRequest = Type.Object({ email: EmailText, name: NameText }, { additionalProperties: false });
export type InviteRequest = Static<typeof InviteRequest>;

/** A refusal; `field` names the form field it belongs under. */
export const TeamError = Type.Object({ error: Type.String(), field: Type.Optional(Type.Literal('email')) });

/** The invitation link's token (POSTed by /join, so a mail scanner's GET uses nothing). */
export const JoinRequest = Type.Object({ token: Text(1, 128) }, { additionalProperties: false });
export type JoinRequest = Static<typeof JoinRequest>;

/** What /join shows before accepting. */
export const JoinInvitation = Type.Object({
  email: Type.String(),
  name: Type.String(),
  invitedBy: Type.String(),
  practiceName: Type.String(),
  productName: Type.String(),
  expiresAt: Type.String(),
});
export type JoinInvitation = Static<typeof JoinInvitation>;

/** The claimed seat's login, shown once, and the member's own hand-off to the agreement site. */
export const JoinClaimed = Type.Object({
  email: Type.String(),
  name: Type.String(),
  password: Type.String(),
  seatNumber: Type.Integer(),
  /** The agreement site with the member's own hand-off token. */
  agreementUrl: Type.String(),
});
export type JoinClaimed = Static<typeof JoinClaimed>;

/** A seat id in a path. */
export const SeatParams = Type.Object({ seatId: Uuid }, { additionalProperties: false });
export type SeatParams = Static<typeof SeatParams>;
