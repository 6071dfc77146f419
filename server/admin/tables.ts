/**
 * The owner's console accounts (docs/decisions/0018-owner-console.md).
 * Gathered by server/db/schema.ts; migrations come from there.
 */
import { sql } from 'drizzle-orm';
import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** The business owner's console accounts (`npm run owner:create`); the password as an argon2id hash. */
export const owners = pgTable('owners', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  email: text('email').notNull().unique(),
  passwordHash: text('password_hash').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
