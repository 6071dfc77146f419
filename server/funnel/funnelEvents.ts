/**
 * The checkout funnel (server/db/schema.ts funnelEvents): the server appends an event when something happens,
 * in the same transaction as the change it describes where there is one. Never written from a client beacon.
 */
import { lt, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../db/client';
import { funnelEvents, type FunnelEventType } from '../db/schema';

/** One funnel event: its type, the order and referrer it belongs to (either may be null), and details. */
interface FunnelEvent {
  type: FunnelEventType;
  transactionId?: string | null;
  referrerId?: string | null;
  /** Seats for seats_changed, `declineCode` for payment_failed. */
  detail?: Record<string, string | number>;
}

/**
 * Appends `event`.
 * @throws database errors: inside a transaction, the change it describes is rolled back with it.
 */
export async function recordFunnelEvent(db: Database | Transaction, event: FunnelEvent): Promise<void> {
  await db.insert(funnelEvents).values({
    type: event.type,
    transactionId: event.transactionId ?? null,
    referrerId: event.referrerId ?? null,
    detail: event.detail ?? null,
  });
}

/**
 * Appends `event` outside any transaction and logs instead of throwing: a funnel figure is never worth failing
 * the buyer's request for.
 */
export async function recordFunnelEventSafely(
  db: Database,
  event: FunnelEvent,
  log: { error(object: object, message: string): void },
): Promise<void> {
  await recordFunnelEvent(db, event).catch((error: unknown) =>
    log.error({ err: error, type: event.type }, 'Could not record a funnel event'),
  );
}

/** Deletes funnel events older than `retentionDays` days; returns how many. */
export async function deleteExpiredFunnelEvents(db: Database | Transaction, retentionDays: number): Promise<number> {
  const deleted = await db
    .delete(funnelEvents)
    .where(lt(funnelEvents.occurredAt, sql`now() - make_interval(days => ${retentionDays})`))
    .returning({ id: funnelEvents.id });
  return deleted.length;
}
