/**
 * Bounded storage: checkouts abandoned longer than RETENTION_DAYS are deleted once the provider, asked after that
 * age, still reports them unpaid (the provider deletes its own records: PaymentProvider.deleteAbandonedRecords),
 * and so are processed webhook event ids older than that (Stripe retries an event for at most 3 days, so a
 * replay of an older one cannot arrive). Paid and cancelled orders are kept: they are the business's records.
 * Stripe's own unpaid objects expire by themselves after 23 hours. Ended sessions and old funnel events
 * (FUNNEL_RETENTION_DAYS) go too; each later feature deletes its own through its `sweepExpired` part
 * (docs/decisions/0066): the outbox's sent mail, the account's and the referrers' spent links, the sign-in's
 * expired records.
 */
import { and, eq, lt, notExists, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import type { OrderListeners } from './orderListeners';
import { deleteExpiredFunnelEvents } from '../funnel';
import { deleteEndedSessions } from '../sessions/sessions';
import { deleteOldDeclineCounts } from '../security/confirmationChallenge';
import { orderRefunds, orders, webhookEvents } from '../db/schema';

/**
 * What one retention run deleted, in rows; later features' parts under their own names (`outbox`, `accountLinks`,
 * `partnerLinks`, `oidcRecords`).
 */
export interface RetentionReport extends Record<string, number> {
  abandonedOrders: number;
  webhookEvents: number;
  /** Per-address refusal counts whose hour is long over (they only matter within it). */
  addressDeclines: number;
  /** Funnel events older than FUNNEL_RETENTION_DAYS. */
  funnelEvents: number;
  /** Sessions of owners and buyers that have ended (server/sessions/sessions.ts). */
  sessions: number;
}

/**
 * Deletes what is older than `retentionDays` days and no longer needed, funnel events older than
 * `funnelRetentionDays` (default: kept as long as abandoned checkouts), and what the features of `listeners` sweep
 * (none when left out), in one transaction.
 * @throws database errors (nothing is deleted then).
 */
export async function deleteExpiredRecords(
  db: Database,
  retentionDays: number,
  funnelRetentionDays = retentionDays,
  listeners?: Pick<OrderListeners, 'sweepExpired'>,
): Promise<RetentionReport> {
  const cutoff = sql`now() - make_interval(days => ${retentionDays})`;
  return db.transaction(async (tx) => {
    // Only an open order the sweep asked the provider about after it passed the cutoff, and found unpaid
    // (./reconcileOrders.ts askBeforeDeleting): a payment that no event reached is never deleted with its order.
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
