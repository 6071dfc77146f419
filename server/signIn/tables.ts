/**
 * The OpenID Provider's records (docs/decisions/0033-openid-provider-for-the-training-platform.md).
 * Gathered by server/db/schema.ts; migrations come from there.
 */
import { index, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * What the OpenID Provider keeps (server/signIn/oidcStore.ts): its sessions, interactions, grants, authorization
 * codes, tokens, one row each, keyed by oidc-provider's model name and id, so every server process shares them.
 * A row past `expiresAt` is never read (the retention sweep deletes it); `consumedAt` marks a used code.
 */
export const oidcRecords = pgTable(
  'oidc_records',
  {
    model: text('model').notNull(),
    id: text('id').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    /** The grant a code or token belongs to (revoked together). */
    grantId: text('grant_id'),
    /** A session's uid (oidc-provider's findByUid). */
    uid: text('uid'),
    /** A device code's user code (findByUserCode). */
    userCode: text('user_code'),
    /** Null: kept until deleted. */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
  },
  (table) => [
    primaryKey({ columns: [table.model, table.id] }),
    index('oidc_records_grant_id_idx').on(table.grantId),
    index('oidc_records_uid_idx').on(table.model, table.uid),
    index('oidc_records_user_code_idx').on(table.model, table.userCode),
    index('oidc_records_expires_at_idx').on(table.expiresAt),
  ],
);
