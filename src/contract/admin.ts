/**
 * The owner's console API (/api/admin/*) and the referrer the offer page names: bodies, answers and query
 * strings, once, for the server's validation and the console's types. Money is integer cents; times are ISO 8601.
 */
import { Type, type Static } from 'typebox';
import { LedgerEntry } from './commissions';
import { TeamSeat } from './team';
import { ORDER_STANDINGS } from '../domain/orderStatus';
import { Text, Uuid } from './fields';
import { CONTENT_LIMITS, MAX_TESTIMONIALS } from '../domain/offerContent';

/**
 * The referrer named on the offer page, as the server writes it into the page (`<script id="offer-referrer">`):
 * 'For Friends of Dr. {name} Only', their quote, and the label the page sends as affiliate_id (spec §3).
 */
export const OfferReferrer = Type.Object({ name: Type.String(), shortLabel: Type.String(), quote: Type.String() });
export type OfferReferrer = Static<typeof OfferReferrer>;

/** A referral link's last segment: 2-40 lower-case letters, digits and single dashes, e.g. `jane-doe`. */
export const SLUG_PATTERN = '^[a-z0-9]+(-[a-z0-9]+)*$';
const Slug = Type.String({ minLength: 2, maxLength: 40, pattern: SLUG_PATTERN });

const ReferrerStatus = Type.Union([Type.Literal('active'), Type.Literal('disabled')]);

/** A referrer as the console shows it. */
export const Referrer = Type.Object({
  id: Type.String(),
  slug: Type.String(),
  displayName: Type.String(),
  shortLabel: Type.String(),
  quote: Type.String(),
  status: ReferrerStatus,
  createdAt: Type.String(),
  updatedAt: Type.String(),
});
export type Referrer = Static<typeof Referrer>;

/** Body of POST /api/admin/referrers. */
export const CreateReferrerRequest = Type.Object(
  { slug: Slug, displayName: Text(1, 80), shortLabel: Text(1, 64), quote: Text(1, 600) },
  { additionalProperties: false },
);
export type CreateReferrerRequest = Static<typeof CreateReferrerRequest>;

/** Body of PATCH /api/admin/referrers/:id: any of the editable fields; the slug never changes (links are out). */
export const UpdateReferrerRequest = Type.Object(
  {
    displayName: Type.Optional(Text(1, 80)),
    shortLabel: Type.Optional(Text(1, 64)),
    quote: Type.Optional(Text(1, 600)),
    status: Type.Optional(ReferrerStatus),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateReferrerRequest = Static<typeof UpdateReferrerRequest>;

/** Body of POST /api/admin/sign-in. */
export const SignInRequest = Type.Object({ email: Text(1, 254), password: Text(1, 200) }, { additionalProperties: false });
export type SignInRequest = Static<typeof SignInRequest>;

/** The signed-in owner (GET /api/admin/session, and the answer to sign-in). */
export const OwnerSession = Type.Object({ email: Type.String() });
export type OwnerSession = Static<typeof OwnerSession>;

const IsoDate = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });

/** A period of whole UTC days, `from` to `to` inclusive (YYYY-MM-DD); default: the last 30 days. */
export const PeriodQuery = Type.Object({ from: Type.Optional(IsoDate), to: Type.Optional(IsoDate) }, { additionalProperties: false });
export type PeriodQuery = Static<typeof PeriodQuery>;

/** How the dashboard's MRR chart groups the period: one point at the end of each day, week or month. */
export const MrrInterval = Type.Union([Type.Literal('day'), Type.Literal('week'), Type.Literal('month')]);
export type MrrInterval = Static<typeof MrrInterval>;

/** Query of GET /api/admin/dashboard: the period and the MRR chart's interval (default: day). */
export const DashboardQuery = Type.Object(
  {
    from: Type.Optional(IsoDate),
    to: Type.Optional(IsoDate),
    interval: Type.Optional(MrrInterval),
  },
  { additionalProperties: false },
);
export type DashboardQuery = Static<typeof DashboardQuery>;

