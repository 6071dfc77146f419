/**
 * The referrers' commission ledger, its rules and payouts (docs/decisions/0035-commission-ledger.md).
 * Gathered by server/db/schema.ts; migrations come from there.
 */
import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { orders } from '../checkout/tables';
import { referrers } from '../referrals/tables';

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
