/**
 * The buyer's manage page API (/api/account/*; server/account/routes/): a magic link by email, then the
 * subscription and what the buyer can do with it. Money in integer cents; times ISO 8601.
 */
import { Type, type Static } from 'typebox';
import { EmailText, Id, Seats, Text } from './fields';
import { SandboxCard } from './sandbox';
import { CANCEL_REASON_MAX_LENGTH } from '../domain/textLimits';

/** Body of POST /api/account/link: where to send a link to the manage page. */
export const AccountLinkRequest = Type.Object({ email: EmailText }, { additionalProperties: false });
export type AccountLinkRequest = Static<typeof AccountLinkRequest>;

/** The answer to POST /api/account/link, the same whether or not the email has a subscription. */
export const AccountLinkResponse = Type.Object({ message: Type.String() });

/** Body of POST /api/account/session: the token of a link from a mail. */
export const AccountSessionRequest = Type.Object({ token: Text(1, 128) }, { additionalProperties: false });
export type AccountSessionRequest = Static<typeof AccountSessionRequest>;

/** The subscription as the manage page shows it. */
export const AccountView = Type.Object({
  email: Type.String(),
  name: Type.String(),
  /** The order's status: 'paid' (active), 'past_due', or 'cancelled'. */
  status: Type.String(),
  seats: Type.Integer(),
  /** The seats' monthly amount before tax, in cents. */
  monthlyTotalCents: Type.Integer(),
  /** The monthly tax on it for `seats` (the state's, `taxState`), in cents; 0 untaxed. Each month charges both. */
  monthlyTaxCents: Type.Integer({ minimum: 0 }),
  /** The end of the paid period: the next charge, or the day a scheduled cancellation takes effect. */
  currentPeriodEnd: Type.Union([Type.String(), Type.Null()]),
  /** Set when the buyer cancelled: the day the subscription ends. */
  cancelAt: Type.Union([Type.String(), Type.Null()]),
  cardLast4: Type.Union([Type.String(), Type.Null()]),
  /**
   * The state the subscription is taxed in ('HI'), whose tax the invoices' `taxCents` is (docs/decisions/0070);
   * null untaxed.
   */
  taxState: Type.Union([Type.String(), Type.Null()]),
  /**
   * Paid (or due) in cents, tax included, and the tax in it (0 untaxed); `status` 'paid', 'open', 'uncollectible',
   * 'refunded' or 'partially_refunded', with what was refunded of it in cents.
   */
  invoices: Type.Array(
    Type.Object({
      id: Type.String(),
      amountCents: Type.Integer(),
      taxCents: Type.Integer({ minimum: 0 }),
      status: Type.String(),
      refundedCents: Type.Integer(),
      date: Type.String(),
    }),
  ),
  /** True when the provider's own portal manages the subscription (Stripe mode); the actions here are the sandbox's. */
  managedByProvider: Type.Boolean(),
  /**
   * The last moment of the 30-day money-back guarantee (src/domain/refunds.ts), counted from the first payment;
   * null before it. Within it the buyer may ask for their refund (docs/decisions/0068).
   */
  guaranteeEndsAt: Type.Union([Type.String(), Type.Null()]),
  /** What a refund would give back now, in cents: each paid invoice less what was refunded of it. */
  refundableCents: Type.Integer(),
  /** The buyer's ask for the guarantee's refund, once made: when, and what would have come back then (cents). */
  refundAsked: Type.Union([Type.Object({ at: Type.String(), amountCents: Type.Integer() }), Type.Null()]),
});
export type AccountView = Static<typeof AccountView>;

/** The answer to POST /api/account/session: the view, and for an agreement link where to send the buyer. */
export const AccountSessionResponse = Type.Object({ account: AccountView, agreementUrl: Type.Union([Type.String(), Type.Null()]) });
export type AccountSessionResponse = Static<typeof AccountSessionResponse>;

/**
 * The answer to GET /api/account/session, the page's first question: the subscription of the signed-in buyer, or
 * null without a live session (an ordinary answer, 200: the page then asks for a link; no error is logged).
 */
export const AccountProbeResponse = Type.Object({ account: Type.Union([AccountView, Type.Null()]) });
export type AccountProbeResponse = Static<typeof AccountProbeResponse>;

