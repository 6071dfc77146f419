/**
 * What the console reads: orders, an order's timeline, the business over a period (cents; whole UTC days, inclusive).
 * Conversion counts from funnel events, money from paid orders.
 */
import { and, asc, desc, eq, gt, gte, ilike, isNotNull, isNull, lt, ne, or, sql, type SQL } from 'drizzle-orm';
import type {
  MrrInterval,
  MrrPoint,
  OrderDetail,
  OrderFilter,
  OrderInvoice,
  OrderRow,
  OrdersQuery,
  PeriodFigures,
  ReferrerFunnel,
} from '../../src/contract/admin';
import type { Database } from '../db/client';
import { accounts, funnelEvents, orderDisputes, orderRefunds, orders, referrers, seats } from '../db/schema';
import type { Order, OrderContext } from '../checkout';
import { seatsOf, seatView } from '../seats';
import { orderCommissions } from '../commissions';
import { containing } from './likePattern';

const DAY_MS = 24 * 60 * 60 * 1000;
const ABANDONED_AFTER_MS = 24 * 60 * 60 * 1000;
const DEFAULT_PERIOD_DAYS = 30;
/** The CSV export has them all. */
const LIST_LIMIT = 500;

interface Period {
  start: Date;
  end: Date;
}

const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/** YYYY-MM-DD, inclusive, either missing. @throws RangeError when `to` is before `from`. */
export function periodOf(query: { from?: string; to?: string }, now = new Date()): Period {
  const end = query.to ? new Date(Date.parse(`${query.to}T00:00:00Z`) + DAY_MS) : new Date(Date.parse(`${isoDay(now)}T00:00:00Z`) + DAY_MS);
  const start = query.from ? new Date(`${query.from}T00:00:00Z`) : new Date(end.getTime() - DEFAULT_PERIOD_DAYS * DAY_MS);
  if (Number.isNaN(start.getTime()) || Number.isNaN(end.getTime())) throw new RangeError('Dates must be real days (YYYY-MM-DD).');
  if (end <= start) throw new RangeError('The period must end on or after the day it starts.');
  return { start, end };
}

const hasOpenDispute = sql`exists (select 1 from ${orderDisputes} as open_dispute where open_dispute.transaction_id = ${orders.transactionId} and open_dispute.outcome = 'open')`;

const orderColumns = {
  order: orders,
  referrer: { id: referrers.id, slug: referrers.slug, displayName: referrers.displayName },
  disputed: sql<boolean>`${hasOpenDispute}`.mapWith(Boolean),
  disputeDueBy: sql<
    string | null
  >`(select min(due.evidence_due_by)::text from ${orderDisputes} as due where due.transaction_id = ${orders.transactionId} and due.outcome = 'open')`,
  refundedTaxCents: sql<number>`(select coalesce(sum(refund.tax_cents), 0)::int from ${orderRefunds} as refund where refund.transaction_id = ${orders.transactionId})`,
};

type OrderWithReferrer = {
  order: typeof orders.$inferSelect;
  referrer: { id: string; slug: string; displayName: string } | null;
  disputed: boolean;
  disputeDueBy: string | null;
  refundedTaxCents: number;
};

function orderRow({ order, referrer, disputed, disputeDueBy, refundedTaxCents }: OrderWithReferrer): OrderRow {
  return {
    transactionId: order.transactionId,
    status: order.status,
    quantity: order.quantity,
    amountCents: order.amountCents,
    email: order.email,
    name: order.name,
    referrer,
    affiliateId: order.affiliateId,
    provider: order.provider,
    customerId: order.customerId,
    subscriptionId: order.subscriptionId,
    createdAt: order.createdAt.toISOString(),
    paidAt: order.paidAt?.toISOString() ?? null,
    cancelledAt: order.cancelledAt?.toISOString() ?? null,
    cancelAt: order.cancelAt?.toISOString() ?? null,
    cancellationReason: order.cancellationReason,
    pastDueSince: order.pastDueSince?.toISOString() ?? null,
    refundedCents: order.refundedCents,
    refundedTaxCents,
    refundAsked:
      order.refundAskedAt && order.refundAskedCents !== null
        ? { at: order.refundAskedAt.toISOString(), amountCents: order.refundAskedCents }
        : null,
    disputed,
    disputeDueBy: disputeDueBy ? new Date(disputeDueBy).toISOString() : null,
  };
}

