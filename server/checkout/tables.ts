/**
 * The checkout's tables: orders, their buyers' accounts, the provider events already applied, refunds and
 * disputes (the one subscription lifecycle, docs/decisions/0023-one-subscription-lifecycle.md).
 * Gathered by server/db/schema.ts; migrations come from there.
 */
import { sql } from 'drizzle-orm';
import { index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { referrers } from '../referrals/tables';

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
    /** Monthly total for `quantity` before tax, in cents, computed by the server (src/domain/pricing.ts). */
    amountCents: integer('amount_cents').notNull(),
    /**
     * The monthly tax the page showed and the buyer confirmed, in cents (0 untaxed): finalize requires the first
     * invoice's tax to be exactly this (docs/decisions/0071). After the purchase the lifecycle keeps it the monthly
     * tax at the order's seats now, as `amountCents` (./subscriptionLifecycle.ts).
     */
    taxCents: integer('tax_cents').notNull().default(0),
    /** The registered state the order is taxed for ('HI', 'AZ'); null untaxed. */
    taxState: text('tax_state'),
    /** The buyer's location as the card form sent it; null until the page sent it. */
    taxCountry: text('tax_country'),
    taxPostalCode: text('tax_postal_code'),
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
    /**
     * When the buyer asked on /account for the guarantee's refund (server/checkout/refundAsk.ts,
     * docs/decisions/0068); null when they never did. Set once: a repeat answers the first.
     */
    refundAskedAt: timestamp('refund_asked_at', { withTimezone: true }),
    /** What would have come back when the buyer asked, in cents; the owner's refund form starts at it. */
    refundAskedCents: integer('refund_asked_cents'),
  },
  (table) => [
    // The reconciliation sweep reads open orders by age (server/checkout/reconcileOrders.ts).
    index('orders_open_created_at_idx')
      .on(table.createdAt)
      .where(sql`status = 'open'`),
    index('orders_referrer_id_idx').on(table.referrerId),
  ],
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
  /** When the agreement site reported the buyer's signed training agreement (docs/decisions/0063); null: pending. */
  agreementSignedAt: timestamp('agreement_signed_at', { withTimezone: true }),
});

/** Provider webhook events already processed, so a repeat is processed once. */
export const webhookEvents = pgTable('webhook_events', {
  eventId: text('event_id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
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
    /** Refunded on the payment so far, in cents, tax included. */
    refundedCents: integer('refunded_cents').notNull(),
    /**
     * The tax share of `refundedCents`, in cents: the payment's tax in proportion to the part refunded, all of it
     * once the whole payment is (docs/decisions/0074); 0 for an untaxed payment. The rest is before tax.
     */
    taxCents: integer('tax_cents').notNull().default(0),
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
