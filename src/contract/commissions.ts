/**
 * Commissions: the console's rules, balances and payout batches (/api/admin/commissions/*) and the
 * referrer's own page (/api/partner/*). Money is integer cents; times are ISO 8601.
 */
import { Type, type Static } from 'typebox';
import { EmailText, Text } from './fields';

const Months = Type.Union([Type.Integer({ minimum: 1, maximum: 120 }), Type.Null()]);

/** A commission rule: a percentage of each paid invoice (basis points, 2000 = 20 %) or cents per paid seat per month. */
export const CommissionRuleBody = Type.Union([
  Type.Object(
    { kind: Type.Literal('percent'), percentBasisPoints: Type.Integer({ minimum: 0, maximum: 10_000 }), months: Months },
    { additionalProperties: false },
  ),
  Type.Object(
    { kind: Type.Literal('flat'), flatCentsPerSeat: Type.Integer({ minimum: 0, maximum: 1_000_000 }), months: Months },
    { additionalProperties: false },
  ),
]);
export type CommissionRuleBody = Static<typeof CommissionRuleBody>;

/** Body of PUT /api/admin/commissions/default-rule. */
export const DefaultRuleRequest = Type.Object({ rule: CommissionRuleBody }, { additionalProperties: false });
export type DefaultRuleRequest = Static<typeof DefaultRuleRequest>;

/**
 * Body of PUT /api/admin/commissions/referrers/:id: the referrer's email (null to remove it) and their own rule
 * (null: the default rule applies). Either may be left out.
 */
export const ReferrerCommissionRequest = Type.Object(
  {
    email: Type.Optional(Type.Union([EmailText, Type.Null()])),
    rule: Type.Optional(Type.Union([CommissionRuleBody, Type.Null()])),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type ReferrerCommissionRequest = Static<typeof ReferrerCommissionRequest>;

/** Commission totals in cents. */
const CommissionTotals = Type.Object({
  held: Type.Integer(),
  payable: Type.Integer(),
  inPayout: Type.Integer(),
  paid: Type.Integer(),
  reversed: Type.Integer(),
});

/** One referrer on the commissions screen. */
export const ReferrerCommission = Type.Object({
  referrerId: Type.String(),
  slug: Type.String(),
  displayName: Type.String(),
  email: Type.Union([Type.String(), Type.Null()]),
  /** Their rule in words, and whether it is the default. */
  rule: Type.String(),
  ruleIsDefault: Type.Boolean(),
  totals: CommissionTotals,
});
export type ReferrerCommission = Static<typeof ReferrerCommission>;

const BatchStatus = Type.Union([Type.Literal('created'), Type.Literal('paid'), Type.Literal('voided')]);
const EntryKind = Type.Union([Type.Literal('earned'), Type.Literal('reversal'), Type.Literal('clawback')]);
const EntryState = Type.Union([
  Type.Literal('held'),
  Type.Literal('payable'),
  Type.Literal('in_payout'),
  Type.Literal('paid'),
  Type.Literal('reversed'),
]);

/** A payout batch. */
export const PayoutBatch = Type.Object({
  id: Type.Integer(),
  status: BatchStatus,
  reference: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String(),
  paidAt: Type.Union([Type.String(), Type.Null()]),
  voidedAt: Type.Union([Type.String(), Type.Null()]),
  totalCents: Type.Integer(),
  payees: Type.Array(
    Type.Object({
      referrerId: Type.String(),
      slug: Type.String(),
      displayName: Type.String(),
      email: Type.Union([Type.String(), Type.Null()]),
      amountCents: Type.Integer(),
      entries: Type.Integer(),
    }),
  ),
});
export type PayoutBatch = Static<typeof PayoutBatch>;

/** GET /api/admin/commissions: the default rule, each referrer, the batches, the minimum used for a batch. */
export const CommissionsOverview = Type.Object({
  defaultRule: Type.String(),
  minimumCents: Type.Integer(),
  referrers: Type.Array(ReferrerCommission),
  batches: Type.Array(PayoutBatch),
});
export type CommissionsOverview = Static<typeof CommissionsOverview>;

/** Body of POST /api/admin/commissions/batches: the minimum payable balance in cents (default $50). */
export const CreateBatchRequest = Type.Object(
  { minimumCents: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000_000 })) },
  { additionalProperties: false },
);
export type CreateBatchRequest = Static<typeof CreateBatchRequest>;

/** Body of POST /api/admin/commissions/batches/:id/paid. */
export const MarkPaidRequest = Type.Object({ reference: Text(1, 120) }, { additionalProperties: false });
export type MarkPaidRequest = Static<typeof MarkPaidRequest>;

/** One ledger entry (the order detail's, the partner page's). */
export const LedgerEntry = Type.Object({
  id: Type.Integer(),
  kind: EntryKind,
  invoiceId: Type.String(),
  invoiceCents: Type.Integer(),
  seats: Type.Integer(),
  amountCents: Type.Integer(),
  state: EntryState,
  rule: Type.String(),
  selfReferral: Type.Boolean(),
  earnedAt: Type.String(),
});
export type LedgerEntry = Static<typeof LedgerEntry>;

/** GET /api/admin/orders/:transactionId/commissions. */
export const OrderCommissions = Type.Object({ entries: Type.Array(LedgerEntry) });
export type OrderCommissions = Static<typeof OrderCommissions>;

/** Body of POST /api/partner/link. */
export const PartnerLinkRequest = Type.Object({ email: EmailText }, { additionalProperties: false });
export type PartnerLinkRequest = Static<typeof PartnerLinkRequest>;

/** Body of POST /api/partner/session. */
export const PartnerSessionRequest = Type.Object({ token: Text(1, 200) }, { additionalProperties: false });
export type PartnerSessionRequest = Static<typeof PartnerSessionRequest>;

/** Whether this browser holds a referrer's session: the page's first question (a 200 either way). */
export const PartnerSessionProbe = Type.Object({ signedIn: Type.Boolean() });
export type PartnerSessionProbe = Static<typeof PartnerSessionProbe>;

/** Query of GET /api/partner: the period of the funnel figures (YYYY-MM-DD, inclusive; default the last 30 days). */
export const PartnerQuery = Type.Object(
  {
    from: Type.Optional(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' })),
    to: Type.Optional(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' })),
  },
  { additionalProperties: false },
);
export type PartnerQuery = Static<typeof PartnerQuery>;

/** The referrer's own page. */
export const PartnerView = Type.Object({
  displayName: Type.String(),
  link: Type.String(),
  /** The link as a QR code, an SVG document. */
  qrSvg: Type.String(),
  rule: Type.String(),
  period: Type.Object({ from: Type.String(), to: Type.String() }),
  funnel: Type.Object({
    visits: Type.Integer(),
    checkoutsOpened: Type.Integer(),
    practicesPaid: Type.Integer(),
    activeSeats: Type.Integer(),
    monthlyRevenueCents: Type.Integer(),
  }),
  totals: CommissionTotals,
  practices: Type.Array(
    Type.Object({
      name: Type.String(),
      seats: Type.Integer(),
      status: Type.String(),
      entries: Type.Array(LedgerEntry),
    }),
  ),
  payouts: Type.Array(
    Type.Object({
      id: Type.Integer(),
      status: BatchStatus,
      amountCents: Type.Integer(),
      reference: Type.Union([Type.String(), Type.Null()]),
      createdAt: Type.String(),
      paidAt: Type.Union([Type.String(), Type.Null()]),
    }),
  ),
});
export type PartnerView = Static<typeof PartnerView>;