/**
 * The orders filter: an order's standing (src/domain/orderStatus.ts), `cancellations` (a cancellation scheduled
 * or done, the Cancellations view) or `payment_failed` (a payment of the order failed in the period).
 */
export const ORDER_FILTERS = [...ORDER_STANDINGS, 'cancellations', 'payment_failed'] as const;
export type OrderFilter = (typeof ORDER_FILTERS)[number];

/**
 * Query of GET /api/admin/orders (and orders.csv): status (ORDER_FILTERS), referrer id (or `none`), the period
 * (the days the orders opened in, or for `payment_failed` the days the payment failed on), `buyer` (part of the
 * buyer's email or name, any case) and `unpaid`: checkouts never paid (status `open`) are left out of an
 * unfiltered list unless it is `shown`.
 */
export const OrdersQuery = Type.Object(
  {
    status: Type.Optional(
      Type.Union([
        Type.Literal('open'),
        Type.Literal('active'),
        Type.Literal('cancelling'),
        Type.Literal('past_due'),
        Type.Literal('cancelled'),
        Type.Literal('refunded'),
        Type.Literal('disputed'),
        Type.Literal('cancellations'),
        Type.Literal('payment_failed'),
      ]),
    ),
    referrer: Type.Optional(Type.Union([Type.Literal('none'), Uuid])),
    from: Type.Optional(IsoDate),
    to: Type.Optional(IsoDate),
    buyer: Type.Optional(Text(1, 254)),
    unpaid: Type.Optional(Type.Literal('shown')),
  },
  { additionalProperties: false },
);
export type OrdersQuery = Static<typeof OrdersQuery>;

/** One order in the console's list. `amountCents` is the monthly total in cents. */
export const OrderRow = Type.Object({
  transactionId: Type.String(),
  status: Type.String(),
  quantity: Type.Integer(),
  amountCents: Type.Integer(),
  email: Type.Union([Type.String(), Type.Null()]),
  name: Type.Union([Type.String(), Type.Null()]),
  referrer: Type.Union([Type.Object({ id: Type.String(), slug: Type.String(), displayName: Type.String() }), Type.Null()]),
  affiliateId: Type.String(),
  provider: Type.String(),
  customerId: Type.String(),
  subscriptionId: Type.String(),
  createdAt: Type.String(),
  paidAt: Type.Union([Type.String(), Type.Null()]),
  cancelledAt: Type.Union([Type.String(), Type.Null()]),
  /** When a scheduled cancellation takes effect (the end of the paid period); null when none is scheduled. */
  cancelAt: Type.Union([Type.String(), Type.Null()]),
  /** The reason the buyer gave when cancelling on /account; null when none was given. */
  cancellationReason: Type.Union([Type.String(), Type.Null()]),
  /** When the order became past due (a renewal unpaid); null unless it is past due. */
  pastDueSince: Type.Union([Type.String(), Type.Null()]),
  /** Refunded to the buyer so far, in cents (0 when nothing was). */
  refundedCents: Type.Integer(),
  /** The tax share of `refundedCents`, in cents (docs/decisions/0074); 0 (or absent) untaxed. */
  refundedTaxCents: Type.Optional(Type.Integer()),
  /**
   * The buyer's ask on /account for the guarantee's refund (docs/decisions/0068): when, and what would have come
   * back then, in cents; null (or absent) when they never asked. The owner makes the refund.
   */
  refundAsked: Type.Optional(Type.Union([Type.Object({ at: Type.String(), amountCents: Type.Integer() }), Type.Null()])),
  /** A dispute (chargeback) of one of its payments is open: the order reads "Disputed". */
  disputed: Type.Optional(Type.Boolean()),
  /** The earliest evidence deadline of its open disputes (Stripe `evidence_details.due_by`), ISO 8601; null when none is asked. */
  disputeDueBy: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});
