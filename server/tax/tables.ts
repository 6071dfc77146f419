/**
 * The record of tax collected, for the owner's filing (docs/decisions/0074). Gathered by server/db/schema.ts;
 * migrations come from there.
 */
import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { orders } from '../checkout/tables';

/**
 * One row per money event of a taxed order (./record.ts): the first payment, each paid renewal, each paid proration
 * (kind 'payment', positive), and each refund or failed refund of one of them (kind 'refund': negative for the tax
 * share a refund returns, positive when a failed refund gives it back). Integer cents; append-only. `recordKey` is
 * unique on the provider's ids, so a webhook delivered twice records once: `payment:{invoiceId}`,
 * `refund:{paymentId}:{eventId}`. An untaxed order has no rows.
 */
export const taxRecords = pgTable(
  'tax_records',
  {
    recordKey: text('record_key').primaryKey(),
    kind: text('kind', { enum: ['payment', 'refund'] }).notNull(),
    transactionId: text('transaction_id')
      .notNull()
      .references(() => orders.transactionId),
    /** The provider's invoice the money was paid on (a refund's: the invoice of the payment it refunds). */
    invoiceId: text('invoice_id').notNull(),
    /** The provider's payment (Stripe: the PaymentIntent; sandbox: the PaymentIntent or renewal invoice). */
    paymentId: text('payment_id').notNull(),
    /** The registered state the order is taxed for ('HI', 'AZ'). */
    taxState: text('tax_state').notNull(),
    /** The amount before tax, in cents (a refund's part before tax: negative). */
    amountCents: integer('amount_cents').notNull(),
    /** The tax, in cents (a refund's tax share: negative). */
    taxCents: integer('tax_cents').notNull(),
    /** When the money moved, on the provider's billing clock (the payment's or the refund's time). */
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('tax_records_occurred_at_idx').on(table.occurredAt),
    index('tax_records_payment_idx').on(table.transactionId, table.paymentId),
  ],
);
