/**
 * A referrer's own page and their ledger as CSV, nothing of another referrer. It reads the console's figures and the
 * ledger, so it comes after both (architecture.md, feature order 5).
 */
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import QRCode from 'qrcode';
import type { PartnerView } from '../../src/contract/commissions';
import { shortName } from '../../src/domain/commissions';
import { dashboard, periodOf } from '../admin';
import { listPayoutBatches } from '../commissions';
import { ruleFor } from '../commissions';
import { entryJson, readLedger, totalsOf } from '../commissions';
import type { Database } from '../db/client';
import { orders, referrers } from '../db/schema';
import { csvOf, usd } from '../http/csv';

const iso = (date: Date | null) => date?.toISOString() ?? null;

/** Undefined for an unknown referrer. @throws RangeError for a period that ends before it starts. */
export async function partnerView(
  db: Database,
  clock: SQL | undefined,
  referrerId: string,
  { site, query }: { site: string; query: { from?: string; to?: string } },
): Promise<PartnerView | undefined> {
  const [referrer] = await db.select().from(referrers).where(eq(referrers.id, referrerId));
  if (!referrer) return undefined;
  const period = periodOf(query);
  const figures = await dashboard(db, period);
  const mine = figures.byReferrer.find((row) => row.referrer?.id === referrerId);
  const [active] = await db
    .select({ seats: sql<number>`coalesce(sum(${orders.quantity}), 0)::int` })
    .from(orders)
    .where(and(eq(orders.referrerId, referrerId), inArray(orders.status, ['paid', 'past_due'])));
  const lines = await readLedger(db, clock, { referrerId });
  const referred = await db
    .select({ transactionId: orders.transactionId, name: orders.name, quantity: orders.quantity, status: orders.status })
    .from(orders)
    .where(and(eq(orders.referrerId, referrerId), inArray(orders.status, ['paid', 'past_due', 'cancelled'])))
    .orderBy(orders.paidAt);
  const link = `${site}/r/${referrer.slug}`;
  return {
    displayName: referrer.displayName,
    link,
    qrSvg: await QRCode.toString(link, { type: 'svg', margin: 2 }),
    rule: (await ruleFor(db, referrerId)).text,
    period: { from: figures.from, to: figures.to },
    funnel: {
      visits: mine?.views ?? 0,
      checkoutsOpened: mine?.opened ?? 0,
      practicesPaid: mine?.paid ?? 0,
      activeSeats: active?.seats ?? 0,
      monthlyRevenueCents: mine?.mrrCents ?? 0,
    },
    totals: totalsOf(lines),
    practices: referred.map((order) => ({
      name: shortName(order.name),
      seats: order.quantity,
      status: order.status,
      entries: lines.filter((line) => line.transactionId === order.transactionId).map(entryJson),
    })),
    payouts: (await listPayoutBatches(db, { referrerId }))
      .filter((batch) => batch.status !== 'voided')
      .map((batch) => ({
        id: batch.id,
        status: batch.status,
        amountCents: batch.totalCents,
        reference: batch.reference,
        createdAt: batch.createdAt.toISOString(),
        paidAt: iso(batch.paidAt),
      })),
  };
}

export async function partnerLedgerCsv(db: Database, clock: SQL | undefined, referrerId: string): Promise<string> {
  const lines = await readLedger(db, clock, { referrerId });
  const names = new Map(
    (await db.select({ transactionId: orders.transactionId, name: orders.name }).from(orders).where(eq(orders.referrerId, referrerId))).map(
      (order) => [order.transactionId, shortName(order.name)],
    ),
  );
  return csvOf([
    ['date', 'practice', 'kind', 'invoice_usd', 'seats', 'commission_usd', 'state', 'rule'],
    ...lines.map((line) => [
      line.earnedAt.toISOString(),
      names.get(line.transactionId) ?? '',
      line.kind,
      usd(line.invoiceCents),
      line.seats,
      usd(line.amountCents),
      line.state,
      line.ruleText,
    ]),
  ]);
}