export type OrderRow = Static<typeof OrderRow>;

/**
 * Body of POST /api/admin/orders/:transactionId/refund: the amount in cents; left out for a full refund, which
 * only the first 30 days after the first payment allow (the offer's guarantee).
 */
export const RefundRequest = Type.Object(
  {
    amountCents: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000_000 })),
    /**
     * The console's key for this refund, made once when the owner confirms it and sent again on a retry: a retry
     * (after a later step failed) never refunds twice; a new refund has a new key.
     */
    requestKey: Type.Optional(Type.String({ minLength: 8, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' })),
  },
  { additionalProperties: false },
);
export type RefundRequest = Static<typeof RefundRequest>;

/** A funnel event in an order's timeline. */
export const FunnelEventRow = Type.Object({
  type: Type.String(),
  occurredAt: Type.String(),
  detail: Type.Union([Type.Record(Type.String(), Type.Union([Type.String(), Type.Number()])), Type.Null()]),
});
export type FunnelEventRow = Static<typeof FunnelEventRow>;

/** An invoice of the order's subscription as the payment provider reports it (amount in cents, date ISO 8601). */
/** An invoice in cents: `status` 'paid', 'open', 'uncollectible', 'refunded' or 'partially_refunded', with what was refunded of it. */
export const OrderInvoice = Type.Object({
  id: Type.String(),
  /** Paid (or due), tax included, in cents. */
  amountCents: Type.Integer(),
  /** The tax in `amountCents`, in cents (0 untaxed): the console shows it apart. */
  taxCents: Type.Integer({ minimum: 0 }),
  status: Type.String(),
  refundedCents: Type.Integer(),
  date: Type.String(),
});
export type OrderInvoice = Static<typeof OrderInvoice>;

/**
 * GET /api/admin/orders/:transactionId: the order, its events (oldest first) and its invoices, newest first
 * (null when the provider could not be asked now; empty before the first payment).
 */
export const OrderDetail = Type.Object({
  order: OrderRow,
  events: Type.Array(FunnelEventRow),
  invoices: Type.Union([Type.Array(OrderInvoice), Type.Null()]),
  /** The team's seats (who, status, when; revoked ones too). */
  seats: Type.Array(TeamSeat),
  /**
   * When the agreement site reported the buyer's training agreement signed (docs/decisions/0063); null while
   * pending or before the order is paid. Each member's is on their seat.
   */
  buyerAgreementSignedAt: Type.Union([Type.String(), Type.Null()]),
  /** The referrer's commission ledger entries for this order, oldest first. */
  commissions: Type.Array(LedgerEntry),
});
export type OrderDetail = Static<typeof OrderDetail>;

/** The funnel of one referrer (or of visits without a link: `referrer` null) over a period. */
export const ReferrerFunnel = Type.Object({
  referrer: Type.Union([Type.Object({ id: Type.String(), slug: Type.String(), displayName: Type.String() }), Type.Null()]),
  views: Type.Integer(),
  opened: Type.Integer(),
  submitted: Type.Integer(),
  paid: Type.Integer(),
  /** Seats of the orders paid in the period. */
  paidSeats: Type.Integer(),
  /** Monthly recurring revenue of this referrer's active orders at the period's end, in cents. */
  mrrCents: Type.Integer(),
});
export type ReferrerFunnel = Static<typeof ReferrerFunnel>;

/** The console's actions on one order (POST /api/admin/orders/:transactionId/actions). */
export const ORDER_ACTIONS = ['resend_confirmation', 'send_sign_in_link', 'cancel_at_period_end', 'cancel_now'] as const;
export type OrderAction = (typeof ORDER_ACTIONS)[number];

/** Body of POST /api/admin/orders/:transactionId/actions; the answer is the order's OrderDetail as it now is. */
export const OrderActionRequest = Type.Object(
  {
    action: Type.Union([
      Type.Literal('resend_confirmation'),
      Type.Literal('send_sign_in_link'),
      Type.Literal('cancel_at_period_end'),
      Type.Literal('cancel_now'),
    ]),
  },
  { additionalProperties: false },
);
export type OrderActionRequest = Static<typeof OrderActionRequest>;

/** One point of the MRR chart: the MRR at the end of `date`'s day, week or month (or the period's end), in cents. */
export const MrrPoint = Type.Object({ date: Type.String(), mrrCents: Type.Integer() });
export type MrrPoint = Static<typeof MrrPoint>;

/** GET /api/admin/dashboard: the business over a period (counts of orders and events; money in cents). */
/**
 * A referrer's commission now (docs/decisions/0035), in cents: owed = held + payable + in a payout batch
 * not yet marked paid; paid = in batches marked paid, less clawbacks.
 */
const ReferrerCommissionNow = Type.Object({
  referrerId: Type.String(),
  displayName: Type.String(),
  owedCents: Type.Integer(),
  paidCents: Type.Integer(),
});

export const Dashboard = Type.Object({
  /**
   * What the owner has still to set up before the offer reads as theirs, whatever the period, in the order to do
   * it: `default_referrer` (the referrer named for visitors without a link still carries the seeded placeholder
   * name), `testimonials` (none entered), `guarantee` (the offer's content never saved: the built-in text). Empty
   * when all is done.
   */
  setup: Type.Array(Type.Union([Type.Literal('default_referrer'), Type.Literal('testimonials'), Type.Literal('guarantee')])),
  from: Type.String(),
  to: Type.String(),
  /** Sum of the monthly totals of orders paid and not cancelled at the period's end, in cents. */
  mrrCents: Type.Integer(),
  /** The MRR at the end of each day, week or month of the period (`interval`), oldest first. */
  interval: MrrInterval,
  mrrSeries: Type.Array(MrrPoint),
  /** Money taken in the period: first payments and paid renewals, less the refunds made in it, in cents. */
  collectedCents: Type.Integer(),
  /** Monthly totals of the orders first paid in the period, in cents. */
  newMrrCents: Type.Integer(),
  /** Monthly totals of the paid orders that ended in the period, in cents. */
  churnedMrrCents: Type.Integer(),
  /** newMrrCents − churnedMrrCents. */
  netMrrCents: Type.Integer(),
  paidOrders: Type.Integer(),
  paidSeats: Type.Integer(),
  /** Team seats given to someone on active orders now (invited or claimed, not suspended). */
  assignedSeats: Type.Integer(),
  /** Of those, claimed by their person. */
  claimedSeats: Type.Integer(),
  /** Checkouts opened in the period with no paid order 24 hours after they opened. */
  abandonedCheckouts: Type.Integer(),
  /** Orders whose cancellation was asked for (scheduled) or took effect in the period, each once. */
  cancellations: Type.Integer(),
  failedPayments: Type.Integer(),
  byReferrer: Type.Array(ReferrerFunnel),
  /** Each referrer's commission now, whatever the period. */
  commissions: Type.Array(ReferrerCommissionNow),
});
export type Dashboard = Static<typeof Dashboard>;
/** One step left to set up (Dashboard `setup`). */
export type SetupStep = Dashboard['setup'][number];

/** The figures of the period (server/admin/reports.ts); the route adds the commissions and what is left to set up. */
export type PeriodFigures = Omit<Dashboard, 'commissions' | 'setup'>;

/** A mail in the outbox (GET /api/admin/mail): what it is, to whom, and how far it got. */
export const OutboxMail = Type.Object({
  id: Type.Integer(),
  topic: Type.String(),
  status: Type.String(),
  transactionId: Type.Union([Type.String(), Type.Null()]),
  attempts: Type.Integer(),
  lastError: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String(),
  sentAt: Type.Union([Type.String(), Type.Null()]),
  /** Whom the mail goes to: the held text's address, the address a link was asked for, or the order's email. */
  recipient: Type.Union([Type.String(), Type.Null()]),
  /** The mail as it would have gone out, for a held mail (no SMTP_URL), each link's token shown as `[hidden]`. */
  rendered: Type.Union([Type.Object({ to: Type.String(), subject: Type.String(), text: Type.String() }), Type.Null()]),
});
export type OutboxMail = Static<typeof OutboxMail>;

/** The query of GET /api/admin/mail: `to`, part of the recipient's email (any case), to list only their mails. */
export const MailQuery = Type.Object({ to: Type.Optional(Text(1, 254)) }, { additionalProperties: false });
export type MailQuery = Static<typeof MailQuery>;

/**
 * GET /api/admin/mail: the mails, and whether mail is sent at all: `delivery` 'held' when SMTP_URL is not set
 * (every mail is held, its text shown here), 'smtp' otherwise.
 */
export const MailList = Type.Object({
  mails: Type.Array(OutboxMail),
  delivery: Type.Union([Type.Literal('smtp'), Type.Literal('held')]),
});
export type MailList = Static<typeof MailList>;

/** Text the owner writes: trimmed by the console; at least one character that is not a space. */
const Written = (maxLength: number) =>
  Type.String({ minLength: 1, maxLength, pattern: '^[^\\u0000\\uD800-\\uDFFF]*[^\\u0000\\uD800-\\uDFFF\\s][^\\u0000\\uD800-\\uDFFF]*$' });

/** One practitioner's testimonial (spec §1): name as it should read, practice, quote. */
const TestimonialBody = Type.Object(
  { name: Written(CONTENT_LIMITS.name), practice: Written(CONTENT_LIMITS.practice), quote: Written(CONTENT_LIMITS.quote) },
  { additionalProperties: false },
);

/**
 * The offer's content (GET and PUT /api/admin/content; src/domain/offerContent.ts): 0 to 3 testimonials, in the
 * order shown, and the guarantee's text.
 */
export const OfferContentBody = Type.Object(
  { testimonials: Type.Array(TestimonialBody, { maxItems: MAX_TESTIMONIALS }), guarantee: Written(CONTENT_LIMITS.guarantee) },
  { additionalProperties: false },
);
export type OfferContentBody = Static<typeof OfferContentBody>;

/**
 * Query of GET /api/admin/tax (and tax.csv): the months to report, `from` to `to` inclusive, each YYYY-MM (UTC);
 * default: the twelve months to this one. A month that is not one, or `to` before `from`, is refused in words.
 */
export const TaxQuery = Type.Object(
  { from: Type.Optional(Type.String({ maxLength: 20 })), to: Type.Optional(Type.String({ maxLength: 20 })) },
  { additionalProperties: false },
);
export type TaxQuery = Static<typeof TaxQuery>;

/**
 * The tax of one state over a month (or, in `totals`, the whole period), in cents (docs/decisions/0074): sales
 * before tax and the tax collected on the payments in it; the part before tax and the tax share of the refunds in
 * it (positive amounts taken back); the net tax (collected less refunded); how many payments and refunds.
 */
export const TaxReportRow = Type.Object({
  state: Type.String(),
  /** YYYY-MM; the period's `from`–`to` in `totals`. */
  month: Type.String(),
  salesCents: Type.Integer(),
  salesRefundedCents: Type.Integer(),
  taxCollectedCents: Type.Integer(),
  taxRefundedCents: Type.Integer(),
  netTaxCents: Type.Integer(),
  payments: Type.Integer(),
  refunds: Type.Integer(),
});
export type TaxReportRow = Static<typeof TaxReportRow>;

/** GET /api/admin/tax: the months reported, a row per state and month with money in it (oldest first), the totals per state. */
export const TaxReport = Type.Object({
  from: Type.String(),
  to: Type.String(),
  rows: Type.Array(TaxReportRow),
  totals: Type.Array(TaxReportRow),
});
export type TaxReport = Static<typeof TaxReport>;
