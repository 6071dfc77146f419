/**
 * The reconciliation sweep (architecture.md, "The server owns an order's completion"): asks the provider about
 * orders still 'open' and completes those whose subscription is paid, through the same step as a payment event
 * (settleWithProvider). It catches what no event delivered: a process that died between taking the payment and
 * completing the order, a webhook endpoint that was down for longer than Stripe retries. It also wipes the
 * encrypted credentials whose hand-off token is spent (docs/decisions/0008), and deletes checkouts abandoned
 * longer than RETENTION_DAYS (./retention.ts).
 *
 * Runs at start and every RECONCILE_INTERVAL_SECONDS (startReconciliation), and once from `npm run reconcile`.
 * Each run reads at most `batchSize` open orders, least recently checked first, created within `maxAgeHours`:
 * Stripe expires an unpaid `default_incomplete` subscription after 23 hours, so older open orders are rarely paid.
 * Rarely is not never (a completion that failed for days: a wrong webhook secret, an amount that did not match),
 * so before retention deletes an open order the sweep asks the provider once more (askBeforeDeleting); one found
 * paid then is completed and logged as an alert.
 */
import { and, asc, eq, gt, inArray, lt, or, isNull, sql } from 'drizzle-orm';
import { orders } from '../db/schema';
import { settleWithProvider, type PaymentEffect } from './applyPaymentEvent';
import { wipeSpentCredentials } from './completeOrder';
import type { OrderContext } from './order';
import { deleteExpiredRecords, type RetentionReport } from './retention';

/** What one sweep did: orders asked about, completed, cancelled, failed (provider or database error), wiped. */
interface ReconcileReport {
  checked: number;
  completed: number;
  cancelled: number;
  failed: number;
  wipedCredentials: number;
  /** Abandoned checkouts and old event ids deleted past RETENTION_DAYS (./retention.ts). */
  deleted: RetentionReport;
  /** The provider's own records of abandoned checkouts it deleted, by table. */
  deletedByProvider: Record<string, number>;
  /** Open orders past RETENTION_DAYS asked about before deletion; those found paid are in `completed` too. */
  askedBeforeDeleting: number;
}

interface ReconcileOptions {
  /** Most open orders asked about in one run. */
  batchSize?: number;
  /** Open orders older than this are no longer asked about (hours). */
  maxAgeHours?: number;
}

/** Runs one sweep. Never throws for one order's failure (logged, counted in `failed`); database errors of the read propagate. */
export async function reconcileOrders(
  context: OrderContext,
  { batchSize = 100, maxAgeHours = 24 }: ReconcileOptions = {},
): Promise<ReconcileReport> {
  const { db, log } = context;
  const open = await db
    .select()
    .from(orders)
    .where(and(eq(orders.status, 'open'), gt(orders.createdAt, sql`now() - make_interval(hours => ${maxAgeHours})`)))
    .orderBy(sql`${orders.reconciledAt} asc nulls first`, asc(orders.createdAt))
    .limit(batchSize);
  const report: ReconcileReport = {
    checked: open.length,
    completed: 0,
    cancelled: 0,
    failed: 0,
    wipedCredentials: 0,
    deleted: {
      abandonedOrders: 0,
      webhookEvents: 0,
      addressDeclines: 0,
      funnelEvents: 0,
      sessions: 0,
      outbox: 0,
      accountLinks: 0,
      partnerLinks: 0,
    },
    deletedByProvider: {},
    askedBeforeDeleting: 0,
  };
  if (open.length > 0) {
    await db
      .update(orders)
      .set({ reconciledAt: new Date() })
      .where(
        inArray(
          orders.transactionId,
          open.map((order) => order.transactionId),
        ),
      );
  }
  for (const order of open) {
    let effect: PaymentEffect;
    try {
      const settled = await settleWithProvider(context, order);
      if (!settled.ok) throw new Error(`Refused: ${settled.refusal}`);
      effect = settled.value;
    } catch (error) {
      report.failed += 1;
      log.error({ err: error, transactionId: order.transactionId }, 'Reconciliation could not settle an open order');
      continue;
    }
    if (effect === 'completed') report.completed += 1;
    if (effect === 'cancelled') report.cancelled += 1;
  }
  const wiped = await wipeSpentCredentials(db);
  report.wipedCredentials = wiped.accounts;
  await askBeforeDeleting(context, report, batchSize);
  report.deleted = await deleteExpiredRecords(db, context.config.RETENTION_DAYS, context.config.FUNNEL_RETENTION_DAYS, context.listeners);
  report.deletedByProvider = (await context.provider.deleteAbandonedRecords?.(context.config.RETENTION_DAYS)) ?? {};
  if (report.completed > 0 || report.cancelled > 0 || report.failed > 0) log.warn({ report }, 'Reconciliation changed orders');
  else log.debug({ report }, 'Reconciliation found nothing to change');
  return report;
}

/**
 * Asks the provider about open orders past RETENTION_DAYS not yet asked since (at most `batchSize` a run), and
 * marks each asked (retention deletes only those). One found paid is completed and logged as an error: no event
 * completed it for longer than the retention period. One the provider cannot be asked about now is left unmarked,
 * so it is kept and asked again next run.
 */
async function askBeforeDeleting(context: OrderContext, report: ReconcileReport, batchSize: number): Promise<void> {
  const { db, log } = context;
  const days = context.config.RETENTION_DAYS;
  const candidates = await db
    .select()
    .from(orders)
    .where(
      and(
        eq(orders.status, 'open'),
        lt(orders.createdAt, sql`now() - make_interval(days => ${days})`),
        or(isNull(orders.reconciledAt), sql`${orders.reconciledAt} <= ${orders.createdAt} + make_interval(days => ${days})`),
      ),
    )
    .orderBy(asc(orders.createdAt))
    .limit(batchSize);
  for (const order of candidates) {
    report.askedBeforeDeleting += 1;
    try {
      const settled = await settleWithProvider(context, order);
      if (!settled.ok) throw new Error(`Refused: ${settled.refusal}`);
      if (settled.value === 'completed') {
        report.completed += 1;
        log.error(
          { transactionId: order.transactionId, alert: 'paid_order_found_at_retention' },
          'A paid order was about to be deleted as abandoned: completed now',
        );
      }
      await db.update(orders).set({ reconciledAt: new Date() }).where(eq(orders.transactionId, order.transactionId));
    } catch (error) {
      report.failed += 1;
      log.error({ err: error, transactionId: order.transactionId }, 'Could not ask the provider about an abandoned order; it is kept');
    }
  }
}

/**
 * Runs reconcileOrders now and then every `intervalMs`, one run at a time; returns a function that stops it and
 * waits for a run in progress. A failed run is logged and the schedule goes on.
 */
export function startReconciliation(context: OrderContext, intervalMs: number): () => Promise<void> {
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const run = () => {
    running = running.then(async () => {
      if (stopped) return;
      await reconcileOrders(context).catch((error: unknown) => context.log.error({ err: error }, 'Reconciliation run failed'));
    });
  };
  run();
  const timer = setInterval(run, intervalMs);
  timer.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  };
}
