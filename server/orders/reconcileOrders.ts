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
 * Stripe expires an unpaid `default_incomplete` subscription after 23 hours, so older open orders cannot be paid.
 */
import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
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
}

interface ReconcileOptions {
  /** Most open orders asked about in one run. */
  batchSize?: number;
  /** Open orders older than this are no longer asked about (hours). */
  maxAgeHours?: number;
}

/** Runs one sweep. Never throws for one order's failure (logged, counted in `failed`); database errors of the read propagate. */
export async function reconcileOrders(context: OrderContext, { batchSize = 100, maxAgeHours = 24 }: ReconcileOptions = {}): Promise<ReconcileReport> {
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
    deleted: { abandonedOrders: 0, sandboxSubscriptions: 0, sandboxCustomers: 0, webhookEvents: 0, addressDeclines: 0, funnelEvents: 0, sessions: 0, outbox: 0, accountLinks: 0 },
  };
  if (open.length > 0) {
    await db
      .update(orders)
      .set({ reconciledAt: new Date() })
      .where(inArray(orders.transactionId, open.map((order) => order.transactionId)));
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
  report.deleted = await deleteExpiredRecords(db, context.config.RETENTION_DAYS, context.config.FUNNEL_RETENTION_DAYS);
  if (report.completed > 0 || report.cancelled > 0 || report.failed > 0) log.warn({ report }, 'Reconciliation changed orders');
  else log.debug({ report }, 'Reconciliation found nothing to change');
  return report;
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
