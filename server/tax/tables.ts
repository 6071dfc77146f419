/** The record of tax collected (docs/decisions/0074). */
import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { orders } from '../checkout/tables';

/**
 * Append-only, in cents: a filing record, so a trigger refuses UPDATE and DELETE (migration 0024); a correction is a
 * row of its own. A refund's row is negative, a failed refund's positive. `recordKey` holds the provider's ids, so a
 * webhook delivered twice records once.
 */
export const taxRecords = pgTable(
  'tax_records',
  {
    recordKey: text('record_key').primaryKey(),
    kind: text('kind', { enum: ['payment', 'refund'] }).notNull(),
    transactionId: text('transaction_id')
      .notNull()
      .references(() => orders.transactionId),
    invoiceId: text('invoice_id').notNull(),
    /** Stripe: the PaymentIntent; sandbox: the PaymentIntent or renewal invoice. */
    paymentId: text('payment_id').notNull(),
    taxState: text('tax_state').notNull(),
    /** Before tax, in cents. */
    amountCents: integer('amount_cents').notNull(),
    /** In cents. */
    taxCents: integer('tax_cents').notNull(),
    /** On the provider's billing clock. */
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('tax_records_occurred_at_idx').on(table.occurredAt),
    index('tax_records_payment_idx').on(table.transactionId, table.paymentId),
  ],
);
