/**
 * Bounded storage: checkouts abandoned longer than RETENTION_DAYS are deleted once the provider, asked after that
 * age, still reports them unpaid (the provider deletes its own records: PaymentProvider.deleteAbandonedRecords),
 * and so are processed webhook event ids older than that (Stripe retries an event for at most 3 days, so a
 * replay of an older one cannot arrive). Paid and cancelled orders are kept: they are the business's records.
 * Stripe's own unpaid objects expire by themselves after 23 hours. Sent mail and webhooks, spent links to the
 * manage page, ended sessions (console and manage page) and old funnel events (FUNNEL_RETENTION_DAYS) go too, and
 * what later features keep past its time, each deleting its own (the sign-in's expired records: OrderListener's
 * `sweepExpired`, docs/decisions/0061).
 */
import { and, eq, inArray, lt, notExists, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import type { OrderListeners } from './orderListeners';
import { deleteExpiredFunnelEvents } from '../funnel';
import { deleteEndedSessions } from '../sessions/sessions';
import { accountLinks, addressDeclines, orderRefunds, orders, outbox, partnerLinks, webhookEvents } from '../db/schema';

/** What one retention run deleted, in rows; later features' parts under their own names (`oidcRecords`). */
export interface RetentionReport extends Record<string, number> {
  abandonedOrders: number;
  webhookEvents: number;
  /** Per-address refusal counts whose hour is long over (they only matter within it). */
  addressDeclines: number;
  /** Funnel events older than FUNNEL_RETENTION_DAYS. */
  funnelEvents: number;
  /** Sessions of owners and buyers that have ended (server/sessions/sessions.ts). */
  sessions: number;
  /** Outbox rows sent, dropped or given up longer than RETENTION_DAYS ago; pending and held ones are kept. */
  outbox: number;
  /** Links to the manage page expired for more than a day. */
  accountLinks: number;
  /** Sign-in links to a referrer's page (/partner) expired for more than a day. */
  partnerLinks: number;
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
    const declines = await tx
      .delete(addressDeclines)
      .where(lt(addressDeclines.windowStartedAt, sql`now() - interval '1 day'`))
      .returning({ address: addressDeclines.address });
    return {
      abandonedOrders: deletedOrders.length,
      webhookEvents: events.length,
      addressDeclines: declines.length,
      funnelEvents: await deleteExpiredFunnelEvents(tx, funnelRetentionDays),
      sessions: await deleteEndedSessions(tx),
      outbox: (
        await tx
          .delete(outbox)
          .where(and(inArray(outbox.status, ['sent', 'dropped', 'failed']), lt(outbox.createdAt, cutoff)))
          .returning({ id: outbox.id })
      ).length,
      accountLinks: (
        await tx
          .delete(accountLinks)
          .where(lt(accountLinks.expiresAt, sql`now() - interval '1 day'`))
          .returning({ tokenHash: accountLinks.tokenHash })
      ).length,
      partnerLinks: (
        await tx
          .delete(partnerLinks)
          .where(lt(partnerLinks.expiresAt, sql`now() - interval '1 day'`))
          .returning({ tokenHash: partnerLinks.tokenHash })
      ).length,
      ...(await listeners?.sweepExpired(tx)),
    };
  });
}
