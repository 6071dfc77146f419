import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { orders } from '../checkout/tables';
import { referrers } from '../referrals/tables';

/**
 * Append-only versions (docs/decisions/0035). 'percent': `percentBasisPoints` of each paid invoice (2000 = 20 %);
 * 'flat': `flatCentsPerSeat` per paid seat per month; 'default': back to the default. `months`: only the first N paid
 * months earn; null: the whole life.
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
    createdBy: text('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('commission_rules_referrer_idx').on(table.referrerId, table.id)],
);

/**
 * The ledger (docs/decisions/0035): append-only cents. `entryKey` is unique, so a replayed event books nothing twice:
 * `earned:{invoiceId}`, `reversal:…:{eventId}`, `clawback:…:{eventId}`.
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
    invoiceId: text('invoice_id').notNull(),
    /** A refund names its payment. */
    paymentId: text('payment_id'),
    invoiceCents: integer('invoice_cents').notNull(),
    seats: integer('seats').notNull(),
    /** ≥ 0 for 'earned'; < 0 for a take-back, > 0 for a give-back. */
    amountCents: integer('amount_cents').notNull(),
    /** Null: the built-in default, 20 %. */
    ruleId: bigint('rule_id', { mode: 'number' }),
    /** As applied, for the record: '20 % of the invoice'. */
    ruleText: text('rule_text').notNull(),
    reverses: bigint('reverses', { mode: 'number' }),
    selfReferral: boolean('self_referral').notNull().default(false),
    /** On the billing clock (the sandbox's test clock moves it). */
    earnedAt: timestamp('earned_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('commission_entries_referrer_idx').on(table.referrerId),
    index('commission_entries_transaction_idx').on(table.transactionId),
  ],
);

/** 'created' (entries locked in), then 'paid' or 'voided' (entries free again). */
export const payoutBatches = pgTable('payout_batches', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  status: text('status', { enum: ['created', 'paid', 'voided'] })
    .notNull()
    .default('created'),
  /** PayPal's payout batch id, a bank reference. */
  reference: text('reference'),
  createdBy: text('created_by').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  paidAt: timestamp('paid_at', { withTimezone: true }),
  voidedAt: timestamp('voided_at', { withTimezone: true }),
});

/**
 * An entry is in at most one live batch: a unique partial index, so two batches created at once cannot both take it.
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

/** Single use, looked up by SHA-256, like account_links. */
export const partnerLinks = pgTable('partner_links', {
  tokenHash: text('token_hash').primaryKey(),
  referrerId: uuid('referrer_id')
    .notNull()
    .references(() => referrers.id),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
