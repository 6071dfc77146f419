/**
 * POST /api/agreement/signed, for the agreement (success) site: it reports that a person signed the training
 * agreement, signed with the webhooks' shared secret (`Checkout-Signature`, docs/decisions/0063).
 */
import { Type, type Static } from 'typebox';
import { Id, Text } from './fields';

/** Who signed: the order (`transactionId`) and the person's email, as the hand-off's redemption named them. */
export const AgreementSignedRequest = Type.Object({ transactionId: Id, email: Text(3, 254) }, { additionalProperties: false });
export type AgreementSignedRequest = Static<typeof AgreementSignedRequest>;

/**
 * The person's agreement as recorded: `signedAt` (ISO 8601) is the first report's time, the same on every repeat;
 * `alreadySigned` is true for a repeat.
 */
export const AgreementSignedResponse = Type.Object({
  transactionId: Type.String(),
  email: Type.String(),
  role: Type.Union([Type.Literal('buyer'), Type.Literal('member')]),
  seatNumber: Type.Integer({ minimum: 1 }),
  agreement: Type.Literal('signed'),
  signedAt: Type.String({ format: 'date-time' }),
  alreadySigned: Type.Boolean(),
});
export type AgreementSignedResponse = Static<typeof AgreementSignedResponse>;
