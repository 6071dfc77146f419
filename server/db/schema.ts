/**
 * The database schema (Drizzle, PostgreSQL dialect), one for PGlite and PostgreSQL alike: each feature keeps its
 * tables in its own tables.ts; this file only gathers them, for the client and for drizzle-kit, which generates
 * the migrations into server/db/migrations (`npm run db:generate`).
 */
export * from '../referrals/tables';
export * from '../checkout/tables';
export * from '../funnel/tables';
export * from '../admin/tables';
export * from '../sessions/tables';
export * from '../seats/tables';
export * from '../security/tables';
export * from '../payments/tables';
export * from '../outbox/tables';
export * from '../account/tables';
export * from '../signIn/tables';
export * from '../content/tables';
export * from '../commissions/tables';
export * from '../tax/tables';
