/**
 * Bounded storage (docs/decisions/0066): abandoned checkouts past RETENTION_DAYS the provider still reports unpaid,
 * and webhook event ids older than that (Stripe retries an event for at most 3 days). Paid and cancelled orders are
 * the business's records and are kept.
 */
import { and, eq, lt, notExists, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import type { OrderListeners } from './orderListeners';
import { deleteExpiredFunnelEvents } from '../funnel';
import { deleteEndedSessions } from '../sessions/sessions';
import { deleteOldDeclineCounts } from '../security/confirmationChallenge';
import { orderRefunds, orders, webhookEvents } from '../db/schema';

/** Rows deleted. */
export interface RetentionReport extends Record<string, number> {
  abandonedOrders: number;
  webhookEvents: number;
  /** They only matter within their hour. */
  addressDeclines: number;
  funnelEvents: number;
  sessions: number;
}

/** In one transaction. @throws database errors (nothing is deleted then). */
export async function deleteExpiredRecords(
  db: Database,
  retentionDays: number,
  funnelRetentionDays = retentionDays,
  listeners?: Pick<OrderListeners, 'sweepExpired'>,
): Promise<RetentionReport> {
  const cutoff = sql`now() - make_interval(days => ${retentionDays})`;
  return db.transaction(async (tx) => {
    // Only one asked about after the cutoff and found unpaid: a payment no event reached is never deleted.
    const deletedOrders = await tx
      .delete(orders)
      .where(
        and(
          eq(orders.status, 'open'),
          lt(orders.createdAt, cutoff),
          sql`${orders.reconciledAt} > ${orders.createdAt} + make_interval(days => ${retentionDays})`,
          notExists(
            tx
              .select({ one: sql`1` })
              .from(orderRefunds)
              .where(eq(orderRefunds.transactionId, orders.transactionId)),
          ),
        ),
      )
      .returning({ transactionId: orders.transactionId });
    const events = await tx.delete(webhookEvents).where(lt(webhookEvents.receivedAt, cutoff)).returning({ eventId: webhookEvents.eventId });
    return {
      abandonedOrders: deletedOrders.length,
      webhookEvents: events.length,
      addressDeclines: await deleteOldDeclineCounts(tx),
      funnelEvents: await deleteExpiredFunnelEvents(tx, funnelRetentionDays),
      sessions: await deleteEndedSessions(tx),
      ...(await listeners?.sweepExpired(tx, { retentionDays })),
    };
  });
}