/**
 * Body of POST /api/account/subscription-check (the checkout's notice before a second purchase, decision 0031):
 * the email typed, and the ids of the purchase this browser finalized, when it has one.
 */
export const SubscriptionCheckRequest = Type.Object(
  {
    email: EmailText,
    purchase: Type.Optional(Type.Object({ transactionId: Id, customerId: Id }, { additionalProperties: false })),
  },
  { additionalProperties: false },
);
export type SubscriptionCheckRequest = Static<typeof SubscriptionCheckRequest>;

/** The answer: true only when this browser proves it holds that email's active subscription. */
export const SubscriptionCheckResponse = Type.Object({ activeSubscription: Type.Boolean() });
export type SubscriptionCheckResponse = Static<typeof SubscriptionCheckResponse>;

/** Body of POST /api/account/cancel: an optional reason. */
export const CancelRequest = Type.Object({ reason: Type.Optional(Text(0, CANCEL_REASON_MAX_LENGTH)) }, { additionalProperties: false });
export type CancelRequest = Static<typeof CancelRequest>;

/** Body of POST /api/account/refund-request: the buyer's reason, optional (the cancel's, when asked with it). */
export const RefundAskRequest = Type.Object({ reason: Type.Optional(Text(0, CANCEL_REASON_MAX_LENGTH)) }, { additionalProperties: false });
export type RefundAskRequest = Static<typeof RefundAskRequest>;

/** Body of POST /api/account/seats. */
export function SeatsRequest(maxSeats: number) {
  return Type.Object(
    {
      quantity: Seats(maxSeats),
      /** The preview's `prorationDate`: the change is charged as it was quoted (an older quote is refused, 409). */
      prorationDate: Type.Optional(Type.Integer({ minimum: 0, maximum: 2 ** 40 })),
    },
    { additionalProperties: false },
  );
}
export type SeatsRequest = Static<ReturnType<typeof SeatsRequest>>;

/**
 * The answer to POST /api/account/seats/preview: what changing to `quantity` seats costs now, before the buyer
 * confirms (docs/decisions/0045). Cents; the next charge date ISO 8601 or null.
 */
export const SeatChangePreview = Type.Object({
  quantity: Type.Integer(),
  /** Charged at once when the buyer confirms (the rest of this period for the seats added), tax included. */
  amountDueNowCents: Type.Integer(),
  /** The tax in `amountDueNowCents` (0 untaxed), shown on its own line before the buyer confirms. */
  taxDueNowCents: Type.Integer({ minimum: 0 }),
  /** Taken off the next invoice (the unused time of seats taken away). */
  creditCents: Type.Integer(),
  /** The monthly total for `quantity` seats from the next renewal, before tax. */
  monthlyTotalCents: Type.Integer(),
  /** The monthly tax on it (the account's `taxState`); 0 untaxed. */
  monthlyTaxCents: Type.Integer({ minimum: 0 }),
  nextChargeDate: Type.Union([Type.String(), Type.Null()]),
  /** Unix seconds the amount was prorated at; sent back on confirming, so the charge is the amount shown. */
  prorationDate: Type.Integer(),
});
export type SeatChangePreview = Static<typeof SeatChangePreview>;

/** Body of POST /api/account/card (sandbox mode: a test card, as the checkout's card form sends it). */
export const CardRequest = Type.Object({ card: SandboxCard }, { additionalProperties: false });
export type CardRequest = Static<typeof CardRequest>;

/** Body of POST /api/account/portal (Stripe mode): which page of the Customer Portal to open. */
export const PortalRequest = Type.Object(
  { flow: Type.Union([Type.Literal('home'), Type.Literal('cancel'), Type.Literal('seats'), Type.Literal('card')]) },
  { additionalProperties: false },
);
export type PortalRequest = Static<typeof PortalRequest>;

/** The answer to POST /api/account/credentials: the new password, shown once. */
export const NewCredentials = Type.Object({ email: Type.String(), password: Type.String() });
export type NewCredentials = Static<typeof NewCredentials>;

/** Body of POST /api/sandbox/clock/advance (sandbox mode only). */
export const ClockAdvanceRequest = Type.Object({ days: Type.Integer({ minimum: 1, maximum: 400 }) }, { additionalProperties: false });
