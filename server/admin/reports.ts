/**
 * What the owner's console reads: orders with their referrer, an order's funnel timeline, and the business over a
 * period (money in integer cents; periods are whole UTC days, `from` to `to` inclusive). Conversion counts come
 * from funnel events (kept FUNNEL_RETENTION_DAYS, longer than abandoned orders); money from paid orders.
 */
import { and, asc, desc, eq, gte, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Dashboard, FunnelEventRow, OrderRow, OrdersQuery, ReferrerFunnel } from '../../src/contract/admin';
import type { TeamSeat } from '../../src/contract/team';
import type { Database } from '../db/client';
import { funnelEvents, orders, referrers, seats } from '../db/schema';
import { seatsOf, seatView } from '../seats/seats';

const DAY_MS = 24 * 60 * 60 * 1000;
/** A checkout still unpaid this long after it opened counts as abandoned. */
const ABANDONED_AFTER_MS = 60 * 60 * 1000;
/** The period when the console names none: the last 30 days, today included. */
const DEFAULT_PERIOD_DAYS = 30;
/** Orders the list shows at most (the CSV export has them all). */
const LIST_LIMIT = 500;

/** A period of whole UTC days: `start` inclusive, `end` exclusive. */
interface Period {
  start: Date;
  end: Date;
}

const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/**
 * The period from `from` to `to` (YYYY-MM-DD, inclusive; either may be missing).
 * @throws RangeError when `to` is before `from`.
 */
export function periodOf(query: { from?: string; to?: string }, now = new Date()): Period {
  const end = query.to ? new Date(Date.parse(`${query.to}T00:00:00Z`) + DAY_MS) : new Date(Date.parse(`${isoDay(now)}T00:00:00Z`) + DAY_MS);
  const start = query.from ? new Date(`${query.from}T00:00:00Z`) : new Date(end.getTime() - DEFAULT_PERIOD_DAYS * DAY_MS);
  if (Number.isNaN(start.getTime()) || Number.isNaN(end.getTime())) throw new RangeError('Dates must be real days (YYYY-MM-DD).');
  if (end <= start) throw new RangeError('The period must end on or after the day it starts.');
  return { start, end };
}

const orderColumns = {
  order: orders,
  referrer: { id: referrers.id, slug: referrers.slug, displayName: referrers.displayName },
};

type OrderWithReferrer = {
  order: typeof orders.$inferSelect;
  referrer: { id: string; slug: string; displayName: string } | null;
};

function orderRow({ order, referrer }: OrderWithReferrer): OrderRow {
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
    refundedCents: order.refundedCents,
  };
}

function orderFilter(query: OrdersQuery): SQL | undefined {
  const conditions: (SQL | undefined)[] = [];
  if (query.status) conditions.push(eq(orders.status, query.status));
  if (query.referrer === 'none') conditions.push(isNull(orders.referrerId));
  else if (query.referrer) conditions.push(eq(orders.referrerId, query.referrer));
  if (query.from || query.to) {
    const period = periodOf(query);
    conditions.push(gte(orders.createdAt, period.start), lt(orders.createdAt, period.end));
  }
  return and(...conditions);
}

/**
 * Orders matching `query`, newest first (at most LIST_LIMIT unless `all`).
 * @throws RangeError for a period that ends before it starts.
 */
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

/** The order of `transactionId` with its funnel events, oldest first; undefined when there is no such order. */
export async function orderDetail(
  db: Database,
  transactionId: string,
): Promise<{ order: OrderRow; events: FunnelEventRow[]; seats: TeamSeat[] } | undefined> {
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
    seats: (await seatsOf(db, transactionId)).map(seatView),
  };
}

/** An order active at `end`: paid before it and not cancelled before it. */
const activeAt = (end: Date) => and(lt(orders.paidAt, end), or(isNull(orders.cancelledAt), gte(orders.cancelledAt, end)));

const countOf = (condition: SQL) => sql<number>`(count(*) filter (where ${condition}))::int`;
const distinctOrdersOf = (type: string) =>
  sql<number>`(count(distinct ${funnelEvents.transactionId}) filter (where ${funnelEvents.type} = ${type}))::int`;

/**
 * The dashboard's figures over `period`: each referrer's funnel (every referrer, and visits without one) and the
 * totals, summed from the same two grouped reads (one of orders, one of funnel events).
 */
export async function dashboard(db: Database, period: Period, now = new Date()): Promise<Dashboard> {
  const inPeriod = (column: typeof orders.paidAt | typeof orders.cancelledAt | typeof funnelEvents.occurredAt) =>
    and(gte(column, period.start), lt(column, period.end))!;
  const money = await db
    .select({
      referrerId: orders.referrerId,
      mrrCents: sql<number>`coalesce(sum(${orders.amountCents}) filter (where ${activeAt(period.end)}), 0)::int`,
      paidOrders: countOf(inPeriod(orders.paidAt)),
      paidSeats: sql<number>`coalesce(sum(${orders.quantity}) filter (where ${inPeriod(orders.paidAt)}), 0)::int`,
      cancellations: countOf(inPeriod(orders.cancelledAt)),
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
  return {
    from: isoDay(period.start),
    to: isoDay(new Date(period.end.getTime() - DAY_MS)),
    mrrCents: total(money, 'mrrCents'),
    paidOrders: total(money, 'paidOrders'),
    paidSeats: total(money, 'paidSeats'),
    assignedSeats: team?.assigned ?? 0,
    claimedSeats: team?.claimed ?? 0,
    cancellations: total(money, 'cancellations'),
    failedPayments: total(funnel, 'failedPayments'),
    abandonedCheckouts: total(funnel, 'abandonedCheckouts'),
    byReferrer: [...all.map(rowFor), rowFor(null)],
  };
}
