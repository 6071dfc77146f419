import { sql } from 'drizzle-orm';
import { check, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** One row, written on the first save (docs/decisions/0030). */
export const offerContent = pgTable(
  'offer_content',
  {
    id: integer('id').primaryKey().default(1),
    /** In the order shown. */
    testimonials: jsonb('testimonials').$type<Array<{ name: string; practice: string; quote: string }>>().notNull(),
    guarantee: text('guarantee').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [check('offer_content_one_row', sql`${table.id} = 1`)],
);
