/**
 * POST /api/handoff/redeem, for the agreement (success) site: it trades the buyer's single-use hand-off token
 * for the order, with HANDOFF_API_KEY as a bearer key (architecture.md).
 */
import { Type, type Static } from 'typebox';
import { Text } from './fields';

export const HandoffRedeemRequest = Type.Object({ token: Text(1, 128) }, { additionalProperties: false });
export type HandoffRedeemRequest = Static<typeof HandoffRedeemRequest>;

/**
 * The person the token stood for and their paid order. Money in cents; `paidAt` is an ISO 8601 time. `email` and
 * `name` are the person's: the buyer's for the buyer's token (seat 1, role 'buyer', as before teams), a team
 * member's for the token their claim on /join gave them (role 'member').
 */
export const HandoffRedemption = Type.Object({
  transactionId: Type.String(),
  email: Type.String(),
  name: Type.String(),
  role: Type.Union([Type.Literal('buyer'), Type.Literal('member')]),
  seatNumber: Type.Integer({ minimum: 1 }),
  seats: Type.Integer(),
  /** The seats' monthly amount before tax, in cents, as the webhooks carry it. */
  monthlyTotalCents: Type.Integer(),
  /** The monthly tax on it at the seats now, in cents, owed to `taxState`; 0 untaxed (docs/decisions/0076). */
  monthlyTaxCents: Type.Integer({ minimum: 0 }),
  /** The state the tax is owed to ('HI'); null untaxed. */
  taxState: Type.Union([Type.String(), Type.Null()]),
  productPurchased: Type.String(),
  paidAt: Type.String({ format: 'date-time' }),
  /**
   * When the training platform signs people in through us (OIDC on): a one-time hint, valid 30 minutes, that the
   * platform's next sign-in passes as `login_hint` to sign the buyer in without their password (decision 0034).
   */
  loginHint: Type.Optional(Type.String()),
});
export type HandoffRedemption = Static<typeof HandoffRedemption>;
