/**
 * The offer's copy as the owner edits it (docs/decisions/0030-offer-content-in-the-console.md).
 * Gathered by server/db/schema.ts; migrations come from there.
 */
import { sql } from 'drizzle-orm';
import { check, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

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
