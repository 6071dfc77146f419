/** The funnel: appended in the transaction of the change it describes, never from a client beacon. */
import { lt, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../db/client';
import { funnelEvents, type FunnelEventType } from '../db/schema';

interface FunnelEvent {
  type: FunnelEventType;
  transactionId?: string | null;
  referrerId?: string | null;
  detail?: Record<string, string | number>;
}

/** @throws database errors: inside a transaction, the change rolls back with it. */
export async function recordFunnelEvent(db: Database | Transaction, event: FunnelEvent): Promise<void> {
  await db.insert(funnelEvents).values({
    type: event.type,
    transactionId: event.transactionId ?? null,
    referrerId: event.referrerId ?? null,
    detail: event.detail ?? null,
  });
}

/** Outside any transaction, logging instead of throwing: a funnel figure is never worth failing a request for. */
export async function recordFunnelEventSafely(
  db: Database,
  event: FunnelEvent,
  log: { error(object: object, message: string): void },
): Promise<void> {
  await recordFunnelEvent(db, event).catch((error: unknown) =>
    log.error({ err: error, type: event.type }, 'Could not record a funnel event'),
  );
}

export async function deleteExpiredFunnelEvents(db: Database | Transaction, retentionDays: number): Promise<number> {
  const deleted = await db
    .delete(funnelEvents)
    .where(lt(funnelEvents.occurredAt, sql`now() - make_interval(days => ${retentionDays})`))
    .returning({ id: funnelEvents.id });
  return deleted.length;
}
