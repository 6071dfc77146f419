/**
 * The database schema (Drizzle, PostgreSQL dialect), one for PGlite and PostgreSQL alike.
 * Migrations are generated from this file into server/db/migrations with `npm run db:generate`.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/**
 * A referring chiropractor: the offer page reads 'For Friends of Dr. {displayName} Only' with their quote when a
 * visitor came by their link, /r/{slug}. Referrers are disabled, never deleted: orders and funnel events keep
 * pointing at them (docs/decisions/0017-referral-attribution.md).
 */
export const referrers = pgTable('referrers', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  /** The link's last segment: lower-case letters, digits and dashes (src/contract/admin.ts Slug). */
  slug: text('slug').notNull().unique(),
  /** The name in the badge and under the quote, without 'Dr.'. */
  displayName: text('display_name').notNull(),
  /** Sent by the page as affiliate_id with call 1 (spec §3), and written to the provider's metadata. */
  shortLabel: text('short_label').notNull(),
  /** The hero quote. */
  quote: text('quote').notNull(),
  status: text('status', { enum: ['active', 'disabled'] })
    .notNull()
    .default('active'),
  /** Where the referrer's sign-in links to /partner and payout mails go (set in the console); null: none yet. */
  email: text('email'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** One checkout: created by call 1, its subscription replaced by call 2, paid and completed by call 3. */
export const orders = pgTable(
  'orders',
  {
    transactionId: text('transaction_id').primaryKey(),
    provider: text('provider').notNull(),
    customerId: text('customer_id').notNull(),
    /** The current subscription; a seat change replaces it. */
    subscriptionId: text('subscription_id').notNull().unique(),
    subscriptionItemId: text('subscription_item_id').notNull(),
    /** The current first invoice's PaymentIntent, when known (maps a redirect return to its order). */
    paymentIntentId: text('payment_intent_id').unique(),
    /**
     * The current subscription's confirmation secret: returned again when a seat update changes nothing; once the
     * order is paid, only `sha256:` and its hash (server/security/clientSecretAtRest.ts).
     */
    clientSecret: text('client_secret').notNull(),
    quantity: integer('quantity').notNull(),
    /** Monthly total for `quantity`, in cents, computed by the server (src/domain/pricing.ts). */
    amountCents: integer('amount_cents').notNull(),
    /** How many subscriptions this order has had (each seat change replaces one). */
    revision: integer('revision').notNull().default(0),
    /**
     * A seat change in progress holds the order until this time (a lease, so a crashed process cannot hold it for
     * ever); another change meanwhile is refused with 409. Null when no change runs.
     */
    seatChangeLockedUntil: timestamp('seat_change_locked_until', { withTimezone: true }),
    /** The attempt holding the lease; it names the replacement subscription's idempotency key. */
    seatChangeAttempt: text('seat_change_attempt'),
    /** When the reconciliation sweep last asked the provider about this open order. */
    reconciledAt: timestamp('reconciled_at', { withTimezone: true }),
    /**
     * 'open' until paid, then 'paid'; 'past_due' while a renewal is unpaid, 'paid' again on recovery; 'cancelled'
     * when the paid subscription ends (cancelled at period end, deleted, or unpaid renewals exhausted).
     */
    status: text('status', { enum: ['open', 'paid', 'past_due', 'cancelled'] })
      .notNull()
      .default('open'),
    /** When a cancellation the buyer scheduled takes effect (the end of the paid period); null when none is. */
    cancelAt: timestamp('cancel_at', { withTimezone: true }),
    /** The reason the buyer gave when cancelling, if any. */
    cancellationReason: text('cancellation_reason'),
    /** When the order last became past due (a renewal went unpaid); null while it is not past due. */
    pastDueSince: timestamp('past_due_since', { withTimezone: true }),
    /** What the page sent as affiliate_id (spec §3), recorded as sent; attribution is `referrerId`. */
    affiliateId: text('affiliate_id').notNull(),
    affiliateSource: text('affiliate_source').notNull(),
    /** The referrer the server resolved from the visitor's referral cookie; null for a visit without a link. */
    referrerId: uuid('referrer_id').references(() => referrers.id),
    email: text('email'),
    name: text('name'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    /** Refunded to the buyer so far, in cents (all payments together; order_refunds has each). */
    refundedCents: integer('refunded_cents').notNull().default(0),
    /** When the latest refund was recorded; null when there was none. */
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
  },
  (table) => [
    // The reconciliation sweep reads open orders by age (server/checkout/reconcileOrders.ts).
    index('orders_open_created_at_idx')
      .on(table.createdAt)
      .where(sql`status = 'open'`),
    index('orders_referrer_id_idx').on(table.referrerId),
  ],
);

/** The kinds of funnel event the server records (issue: referrers and the owner's console). */
export const FUNNEL_EVENT_TYPES = [
  'page_view',
  'checkout_opened',
  'seats_changed',
  'payment_submitted',
  'payment_failed',
  'paid',
  'handoff_redeemed',
  'cancelled',
  'refunded',
  'renewal_paid',
  'proration_paid',
  'cancel_scheduled',
  'cancel_undone',
  'disputed',
  'dispute_closed',
  'refund_failed',
] as const;
export type FunnelEventType = (typeof FUNNEL_EVENT_TYPES)[number];

/**
 * The checkout funnel, append-only, written by the server as things happen (never from a client beacon). Kept
 * FUNNEL_RETENTION_DAYS; `transactionId` is not a foreign key, so an abandoned order's events outlive its row.
 */
export const funnelEvents = pgTable(
  'funnel_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    type: text('type', { enum: FUNNEL_EVENT_TYPES }).notNull(),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull().defaultNow(),
    transactionId: text('transaction_id'),
    referrerId: uuid('referrer_id').references(() => referrers.id),
    /**
     * Event details: seats for seats_changed, the provider's decline code for payment_failed, amountCents for paid,
     * renewal_paid and proration_paid (with the invoice, booked once) and refunded, the reason for cancel_scheduled (the buyer's, when given) and cancelled.
     */
    detail: jsonb('detail').$type<Record<string, string | number>>(),
  },
  (table) => [
    index('funnel_events_occurred_at_idx').on(table.occurredAt),
    index('funnel_events_transaction_id_idx').on(table.transactionId),
  ],
);

/** The business owner's console accounts (`npm run owner:create`); the password as an argon2id hash. */
export const owners = pgTable('owners', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  email: text('email').notNull().unique(),
  passwordHash: text('password_hash').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Signed-in sessions of owners (/admin) and buyers (/account), server/sessions/sessions.ts
 * (docs/decisions/0022-one-session-mechanism.md). Keyed by the SHA-256 of the cookie's session id, so a database
 * read does not yield a usable cookie. Deleting a row ends that session everywhere.
 */
export const sessions = pgTable(
  'sessions',
  {
    idHash: text('id_hash').primaryKey(),
    kind: text('kind').$type<'owner' | 'buyer' | 'referrer'>().notNull(),
    /** Who is signed in: the owner's id (kind 'owner'), the order's transactionId (kind 'buyer') or the referrer's id (kind 'referrer'). */
    subject: text('subject').notNull(),
    /** Sign-in; the absolute lifetime counts from here. */
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull(),
    /** The idle end (last use + idle lifetime), never past sign-in + absolute lifetime. */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('sessions_kind_subject_idx').on(table.kind, table.subject)],
);

/**
 * The buyer's account: exactly one per paid order. The password's argon2id hash is kept for good; it is null
 * while no credentials have been issued (an account completed by a payment event before finalize). While the
 * hand-off token is unredeemed and unexpired, the password is also kept encrypted (AES-256-GCM,
 * server/security/credentialsCipher.ts) so a repeated finalize answers the same credentials; it is wiped when the
 * token is redeemed or expires.
 */
export const accounts = pgTable('accounts', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  transactionId: text('transaction_id')
    .notNull()
    .unique()
    .references(() => orders.transactionId),
  email: text('email').notNull(),
  name: text('name').notNull(),
  passwordHash: text('password_hash'),
  /** The issued password, encrypted; null once wiped. */
  passwordCiphertext: text('password_ciphertext'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  /** When credentials were last handed to the buyer (finalize). */
  credentialsIssuedAt: timestamp('credentials_issued_at', { withTimezone: true }),
});

/**
 * Single-use, expiring hand-off tokens for the agreement site, looked up by SHA-256 hash. The live token is also
 * kept encrypted, like the password, until it is redeemed, revoked or expires.
 */
export const handoffTokens = pgTable(
  'handoff_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    /** The token, encrypted (server/security/credentialsCipher.ts); null once wiped. */
    tokenCiphertext: text('token_ciphertext'),
    transactionId: text('transaction_id')
      .notNull()
      .references(() => orders.transactionId),
    /** The team member's seat the token stands for (server/seats/); null for the buyer's own. */
    seatId: uuid('seat_id').references(() => seats.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    redeemedAt: timestamp('redeemed_at', { withTimezone: true }),
    /** Set when a newer token for the same order replaces this one. */
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (table) => [index('handoff_tokens_transaction_id_idx').on(table.transactionId)],
);

/** Provider webhook events already processed, so a repeat is processed once. */
export const webhookEvents = pgTable('webhook_events', {
  eventId: text('event_id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Refused card confirmations per client address, in a window of one hour (card testing). Past
 * DECLINES_BEFORE_CHALLENGE in the window, the address must solve a proof-of-work challenge to confirm again.
 */
export const addressDeclines = pgTable('address_declines', {
  address: text('address').primaryKey(),
  declines: integer('declines').notNull(),
  windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The sandbox provider's own records (customers, subscriptions and their first invoice's PaymentIntent),
 * kept in the same database so any server process can serve any call.
 */
export const sandboxCustomers = pgTable('sandbox_customers', {
  id: text('id').primaryKey(),
  /** Idempotency key the customer was created with: a repeat returns this row. */
  idempotencyKey: text('idempotency_key').notNull().unique(),
  email: text('email'),
  name: text('name'),
  metadata: jsonb('metadata').$type<Record<string, string>>().notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const sandboxSubscriptions = pgTable('sandbox_subscriptions', {
  id: text('id').primaryKey(),
  customerId: text('customer_id')
    .notNull()
    .references(() => sandboxCustomers.id),
  itemId: text('item_id').notNull().unique(),
  transactionId: text('transaction_id').notNull(),
  quantity: integer('quantity').notNull(),
  /** The attributed referrer's slug (Stripe: the subscription's `metadata.referrer`); null without one. */
  referrer: text('referrer'),
  /** First invoice total, in cents. */
  amountDueCents: integer('amount_due_cents').notNull(),
  amountPaidCents: integer('amount_paid_cents').notNull().default(0),
  status: text('status', { enum: ['incomplete', 'active', 'past_due', 'canceled'] })
    .notNull()
    .default('incomplete'),
  paymentIntentId: text('payment_intent_id').notNull().unique(),
  clientSecret: text('client_secret').notNull().unique(),
  /** Stripe's PaymentIntent statuses that the sandbox uses. */
  paymentStatus: text('payment_status', { enum: ['requires_payment_method', 'requires_action', 'succeeded', 'canceled'] })
    .notNull()
    .default('requires_payment_method'),
  /** Idempotency key the subscription was created with: a repeat returns this row. */
  idempotencyKey: text('idempotency_key').notNull().unique(),
  cardLast4: text('card_last4'),
  /** Confirmations refused (declines, failed authentication) on this subscription; the checkout's sum is capped. */
  failedAttempts: integer('failed_attempts').notNull().default(0),
  /** Billing name and email sent with the last accepted confirmation (Stripe: the payment method's billing_details). */
  billingName: text('billing_name'),
  /** The card number's behaviour for later charges (server/payments/sandboxCards.ts), e.g. 'fails_later' (0341). */
  cardBehaviour: text('card_behaviour'),
  /** The end of the paid period on the sandbox clock; null until the first payment. */
  currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }),
  cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
  /** Credit from seats taken away before the period's end, in cents, taken off the next renewal (Stripe: the customer's balance). */
  creditCents: integer('credit_cents').notNull().default(0),
  billingEmail: text('billing_email'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Mails and outbound webhooks to send (server/outbox/): written in the same transaction as the change that causes
 * them, sent by the outbox worker with retries. `dedupeKey` makes one row per event however often it is raised.
 */
export const outbox = pgTable(
  'outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: text('kind', { enum: ['mail', 'webhook'] }).notNull(),
    /** The mail template or webhook event type (server/outbox/mailTemplates.ts, webhooks.ts). */
    topic: text('topic').notNull(),
    dedupeKey: text('dedupe_key').notNull().unique(),
    transactionId: text('transaction_id'),
    /**
     * What the template or webhook needs beyond the order (e.g. the seats before a change); a requested link
     * ('account_link' with no transactionId) holds the email it was asked for, resolved at send time.
     */
    payload: jsonb('payload').$type<Record<string, string | number | null>>().notNull(),
    /**
     * pending → sent; 'held' when there is nowhere to send to (no SMTP_URL; the console re-queues it); 'failed'
     * after the last attempt; 'dropped' for a requested link to an email with no subscription (never mailed).
     */
    status: text('status', { enum: ['pending', 'sent', 'held', 'failed', 'dropped'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    /** A worker claimed the row until then (a crashed worker's claim expires and the row is sent again). */
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lastError: text('last_error'),
    /**
     * A held mail as it would have been sent, its links' tokens replaced by `[hidden]` (none is minted for a held
     * mail; a re-send renders it afresh). Never a live token.
     */
    rendered: jsonb('rendered').$type<{ to: string; subject: string; text: string }>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (table) => [
    index('outbox_due_idx')
      .on(table.nextAttemptAt)
      .where(sql`status = 'pending'`),
  ],
);

/**
 * Single-use links into the buyer's manage page (/account), looked up by SHA-256 hash: requested on /account
 * (15 minutes) or sent in the order confirmation.
 */
export const accountLinks = pgTable('account_links', {
  tokenHash: text('token_hash').primaryKey(),
  transactionId: text('transaction_id')
    .notNull()
    .references(() => orders.transactionId),
  /** 'manage' opens /account; 'agreement' also hands the buyer on to the agreement site. */
  purpose: text('purpose', { enum: ['manage', 'agreement'] }).notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The sandbox's clock offset (one row): `POST /api/sandbox/clock/advance` moves it forward to test renewals. */
export const sandboxClock = pgTable('sandbox_clock', {
  id: integer('id').primaryKey(),
  offsetSeconds: integer('offset_seconds').notNull().default(0),
});

/** The sandbox's invoices after the first: one per renewal, paid or not, and one per paid seat increase. */
export const sandboxInvoices = pgTable('sandbox_invoices', {
  id: text('id').primaryKey(),
  subscriptionId: text('subscription_id')
    .notNull()
    .references(() => sandboxSubscriptions.id),
  /** Stripe's `billing_reason`: a renewal, or the proration of a seat increase charged at once (decision 0045). */
  billingReason: text('billing_reason', { enum: ['subscription_cycle', 'subscription_update'] })
    .notNull()
    .default('subscription_cycle'),
  amountCents: integer('amount_cents').notNull(),
  status: text('status', { enum: ['open', 'paid', 'uncollectible'] }).notNull(),
  attempts: integer('attempts').notNull().default(1),
  periodStart: timestamp('period_start', { withTimezone: true }).notNull(),
  periodEnd: timestamp('period_end', { withTimezone: true }).notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  paidAt: timestamp('paid_at', { withTimezone: true }),
});

/**
 * Refunds the provider reports, one row per refunded payment of an order (server/checkout/subscriptionLifecycle.ts):
 * what was refunded on it so far, in cents, so a repeated or late refund event adds only what is new.
 */
export const orderRefunds = pgTable(
  'order_refunds',
  {
    transactionId: text('transaction_id')
      .notNull()
      .references(() => orders.transactionId),
    /** The provider's payment (Stripe: the PaymentIntent; sandbox: the invoice). */
    paymentId: text('payment_id').notNull(),
    refundedCents: integer('refunded_cents').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.transactionId, table.paymentId] })],
);

/**
 * Refunds the owner asked for in the console (server/checkout/refundOrder.ts): one 'pending' at a time per order
 * (a unique partial index), so two concurrent requests cannot both refund.
 */
export const refundRequests = pgTable(
  'refund_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    transactionId: text('transaction_id')
      .notNull()
      .references(() => orders.transactionId),
    amountCents: integer('amount_cents').notNull(),
    status: text('status', { enum: ['pending', 'succeeded', 'failed'] })
      .notNull()
      .default('pending'),
    /** The owner who asked. */
    requestedBy: text('requested_by').notNull(),
    /**
     * The console's key for one refund the owner asked for: a retry of it (after a later step failed) sends the
     * same key and reuses this row, so the provider's idempotency key is the same and nothing is refunded twice.
     */
    requestKey: text('request_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('refund_requests_one_pending_idx')
      .on(table.transactionId)
      .where(sql`status = 'pending'`),
    uniqueIndex('refund_requests_request_key_idx').on(table.transactionId, table.requestKey),
  ],
);

/**
 * Disputes (chargebacks) of an order's payments, as the provider reports them now (server/checkout/disputes.ts):
 * one row per dispute, its outcome derived from the provider's status. An open dispute shows the order as
 * "disputed" with its evidence deadline; a lost one ends the subscription.
 */
export const orderDisputes = pgTable(
  'order_disputes',
  {
    /** The provider's dispute (Stripe `dp_…`; the sandbox's own). */
    disputeId: text('dispute_id').primaryKey(),
    transactionId: text('transaction_id')
      .notNull()
      .references(() => orders.transactionId),
    /** The disputed payment (Stripe: the PaymentIntent; sandbox: the PaymentIntent or renewal invoice). */
    paymentId: text('payment_id').notNull(),
    /** The disputed amount, in cents. */
    amountCents: integer('amount_cents').notNull(),
    /** The provider's status in its words (Stripe: needs_response, under_review, won, lost, …). */
    providerStatus: text('provider_status').notNull(),
    /** open until closed; then won (the money came back) or lost. */
    outcome: text('outcome', { enum: ['open', 'won', 'lost'] }).notNull(),
    /** The card network's reason (fraudulent, product_not_received, …). */
    reason: text('reason'),
    /** The last moment evidence can be submitted (Stripe `evidence_details.due_by`); null when none is asked. */
    evidenceDueBy: timestamp('evidence_due_by', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    closedAt: timestamp('closed_at', { withTimezone: true }),
  },
  (table) => [index('order_disputes_transaction_idx').on(table.transactionId)],
);

/** The sandbox's refunds, against its payments (the first invoice's PaymentIntent, or a renewal invoice). */
export const sandboxRefunds = pgTable('sandbox_refunds', {
  id: text('id').primaryKey(),
  subscriptionId: text('subscription_id')
    .notNull()
    .references(() => sandboxSubscriptions.id),
  /** The refunded payment: the first invoice's PaymentIntent id, or a renewal's invoice id. */
  paymentId: text('payment_id').notNull(),
  amountCents: integer('amount_cents').notNull(),
  /** Idempotency key of the refund call (with the payment): a repeat returns the row it made. */
  idempotencyKey: text('idempotency_key').notNull().unique(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The sandbox's disputes, as Stripe's test card 4000 0000 0000 0259 makes them: the payment succeeds, then a
 * dispute opens on it (`needs_response`, evidence due in 7 days on the billing clock); the console's sandbox
 * controls or POST /api/sandbox/disputes/:id/close close it won or lost.
 */
export const sandboxDisputes = pgTable('sandbox_disputes', {
  id: text('id').primaryKey(),
  subscriptionId: text('subscription_id')
    .notNull()
    .references(() => sandboxSubscriptions.id),
  /** The disputed payment: the first invoice's PaymentIntent id, or a renewal's invoice id. */
  paymentId: text('payment_id').notNull(),
  amountCents: integer('amount_cents').notNull(),
  status: text('status', { enum: ['needs_response', 'won', 'lost'] }).notNull(),
  reason: text('reason').notNull(),
  evidenceDueBy: timestamp('evidence_due_by', { withTimezone: true }).notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * What the OpenID Provider keeps (server/signIn/oidcStore.ts): its sessions, interactions, grants, authorization
 * codes, tokens, one row each, keyed by oidc-provider's model name and id, so every server process shares them.
 * A row past `expiresAt` is never read (the retention sweep deletes it); `consumedAt` marks a used code.
 */
export const oidcRecords = pgTable(
  'oidc_records',
  {
    model: text('model').notNull(),
    id: text('id').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    /** The grant a code or token belongs to (revoked together). */
    grantId: text('grant_id'),
    /** A session's uid (oidc-provider's findByUid). */
    uid: text('uid'),
    /** A device code's user code (findByUserCode). */
    userCode: text('user_code'),
    /** Null: kept until deleted. */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
  },
  (table) => [
    primaryKey({ columns: [table.model, table.id] }),
    index('oidc_records_grant_id_idx').on(table.grantId),
    index('oidc_records_uid_idx').on(table.model, table.uid),
    index('oidc_records_user_code_idx').on(table.model, table.userCode),
    index('oidc_records_expires_at_idx').on(table.expiresAt),
  ],
);

/**
 * The offer's content the owner edits in the console (src/domain/offerContent.ts): one row, written on the first
 * save; without it the page shows no testimonials and the default guarantee (docs/decisions/0030).
 */
export const offerContent = pgTable(
  'offer_content',
  {
    /** Always 1: there is one offer. */
    id: integer('id').primaryKey().default(1),
    /** 0 to 3 testimonials, in the order shown: `{ name, practice, quote }`. */
    testimonials: jsonb('testimonials').$type<Array<{ name: string; practice: string; quote: string }>>().notNull(),
    /** The guarantee's text beside the money-back seal. */
    guarantee: text('guarantee').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [check('offer_content_one_row', sql`${table.id} = 1`)],
);

/**
 * Commission rules (docs/decisions/0035): append-only versions. The rule an invoice earns by is the
 * newest row for its referrer (or, without one, the newest default row, `referrerId` null) when it is paid, so a
 * change applies to invoices paid after it. `kind` 'percent': `percentBasisPoints` of each paid invoice (2000 =
 * 20 %); 'flat': `flatCentsPerSeat` per paid seat per month; 'default' (a referrer's row only): back to the
 * default rule. `months`: only the subscription's first N paid months earn; null for its whole life.
 */
export const commissionRules = pgTable(
  'commission_rules',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    referrerId: uuid('referrer_id').references(() => referrers.id),
    kind: text('kind', { enum: ['percent', 'flat', 'default'] }).notNull(),
    percentBasisPoints: integer('percent_basis_points'),
    flatCentsPerSeat: integer('flat_cents_per_seat'),
    months: integer('months'),
    /** The owner who set it. */
    createdBy: text('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('commission_rules_referrer_idx').on(table.referrerId, table.id)],
);

/**
 * The commission ledger (docs/decisions/0035): append-only, integer cents, never updated or deleted.
 * 'earned' (≥ 0) per paid invoice; 'reversal' (< 0) takes back part or all of an earned entry not yet in a payout
 * (`reverses` names it); 'clawback' (< 0) takes back commission already in a payout, from the referrer's next one.
 * `entryKey` is unique, so a replayed event books nothing twice: `earned:{invoiceId}`,
 * `reversal:{invoiceId}:{eventId}`, `clawback:{invoiceId}:{eventId}` (a won dispute or failed refund gives back
 * with the same kinds and a positive amount; docs/decisions/0035).
 * States are derived, never stored (server/commissions/ledger.ts): held for REFUND_GUARANTEE_DAYS after
 * `earnedAt` (on the billing clock), then payable, in a payout batch, paid.
 */
export const commissionEntries = pgTable(
  'commission_entries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    entryKey: text('entry_key').notNull().unique(),
    kind: text('kind', { enum: ['earned', 'reversal', 'clawback'] }).notNull(),
    referrerId: uuid('referrer_id')
      .notNull()
      .references(() => referrers.id),
    transactionId: text('transaction_id')
      .notNull()
      .references(() => orders.transactionId),
    /** The provider's invoice the entry is about. */
    invoiceId: text('invoice_id').notNull(),
    /** The provider's payment of that invoice when known (a refund names its payment). */
    paymentId: text('payment_id'),
    /** The invoice's paid amount, in cents. */
    invoiceCents: integer('invoice_cents').notNull(),
    /** Seats the invoice paid for. */
    seats: integer('seats').notNull(),
    /** The commission, in cents: ≥ 0 for 'earned'; < 0 for a take-back, > 0 for a give-back (a won dispute, a failed refund). */
    amountCents: integer('amount_cents').notNull(),
    /** The rule the entry used (commission_rules.id; null: the built-in default, 20 %). */
    ruleId: bigint('rule_id', { mode: 'number' }),
    /** The rule as applied, for the record: e.g. '20 % of the invoice', '$10.00 per seat, months 1–3'. */
    ruleText: text('rule_text').notNull(),
    /** The earned entry a reversal or clawback takes back. */
    reverses: bigint('reverses', { mode: 'number' }),
    /** The buyer's email is the referrer's: earns nothing (amount 0), flagged for the owner. */
    selfReferral: boolean('self_referral').notNull().default(false),
    /** When the invoice was paid (or the refund recorded), on the billing clock (the sandbox's test clock moves it). */
    earnedAt: timestamp('earned_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('commission_entries_referrer_idx').on(table.referrerId),
    index('commission_entries_transaction_idx').on(table.transactionId),
  ],
);

/** Payout batches: 'created' (entries locked in), then 'paid' with the owner's reference, or 'voided' (entries free again). */
export const payoutBatches = pgTable('payout_batches', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  status: text('status', { enum: ['created', 'paid', 'voided'] })
    .notNull()
    .default('created'),
  /** The payment's reference (PayPal's payout batch id, a bank reference), set when marked paid. */
  reference: text('reference'),
  createdBy: text('created_by').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  paidAt: timestamp('paid_at', { withTimezone: true }),
  voidedAt: timestamp('voided_at', { withTimezone: true }),
});

/**
 * The entries of each payout batch. An entry is in at most one live (not voided) batch: a unique partial index on
 * `entryId`, so two batches created at once cannot both take it (the second's insert fails and it is refused).
 * Voiding a batch sets `released` on its rows: the entries are payable again.
 */
export const payoutBatchEntries = pgTable(
  'payout_batch_entries',
  {
    batchId: bigint('batch_id', { mode: 'number' })
      .notNull()
      .references(() => payoutBatches.id),
    entryId: bigint('entry_id', { mode: 'number' })
      .notNull()
      .references(() => commissionEntries.id),
    referrerId: uuid('referrer_id')
      .notNull()
      .references(() => referrers.id),
    released: boolean('released').notNull().default(false),
  },
  (table) => [
    primaryKey({ columns: [table.batchId, table.entryId] }),
    uniqueIndex('payout_batch_entries_one_live_idx')
      .on(table.entryId)
      .where(sql`released = false`),
  ],
);

/** Single-use sign-in links to a referrer's page (/partner), looked up by SHA-256 hash, like account_links. */
export const partnerLinks = pgTable('partner_links', {
  tokenHash: text('token_hash').primaryKey(),
  referrerId: uuid('referrer_id')
    .notNull()
    .references(() => referrers.id),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A seat's state (server/seats/seats.ts): invited → claimed; either → revoked (the row is kept, the seat freed). */
export const SEAT_STATES = ['invited', 'claimed', 'revoked'] as const;

/**
 * The buyer's team (docs/decisions/0032-seat-rules.md): one row per person a seat was given to, seats 2
 * to the order's quantity (seat 1 is the buyer's, `accounts`). A seat number without a live row is empty. A live
 * row ('invited' or 'claimed') holds its number and its email once per order (two partial unique indexes, so two
 * concurrent invitations cannot both win); `suspendedAt` is set while the provider's quantity is below the live
 * seats (the latest invited first) and cleared when it rises again; a suspended row gives its number up. A claimed
 * seat is an account of its own: its password's argon2id hash, and hand-off tokens with its `seatId`.
 */
export const seats = pgTable(
  'seats',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    transactionId: text('transaction_id')
      .notNull()
      .references(() => orders.transactionId),
    /** 2…quantity while live and not suspended; kept, but not unique, once revoked or suspended. */
    seatNumber: integer('seat_number').notNull(),
    status: text('status', { enum: SEAT_STATES }).notNull().default('invited'),
    email: text('email').notNull(),
    name: text('name').notNull(),
    /** Who gave the seat: the buyer's login email when invited. */
    invitedBy: text('invited_by').notNull(),
    invitedAt: timestamp('invited_at', { withTimezone: true }).notNull().defaultNow(),
    /** SHA-256 of the live invitation link's token (a new one on each mail); null once claimed or revoked. */
    claimTokenHash: text('claim_token_hash').unique(),
    /** When the live invitation link stops working (7 days after its mail). */
    claimExpiresAt: timestamp('claim_expires_at', { withTimezone: true }),
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    /**
     * The member's password, argon2id: generated at the claim (server/security/password.ts) or chosen through a
     * "set a new password" link (OWASP's parameters, docs/decisions/0039); null until claimed, wiped on revoke.
     */
    passwordHash: text('password_hash'),
    /**
     * SHA-256 of the live "set a new password" link's token (server/seats/newPassword.ts); a new request replaces
     * it. Kept after use, so a second use answers "already used" rather than "unknown".
     */
    resetTokenHash: text('reset_token_hash').unique(),
    /** When that link stops working (RESET_LINK_MINUTES after its mail); null once it was used. */
    resetExpiresAt: timestamp('reset_expires_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    suspendedAt: timestamp('suspended_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('seats_live_number_idx')
      .on(table.transactionId, table.seatNumber)
      .where(sql`status <> 'revoked' and suspended_at is null`),
    uniqueIndex('seats_live_email_idx')
      .on(table.transactionId, sql`lower(${table.email})`)
      .where(sql`status <> 'revoked'`),
    index('seats_email_idx').on(sql`lower(${table.email})`),
  ],
);
