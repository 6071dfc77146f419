/**
 * What the commission screens read: the console's overview (rules, balances per referrer, batches),
 * an order's ledger entries, a referrer's own page (their link and its QR code, their funnel over a period, their
 * commission, practices and payouts: nothing of another referrer), and the CSV files (a batch as PayPal Payouts'
 * bulk file and as a generic one, a referrer's own ledger). Money in integer cents; CSV amounts in dollars.
 */
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import QRCode from 'qrcode';
import type {
  CommissionsOverview,
  PartnerView,
  PayoutBatch as PayoutBatchJson,
  ReferrerCommissionRequest,
} from '../../src/contract/commissions';
import { shortName } from '../../src/domain/commissions';
import { dashboard, periodOf } from '../admin/reports';
import type { Database } from '../db/client';
import { orders, outbox, referrers } from '../db/schema';
import { csvOf, usd } from '../http/csv';
import { listPayoutBatches, referrerBalances, type PayoutBatch } from './payouts';
import { defaultRule, ruleFor, setRule } from './rules';
import { entryJson, readLedger, totalsOf } from './statements';

const iso = (date: Date | null) => date?.toISOString() ?? null;

/** A batch as the API answers it. */
export function batchJson(batch: PayoutBatch): PayoutBatchJson {
  return { ...batch, createdAt: batch.createdAt.toISOString(), paidAt: iso(batch.paidAt), voidedAt: iso(batch.voidedAt) };
}

/** The console's commissions screen. */
export async function commissionsOverview(db: Database, clock: SQL | undefined, minimumCents: number): Promise<CommissionsOverview> {
  const balances = await referrerBalances(db, clock);
  const rules = await Promise.all(balances.map((balance) => ruleFor(db, balance.referrerId)));
  return {
    defaultRule: (await defaultRule(db)).text,
    minimumCents,
    referrers: balances.map((balance, index) => ({
      ...balance,
      rule: rules[index]!.text,
      ruleIsDefault: rules[index]!.isDefault,
    })),
    batches: (await listPayoutBatches(db)).map(batchJson),
  };
}

/**
 * Sets referrer `referrerId`'s email and/or rule (a new rule version; null: back to the default), for owner
 * `ownerId`. False when there is no such referrer.
 */
export async function setReferrerCommission(
  db: Database,
  referrerId: string,
  body: ReferrerCommissionRequest,
  ownerId: string,
): Promise<boolean> {
  if (!/^[0-9a-f-]{36}$/i.test(referrerId)) return false;
  const [found] = await db.select({ id: referrers.id }).from(referrers).where(eq(referrers.id, referrerId));
  if (!found) return false;
  if (body.email !== undefined) await setReferrerEmail(db, referrerId, body.email?.trim() || null);
  if (body.rule !== undefined) await setRule(db, referrerId, body.rule ?? { kind: 'default' }, ownerId);
  return true;
}

/**
 * Sets referrer `referrerId`'s email and, when it is one they did not have and they are active, queues their welcome
 * to the partner page in the same transaction (./partnerMail.ts, 'partner_welcome'; once per referrer and address):
 * otherwise a referrer learns of /partner only if someone tells them.
 */
async function setReferrerEmail(db: Database, referrerId: string, email: string | null): Promise<void> {
  await db.transaction(async (tx) => {
    const [before] = await tx.select().from(referrers).where(eq(referrers.id, referrerId)).for('update');
    if (!before) return;
    await tx.update(referrers).set({ email, updatedAt: new Date() }).where(eq(referrers.id, referrerId));
    const address = email?.toLowerCase();
    if (!address || before.status !== 'active' || address === before.email?.trim().toLowerCase()) return;
    await tx
      .insert(outbox)
      .values({
        kind: 'mail',
        topic: 'partner_welcome',
        dedupeKey: `mail:partner_welcome:${referrerId}:${address}`,
        transactionId: null,
        payload: { referrerId },
      })
      .onConflictDoNothing();
  });
}

/**
 * Referrer `referrerId`'s own page: `site` is the address their link starts with; `query` the funnel's period.
 * Undefined for an unknown referrer. @throws RangeError for a period that ends before it starts.
 */
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

/**
 * A batch as PayPal Payouts' bulk CSV (PayPal, "Send payouts from Payouts Web": no header; recipient email, amount,
 * currency, customer id of at most 30 characters without spaces, note to the recipient, wallet 'PAYPAL').
 */
export function paypalPayoutsCsv(batch: PayoutBatch): string {
  return csvOf(
    batch.payees.map((payee) => [
      payee.email ?? '',
      usd(payee.amountCents),
      'USD',
      `B${batch.id}-${payee.slug}`.slice(0, 30),
      `Referral commission, payout ${batch.id}`,
      'PAYPAL',
    ]),
  );
}

/** A batch as a generic CSV with a header: one line per referrer. */
export function genericPayoutCsv(batch: PayoutBatch): string {
  return csvOf([
    ['batch', 'referrer', 'name', 'email', 'amount_usd', 'entries', 'status', 'reference', 'created_at'],
    ...batch.payees.map((payee) => [
      batch.id,
      payee.slug,
      payee.displayName,
      payee.email ?? '',
      usd(payee.amountCents),
      payee.entries,
      batch.status,
      batch.reference ?? '',
      batch.createdAt.toISOString(),
    ]),
  ]);
}

/** A referrer's own ledger as CSV (their page's download). */
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
