import { index, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * What the OpenID Provider keeps, by oidc-provider's model and id (./oidcStore.ts). Past `expiresAt` never read;
 * `consumedAt` marks a used code.
 */
export const oidcRecords = pgTable(
  'oidc_records',
  {
    model: text('model').notNull(),
    id: text('id').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    /** Revoked together. */
    grantId: text('grant_id'),
    uid: text('uid'),
    userCode: text('user_code'),
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
