/**
 * The ledger read back (docs/decisions/0035). States are derived, never stored: an earned entry is held within the
 * refund guarantee on the billing clock, then payable, in a batch, paid, or 'reversed' when reversals took all of it.
 * A clawback stands alone against the next payout. Cents.
 */
import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { LedgerEntry } from '../../src/contract/commissions';
import { earnedEntryState, type CommissionState } from '../../src/domain/commissions';
import type { Database, Transaction } from '../db/client';
import { commissionEntries, payoutBatchEntries, payoutBatches } from '../db/schema';
import { billingNow } from './ledger';

export interface LedgerLine {
  id: number;
  kind: 'earned' | 'reversal' | 'clawback';
  referrerId: string;
  transactionId: string;
  invoiceId: string;
  invoiceCents: number;
  seats: number;
  /** Negative for reversals and clawbacks. */
  amountCents: number;
  /** Less its reversals, for an earned entry. */
  netCents: number;
  ruleText: string;
  selfReferral: boolean;
  earnedAt: Date;
  /** A reversal's is 'reversed' unless it went into a payout with its entry. */
  state: CommissionState;
  batchId: number | null;
  reverses: number | null;
}

async function readBillingNow(db: Database | Transaction, clock: SQL | undefined): Promise<Date> {
  const [row] = await db.select({ now: sql<string>`(${billingNow(clock)})::text` }).from(sql`(select 1) as one`);
  return new Date(row!.now);
}

export async function readLedger(
  db: Database | Transaction,
  clock: SQL | undefined,
  where: { referrerId?: string; transactionId?: string } = {},
): Promise<LedgerLine[]> {
  const now = await readBillingNow(db, clock);
  const rows = await db
    .select({ entry: commissionEntries, batchId: payoutBatches.id, batchStatus: payoutBatches.status })
    .from(commissionEntries)
    .leftJoin(payoutBatchEntries, and(eq(payoutBatchEntries.entryId, commissionEntries.id), eq(payoutBatchEntries.released, false)))
    .leftJoin(payoutBatches, and(eq(payoutBatches.id, payoutBatchEntries.batchId), inArray(payoutBatches.status, ['created', 'paid'])))
    .where(
      and(
        where.referrerId ? eq(commissionEntries.referrerId, where.referrerId) : undefined,
        where.transactionId ? eq(commissionEntries.transactionId, where.transactionId) : undefined,
      ),
    )
    .orderBy(asc(commissionEntries.id));
  const reversed = new Map<number, number>();
  for (const { entry } of rows) {
    if (entry.kind === 'reversal' && entry.reverses !== null)
      reversed.set(entry.reverses, (reversed.get(entry.reverses) ?? 0) + entry.amountCents);
  }
  return rows.map(({ entry, batchId, batchStatus }) => {
    const batch = batchStatus === 'created' || batchStatus === 'paid' ? batchStatus : null;
    const netCents = entry.kind === 'earned' ? entry.amountCents + (reversed.get(entry.id) ?? 0) : entry.amountCents;
    const state: CommissionState =
      entry.kind === 'earned'
        ? earnedEntryState({ earnedAt: entry.earnedAt, netCents, amountCents: entry.amountCents, batch, now })
        : batch === 'paid'
          ? 'paid'
          : batch === 'created'
            ? 'in_payout'
            : entry.kind === 'clawback'
              ? 'payable'
              : 'reversed';
    return {
      id: entry.id,
      kind: entry.kind,
      referrerId: entry.referrerId,
      transactionId: entry.transactionId,
      invoiceId: entry.invoiceId,
      invoiceCents: entry.invoiceCents,
      seats: entry.seats,
      amountCents: entry.amountCents,
      netCents,
      ruleText: entry.ruleText,
      selfReferral: entry.selfReferral,
      earnedAt: entry.earnedAt,
      state,
      batchId: batch ? batchId : null,
      reverses: entry.reverses,
    };
  });
}

export interface CommissionTotals {
  held: number;
  /** Released earned entries net of reversals, less unpaid clawbacks. */
  payable: number;
  inPayout: number;
  paid: number;
  /** A positive number. */
  reversed: number;
}

export function totalsOf(lines: LedgerLine[]): CommissionTotals {
  const totals: CommissionTotals = { held: 0, payable: 0, inPayout: 0, paid: 0, reversed: 0 };
  for (const line of lines) {
    if (line.kind !== 'earned') totals.reversed -= line.amountCents;
    if (line.kind === 'reversal' && line.state === 'reversed') continue;
    const cents = line.kind === 'earned' && line.batchId === null ? line.netCents : line.amountCents;
    if (line.state === 'held') totals.held += cents;
    else if (line.state === 'payable') totals.payable += cents;
    else if (line.state === 'in_payout') totals.inPayout += cents;
    else if (line.state === 'paid') totals.paid += cents;
  }
  return totals;
}

export function entryJson(line: LedgerLine): LedgerEntry {
  return {
    id: line.id,
    kind: line.kind,
    invoiceId: line.invoiceId,
    invoiceCents: line.invoiceCents,
    seats: line.seats,
    amountCents: line.amountCents,
    state: line.state,
    rule: line.ruleText,
    selfReferral: line.selfReferral,
    earnedAt: line.earnedAt.toISOString(),
  };
}

export async function orderCommissions(db: Database, clock: SQL | undefined, transactionId: string): Promise<LedgerEntry[]> {
  return (await readLedger(db, clock, { transactionId })).map(entryJson);
}