function hadFailedPayment(period: Period | undefined): SQL {
  const within = period
    ? sql` and failed_event.occurred_at >= ${period.start.toISOString()}::timestamptz and failed_event.occurred_at < ${period.end.toISOString()}::timestamptz`
    : sql``;
  return sql`exists (select 1 from ${funnelEvents} as failed_event where failed_event.transaction_id = ${orders.transactionId} and failed_event.type = 'payment_failed'${within})`;
}

// The standings mirror src/domain/orderStatus.ts orderStanding (test/server/admin/consoleOrders.test.ts).
function statusFilter(status: OrderFilter, period: Period | undefined): SQL | undefined {
  const undisputed = sql`not ${hasOpenDispute}`;
  switch (status) {
    case 'open':
      return eq(orders.status, 'open');
    case 'active':
      return and(eq(orders.status, 'paid'), isNull(orders.cancelAt), undisputed);
    case 'cancelling':
      return and(eq(orders.status, 'paid'), isNotNull(orders.cancelAt), undisputed);
    case 'past_due':
      return and(eq(orders.status, 'past_due'), undisputed);
    case 'cancelled':
      return and(eq(orders.status, 'cancelled'), eq(orders.refundedCents, 0), undisputed);
    case 'refunded':
      return and(eq(orders.status, 'cancelled'), gt(orders.refundedCents, 0), undisputed);
    case 'disputed':
      return and(ne(orders.status, 'open'), hasOpenDispute);
    case 'cancellations':
      return or(isNotNull(orders.cancelAt), eq(orders.status, 'cancelled'));
    case 'payment_failed':
      return hadFailedPayment(period);
  }
}

function orderFilter(query: OrdersQuery): SQL | undefined {
  const conditions: (SQL | undefined)[] = [];
  const period = query.from || query.to ? periodOf(query) : undefined;
  if (query.status) conditions.push(statusFilter(query.status, period));
  // Abandoned checkouts would crowd an unfiltered list.
  if (!query.status && query.unpaid !== 'shown') conditions.push(ne(orders.status, 'open'));
  const buyer = query.buyer?.trim();
  if (buyer) conditions.push(or(ilike(orders.email, containing(buyer)), ilike(orders.name, containing(buyer))));
  if (query.referrer === 'none') conditions.push(isNull(orders.referrerId));
  else if (query.referrer) conditions.push(eq(orders.referrerId, query.referrer));
  // For failed payments the period is the failures' (the dashboard's link).
  if (period && query.status !== 'payment_failed') conditions.push(gte(orders.createdAt, period.start), lt(orders.createdAt, period.end));
  return and(...conditions);
}

/** Newest first, at most LIST_LIMIT unless `all`. @throws RangeError for a period that ends before it starts. */
export async function listOrders(db: Database, query: OrdersQuery, all = false): Promise<OrderRow[]> {
  const rows = await db
    .select(orderColumns)
    .from(orders)
    .leftJoin(referrers, eq(referrers.id, orders.referrerId))
    .where(orderFilter(query))
    .orderBy(desc(orders.createdAt))
    .limit(all ? Number.MAX_SAFE_INTEGER : LIST_LIMIT);
  return rows.map(orderRow);
}

/** Invoices null when the provider cannot be asked now; undefined for no such order. */
export async function orderDetail(
  context: Pick<OrderContext, 'db' | 'provider' | 'log'>,
  transactionId: string,
): Promise<OrderDetail | undefined> {
  const { db } = context;
  const [row] = await db
    .select(orderColumns)
    .from(orders)
    .leftJoin(referrers, eq(referrers.id, orders.referrerId))
    .where(eq(orders.transactionId, transactionId));
  if (!row) return undefined;
  const events = await db
    .select({ type: funnelEvents.type, occurredAt: funnelEvents.occurredAt, detail: funnelEvents.detail })
    .from(funnelEvents)
    .where(eq(funnelEvents.transactionId, transactionId))
    .orderBy(asc(funnelEvents.occurredAt), asc(funnelEvents.id));
  return {
    order: orderRow(row),
    events: events.map((event) => ({ ...event, occurredAt: event.occurredAt.toISOString() })),
    invoices: row.order.paidAt ? await invoicesOf(context, row.order) : [],
    seats: (await seatsOf(db, transactionId)).map(seatView),
    buyerAgreementSignedAt: (await buyerAgreementSignedAt(db, transactionId))?.toISOString() ?? null,
    commissions: await orderCommissions(db, context.provider.clock, transactionId),
  };
}

