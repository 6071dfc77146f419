/** What Stripe would keep (docs/decisions/0020-sandbox-billing-clock.md); migrations come from server/db/schema.ts. */
import { boolean, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Kept in the shared database so any server process can serve any call. */
export const sandboxCustomers = pgTable('sandbox_customers', {
  id: text('id').primaryKey(),
  /** Idempotency key the customer was created with: a repeat returns this row. */
  idempotencyKey: text('idempotency_key').notNull().unique(),
  email: text('email'),
  name: text('name'),
  metadata: jsonb('metadata').$type<Record<string, string>>().notNull(),
  /** The buyer's location as the card form sent it (Stripe: the customer's `address`); null until sent. */
  addressCountry: text('address_country'),
  addressPostalCode: text('address_postal_code'),
  /** Where the location was placed for tax: a registered state ('HI', 'AZ'), or null (elsewhere, or not yet). */
  taxState: text('tax_state'),
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
  /** First invoice total, in cents: the seats plus `taxCents`. */
  amountDueCents: integer('amount_due_cents').notNull(),
  /** Stripe's `automatic_tax.enabled`: every invoice taxed at the rate of `taxState` (docs/decisions/0070). */
  automaticTax: boolean('automatic_tax').notNull().default(false),
  taxState: text('tax_state'),
  /** The rate it is taxed at, in millionths, fixed when created (renewals and prorations use it). */
  taxRateMillionths: integer('tax_rate_millionths').notNull().default(0),
  /** The first invoice's tax, in cents (included in amountDueCents). */
  taxCents: integer('tax_cents').notNull().default(0),
  amountPaidCents: integer('amount_paid_cents').notNull().default(0),
  status: text('status', { enum: ['incomplete', 'active', 'past_due', 'canceled'] })
    .notNull()
    .default('incomplete'),
  paymentIntentId: text('payment_intent_id').notNull().unique(),
  clientSecret: text('client_secret').notNull().unique(),
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
  /** The card number's behaviour for later charges (server/payments/sandbox/cards.ts), e.g. 'fails_later' (0341). */
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

/** The sandbox's clock offset (one row): `POST /api/sandbox/clock/advance` moves it forward to test renewals. */
export const sandboxClock = pgTable('sandbox_clock', {
  id: integer('id').primaryKey(),
  offsetSeconds: integer('offset_seconds').notNull().default(0),
});

export const sandboxInvoices = pgTable('sandbox_invoices', {
  id: text('id').primaryKey(),
  subscriptionId: text('subscription_id')
    .notNull()
    .references(() => sandboxSubscriptions.id),
  /** Stripe's `billing_reason`: a renewal, or the proration of a seat increase charged at once (decision 0045). */
  billingReason: text('billing_reason', { enum: ['subscription_cycle', 'subscription_update'] })
    .notNull()
    .default('subscription_cycle'),
  /** The invoice's total, tax included, in cents. */
  amountCents: integer('amount_cents').notNull(),
  /** The tax in `amountCents`, in cents (the subscription's rate on the seats' amount). */
  taxCents: integer('tax_cents').notNull().default(0),
  status: text('status', { enum: ['open', 'paid', 'uncollectible'] }).notNull(),
  attempts: integer('attempts').notNull().default(1),
  periodStart: timestamp('period_start', { withTimezone: true }).notNull(),
  periodEnd: timestamp('period_end', { withTimezone: true }).notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  paidAt: timestamp('paid_at', { withTimezone: true }),
});

export const sandboxRefunds = pgTable('sandbox_refunds', {
  id: text('id').primaryKey(),
  subscriptionId: text('subscription_id')
    .notNull()
    .references(() => sandboxSubscriptions.id),
  paymentId: text('payment_id').notNull(),
  amountCents: integer('amount_cents').notNull(),
  /** Idempotency key of the refund call (with the payment): a repeat returns the row it made. */
  idempotencyKey: text('idempotency_key').notNull().unique(),
  /** `failed`: the card could not take it back (test card 4000 0000 0000 5126); the money stays with the business. */
  status: text('status', { enum: ['succeeded', 'failed'] })
    .notNull()
    .default('succeeded'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Disputes opened by Stripe's test card 4000 0000 0000 0259 (./disputes.ts). */
export const sandboxDisputes = pgTable('sandbox_disputes', {
  id: text('id').primaryKey(),
  subscriptionId: text('subscription_id')
    .notNull()
    .references(() => sandboxSubscriptions.id),
  paymentId: text('payment_id').notNull(),
  amountCents: integer('amount_cents').notNull(),
  status: text('status', { enum: ['needs_response', 'won', 'lost'] }).notNull(),
  reason: text('reason').notNull(),
  evidenceDueBy: timestamp('evidence_due_by', { withTimezone: true }).notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
