/** The checkout's tables (docs/decisions/0023-one-subscription-lifecycle.md). */
import { sql } from 'drizzle-orm';
import { index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { referrers } from '../referrals/tables';

export const orders = pgTable(
  'orders',
  {
    transactionId: text('transaction_id').primaryKey(),
    provider: text('provider').notNull(),
    customerId: text('customer_id').notNull(),
    subscriptionId: text('subscription_id').notNull().unique(),
    subscriptionItemId: text('subscription_item_id').notNull(),
    /** Maps a redirect return to its order. */
    paymentIntentId: text('payment_intent_id').unique(),
    /** Once the order is paid, only `sha256:` and its hash (server/security/clientSecretAtRest.ts). */
    clientSecret: text('client_secret').notNull(),
    quantity: integer('quantity').notNull(),
    /** Before tax, in cents (src/domain/pricing.ts). */
    amountCents: integer('amount_cents').notNull(),
    /** In cents; finalize requires the first invoice's tax to be exactly this (docs/decisions/0071). */
    taxCents: integer('tax_cents').notNull().default(0),
    taxState: text('tax_state'),
    taxCountry: text('tax_country'),
    taxPostalCode: text('tax_postal_code'),
    revision: integer('revision').notNull().default(0),
    /** A lease, so a crashed process cannot hold the order for ever; another change meanwhile gets 409. */
    seatChangeLockedUntil: timestamp('seat_change_locked_until', { withTimezone: true }),
    /** Names the replacement subscription's idempotency key. */
    seatChangeAttempt: text('seat_change_attempt'),
    reconciledAt: timestamp('reconciled_at', { withTimezone: true }),
    status: text('status', { enum: ['open', 'paid', 'past_due', 'cancelled'] })
      .notNull()
      .default('open'),
    cancelAt: timestamp('cancel_at', { withTimezone: true }),
    cancellationReason: text('cancellation_reason'),
    pastDueSince: timestamp('past_due_since', { withTimezone: true }),
    /** Recorded as sent (spec §3); attribution is `referrerId`. */
    affiliateId: text('affiliate_id').notNull(),
    affiliateSource: text('affiliate_source').notNull(),
    referrerId: uuid('referrer_id').references(() => referrers.id),
    email: text('email'),
    name: text('name'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    /** In cents, all payments together. */
    refundedCents: integer('refunded_cents').notNull().default(0),
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    /** Set once (docs/decisions/0068): a repeat answers the first. */
    refundAskedAt: timestamp('refund_asked_at', { withTimezone: true }),
    /** In cents. */
    refundAskedCents: integer('refund_asked_cents'),
  },
  (table) => [
    index('orders_open_created_at_idx')
      .on(table.createdAt)
      .where(sql`status = 'open'`),
    index('orders_referrer_id_idx').on(table.referrerId),
  ],
);

/**
 * Exactly one per paid order. While the hand-off token is live, the password is also kept encrypted
 * (server/security/credentialsCipher.ts) so a repeated finalize answers the same credentials.
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
  passwordCiphertext: text('password_ciphertext'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  credentialsIssuedAt: timestamp('credentials_issued_at', { withTimezone: true }),
  /** Null: pending (docs/decisions/0063). */
  agreementSignedAt: timestamp('agreement_signed_at', { withTimezone: true }),
});

export const webhookEvents = pgTable('webhook_events', {
  eventId: text('event_id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Refunded so far per payment, in cents, so a repeated or late refund event adds only what is new. */
export const orderRefunds = pgTable(
  'order_refunds',
  {
    transactionId: text('transaction_id')
      .notNull()
      .references(() => orders.transactionId),
    /** Stripe: the PaymentIntent; sandbox: the invoice. */
    paymentId: text('payment_id').notNull(),
    /** Cents, tax included. */
    refundedCents: integer('refunded_cents').notNull(),
    /** Cents, in proportion to the part refunded (docs/decisions/0074). */
    taxCents: integer('tax_cents').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.transactionId, table.paymentId] })],
);

/** One 'pending' per order (a unique partial index), so two concurrent requests cannot both refund. */
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
    requestedBy: text('requested_by').notNull(),
    /** A retry reuses this row, so the provider's idempotency key is the same and nothing is refunded twice. */
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

export const orderDisputes = pgTable(
  'order_disputes',
  {
    disputeId: text('dispute_id').primaryKey(),
    transactionId: text('transaction_id')
      .notNull()
      .references(() => orders.transactionId),
    /** Stripe: the PaymentIntent; sandbox: the PaymentIntent or renewal invoice. */
    paymentId: text('payment_id').notNull(),
    /** In cents. */
    amountCents: integer('amount_cents').notNull(),
    providerStatus: text('provider_status').notNull(),
    outcome: text('outcome', { enum: ['open', 'won', 'lost'] }).notNull(),
    reason: text('reason'),
    /** Stripe `evidence_details.due_by`. */
    evidenceDueBy: timestamp('evidence_due_by', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    closedAt: timestamp('closed_at', { withTimezone: true }),
  },
  (table) => [index('order_disputes_transaction_idx').on(table.transactionId)],
);