async function buyerAgreementSignedAt(db: Database, transactionId: string): Promise<Date | null> {
  const [account] = await db
    .select({ signedAt: accounts.agreementSignedAt })
    .from(accounts)
    .where(eq(accounts.transactionId, transactionId));
  return account?.signedAt ?? null;
}

async function invoicesOf(context: Pick<OrderContext, 'provider' | 'log'>, order: Order): Promise<OrderInvoice[] | null> {
  try {
    const details = await context.provider.retrieveSubscriptionDetails(order.subscriptionId);
    return details ? [...details.invoices].sort((a, b) => b.date.localeCompare(a.date)) : [];
  } catch (error) {
    context.log.warn({ err: error, transactionId: order.transactionId }, 'Could not read the invoices for the console');
    return null;
  }
}

const activeAt = (end: Date) => and(lt(orders.paidAt, end), or(isNull(orders.cancelledAt), gte(orders.cancelledAt, end)));

const countOf = (condition: SQL) => sql<number>`(count(*) filter (where ${condition}))::int`;
const distinctOrdersOf = (type: string) =>
  sql<number>`(count(distinct ${funnelEvents.transactionId}) filter (where ${funnelEvents.type} = ${type}))::int`;
const eventCents = sql`coalesce((${funnelEvents.detail} ->> 'amountCents')::int, 0)`;

export function mrrPointEnds(period: Period, interval: MrrInterval): Date[] {
  const ends: Date[] = [];
  let cursor = period.start;
  while (cursor < period.end) {
    let next: Date;
    if (interval === 'day') next = new Date(cursor.getTime() + DAY_MS);
    else if (interval === 'week') next = new Date(cursor.getTime() + 7 * DAY_MS);
    else next = new Date(Date.UTC(cursor.getUTCFullYear(), cursor.getUTCMonth() + 1, 1));
    cursor = next < period.end ? next : period.end;
    ends.push(cursor);
  }
  return ends;
}

/** Monthly totals as they are now, of orders paid before each point and not ended by it. */
async function mrrSeries(db: Database, period: Period, interval: MrrInterval): Promise<MrrPoint[]> {
  const paid = await db
    .select({ paidAt: orders.paidAt, cancelledAt: orders.cancelledAt, amountCents: orders.amountCents })
    .from(orders)
    .where(and(lt(orders.paidAt, period.end), or(isNull(orders.cancelledAt), gte(orders.cancelledAt, period.start))));
  return mrrPointEnds(period, interval).map((end) => ({
    date: isoDay(new Date(end.getTime() - DAY_MS)),
    mrrCents: paid
      .filter((order) => order.paidAt! < end && (order.cancelledAt === null || order.cancelledAt >= end))
      .reduce((sum, order) => sum + order.amountCents, 0),
  }));
}

