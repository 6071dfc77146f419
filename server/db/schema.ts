/** Gathers every feature's tables.ts for the client; drizzle-kit reads the same files by a glob (drizzle.config.ts). */
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
export * from '../handoff/tables';
