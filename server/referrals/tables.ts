/**
 * The referrers and their links (docs/decisions/0017-referral-attribution.md).
 * Gathered by server/db/schema.ts; migrations come from there.
 */
import { sql } from 'drizzle-orm';
import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

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