/** Definitions: src/contract/admin.ts Dashboard. The funnel and totals come from the same two grouped reads. */
export async function dashboard(db: Database, period: Period, interval: MrrInterval = 'day', now = new Date()): Promise<PeriodFigures> {
  const inPeriod = (column: typeof orders.paidAt | typeof orders.cancelledAt | typeof funnelEvents.occurredAt) =>
    and(gte(column, period.start), lt(column, period.end))!;
  const money = await db
    .select({
      referrerId: orders.referrerId,
      mrrCents: sql<number>`coalesce(sum(${orders.amountCents}) filter (where ${activeAt(period.end)}), 0)::int`,
      paidOrders: countOf(inPeriod(orders.paidAt)),
      paidSeats: sql<number>`coalesce(sum(${orders.quantity}) filter (where ${inPeriod(orders.paidAt)}), 0)::int`,
      newMrrCents: sql<number>`coalesce(sum(${orders.amountCents}) filter (where ${inPeriod(orders.paidAt)}), 0)::int`,
      churnedMrrCents: sql<number>`coalesce(sum(${orders.amountCents}) filter (where ${and(isNotNull(orders.paidAt), inPeriod(orders.cancelledAt))}), 0)::int`,
    })
    .from(orders)
    .groupBy(orders.referrerId);
  const paidLater = db
    .select({ one: sql`1` })
    .from(sql`${funnelEvents} as paid_event`)
    .where(sql`paid_event.transaction_id = ${funnelEvents.transactionId} and paid_event.type = 'paid'`);
  const funnel = await db
    .select({
      referrerId: funnelEvents.referrerId,
      views: countOf(eq(funnelEvents.type, 'page_view')),
      opened: distinctOrdersOf('checkout_opened'),
      submitted: distinctOrdersOf('payment_submitted'),
      paid: distinctOrdersOf('paid'),
      failedPayments: countOf(eq(funnelEvents.type, 'payment_failed')),
      abandonedCheckouts: countOf(
        sql`${funnelEvents.type} = 'checkout_opened' and ${funnelEvents.occurredAt} < ${new Date(now.getTime() - ABANDONED_AFTER_MS)} and not exists (${paidLater})`,
      ),
      cancellations: sql<number>`(count(distinct ${funnelEvents.transactionId}) filter (where ${funnelEvents.type} in ('cancel_scheduled', 'cancelled')))::int`,
      collectedCents: sql<number>`(coalesce(sum(${eventCents}) filter (where ${funnelEvents.type} in ('paid', 'renewal_paid', 'proration_paid')), 0) - coalesce(sum(${eventCents}) filter (where ${funnelEvents.type} = 'refunded'), 0))::int`,
    })
    .from(funnelEvents)
    .where(inPeriod(funnelEvents.occurredAt))
    .groupBy(funnelEvents.referrerId);
  const all = await db
    .select({ id: referrers.id, slug: referrers.slug, displayName: referrers.displayName })
    .from(referrers)
    .orderBy(asc(referrers.createdAt), asc(referrers.slug));
  const total = <K extends string>(rows: Record<K, number>[], key: K) => rows.reduce((sum, row) => sum + row[key], 0);
  const rowFor = (referrer: ReferrerFunnel['referrer']): ReferrerFunnel => {
    const id = referrer?.id ?? null;
    const counts = funnel.find((row) => row.referrerId === id);
    const sums = money.find((row) => row.referrerId === id);
    return {
      referrer,
      views: counts?.views ?? 0,
      opened: counts?.opened ?? 0,
      submitted: counts?.submitted ?? 0,
      paid: counts?.paid ?? 0,
      paidSeats: sums?.paidSeats ?? 0,
      mrrCents: sums?.mrrCents ?? 0,
    };
  };
  const [team] = await db
    .select({
      assigned: sql<number>`count(*)::int`,
      claimed: sql<number>`(count(*) filter (where ${seats.status} = 'claimed'))::int`,
    })
    .from(seats)
    .innerJoin(orders, eq(orders.transactionId, seats.transactionId))
    .where(sql`${seats.status} <> 'revoked' and ${seats.suspendedAt} is null and ${orders.status} in ('paid', 'past_due')`);
  const newMrrCents = total(money, 'newMrrCents');
  const churnedMrrCents = total(money, 'churnedMrrCents');
  return {
    from: isoDay(period.start),
    to: isoDay(new Date(period.end.getTime() - DAY_MS)),
    mrrCents: total(money, 'mrrCents'),
    interval,
    mrrSeries: await mrrSeries(db, period, interval),
    collectedCents: total(funnel, 'collectedCents'),
    newMrrCents,
    churnedMrrCents,
    netMrrCents: newMrrCents - churnedMrrCents,
    paidOrders: total(money, 'paidOrders'),
    paidSeats: total(money, 'paidSeats'),
    assignedSeats: team?.assigned ?? 0,
    claimedSeats: team?.claimed ?? 0,
    cancellations: total(funnel, 'cancellations'),
    failedPayments: total(funnel, 'failedPayments'),
    abandonedCheckouts: total(funnel, 'abandonedCheckouts'),
    byReferrer: [...all.map(rowFor), rowFor(null)],
  };
}
