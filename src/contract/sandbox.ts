/**
 * The sandbox provider's two confirmation calls, made by the sandbox card form the way Stripe.js confirms a
 * PaymentIntent (architecture.md, "sandbox"). Registered only when the provider is the sandbox.
 */
import { Type, type Static } from 'typebox';
import { EMAIL_PATTERN } from '../domain/validation';
import { EmailText, NameText, Text } from './fields';

/** The card as the sandbox form sends it: digits (spaces allowed), month 1-12, four-digit year. */
export const SandboxCard = Type.Object(
  {
    number: Type.String({ pattern: '^[0-9 ]{1,40}$' }),
    expMonth: Type.Integer({ minimum: 1, maximum: 12 }),
    expYear: Type.Integer({ minimum: 0, maximum: 2199 }),
    cvc: Text(0, 8),
    postalCode: Text(0, 16),
  },
  { additionalProperties: false },
);
export type SandboxCard = Static<typeof SandboxCard>;

/** Body of POST /api/sandbox/payment-intents/confirm. */
export const SandboxConfirmRequest = Type.Object(
  {
    clientSecret: Text(1, 255),
    card: SandboxCard,
    billingDetails: Type.Object(
      { name: NameText, email: Type.String({ ...EmailText, allOf: [{ pattern: EMAIL_PATTERN.source }] }) },
      { additionalProperties: false },
    ),
    /** A solved proof-of-work challenge (ALTCHA payload, base64), once the address must show one (428). */
    challenge: Type.Optional(Text(1, 4096)),
  },
  { additionalProperties: false },
);
export type SandboxConfirmRequest = Static<typeof SandboxConfirmRequest>;

/** Body of POST /api/sandbox/payment-intents/authenticate: the buyer's choice on the challenge. */
export const SandboxAuthenticateRequest = Type.Object(
  { clientSecret: Text(1, 255), outcome: Type.Enum(['completed', 'failed'], { type: 'string' }) },
  { additionalProperties: false },
);
export type SandboxAuthenticateRequest = Static<typeof SandboxAuthenticateRequest>;

/** 200 answer of both: the PaymentIntent succeeded or asks for authentication (Stripe's statuses). */
export const SandboxIntentResponse = Type.Object({
  status: Type.Enum(['succeeded', 'requires_action']),
  paymentIntentId: Type.String(),
});
export type SandboxIntentResponse = Static<typeof SandboxIntentResponse>;

/** 428 answer of confirm: this address must solve `challenge` (ALTCHA) and send the solution with the card. */
export const ChallengeRequiredResponse = Type.Object({
  error: Type.String(),
  challenge: Type.Object({
    algorithm: Type.String(),
    challenge: Type.String(),
    maxnumber: Type.Optional(Type.Integer()),
    salt: Type.String(),
    signature: Type.String(),
  }),
});
export type ChallengeRequiredResponse = Static<typeof ChallengeRequiredResponse>;

/** 402 answer of both: a decline, with Stripe's decline code. */
export const SandboxDeclineResponse = Type.Object({ error: Type.String(), code: Type.String() });
