/**
 * The reconciliation sweep: completes open orders whose subscription is paid but whose event never arrived (a
 * process died, a webhook endpoint was down longer than Stripe retries). Stripe expires an unpaid
 * `default_incomplete` subscription after 23 hours, hence `maxAgeHours`; before retention deletes an open order,
 * the provider is asked once more (askBeforeDeleting).
 */
import { and, asc, eq, gt, inArray, lt, or, isNull, sql } from 'drizzle-orm';
import { orders } from '../db/schema';
import { settleWithProvider, type PaymentEffect } from './applyPaymentEvent';
import { wipeSpentCredentials } from './completeOrder';
import type { OrderContext } from './order';
import { deleteExpiredRecords, type RetentionReport } from './retention';

interface ReconcileReport {
  checked: number;
  completed: number;
  cancelled: number;
  failed: number;
  wipedCredentials: number;
  deleted: RetentionReport;
  deletedByProvider: Record<string, number>;
  askedBeforeDeleting: number;
}

interface ReconcileOptions {
  batchSize?: number;
  /** Hours. */
  maxAgeHours?: number;
}

/** Never throws for one order's failure (counted in `failed`); database errors of the read propagate. */
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

/** One found paid is logged as an error; one the provider cannot be asked about stays unmarked, so it is kept. */
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

/** One run at a time; the returned function stops it and waits for a run in progress. A failed run is logged. */
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
