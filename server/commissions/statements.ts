/**
 * The ledger read back (docs/decisions/0035): each entry with its derived state, and the totals per
 * referrer. States are never stored: an earned entry is held within the refund guarantee of `earnedAt` on the
 * billing clock, then payable; 'in_payout' or 'paid' by the live payout batch it is in; 'reversed' when
 * reversals took all of it. A reversal nets into its earned entry; a clawback stands alone and counts against the
 * next payout. Money in integer cents.
 */
import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { LedgerEntry } from '../../src/contract/commissions';
import { earnedEntryState, type CommissionState } from '../../src/domain/commissions';
import type { Database, Transaction } from '../db/client';
import { commissionEntries, payoutBatchEntries, payoutBatches } from '../db/schema';
import { billingNow } from './ledger';

/** One ledger entry as the screens show it. */
export interface LedgerLine {
  id: number;
  kind: 'earned' | 'reversal' | 'clawback';
  referrerId: string;
  transactionId: string;
  invoiceId: string;
  invoiceCents: number;
  seats: number;
  /** The entry's own amount (negative for reversals and clawbacks). */
  amountCents: number;
  /** An earned entry's amount less its reversals; the amount itself for the other kinds. */
  netCents: number;
  ruleText: string;
  selfReferral: boolean;
  earnedAt: Date;
  /** The entry's state; a reversal's is 'reversed' unless it went into a payout with its entry. */
  state: CommissionState;
  /** The live payout batch holding it, or null. */
  batchId: number | null;
  /** The earned entry a reversal or clawback takes back. */
  reverses: number | null;
}

/** The billing clock's now, read from the database. */
async function readBillingNow(db: Database | Transaction, clock: SQL | undefined): Promise<Date> {
  const [row] = await db.select({ now: sql<string>`(${billingNow(clock)})::text` }).from(sql`(select 1) as one`);
  return new Date(row!.now);
}

/** The entries matching `where` (by referrer or order), oldest first, with their derived states. */
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

/** A referrer's commission totals, in cents. */
export interface CommissionTotals {
  held: number;
  /** Payable now: released earned entries net of reversals, less clawbacks not yet paid out. */
  payable: number;
  inPayout: number;
  paid: number;
  /** Taken back by reversals and clawbacks (a positive number). */
  reversed: number;
}

/** The totals of `lines` (one referrer's). */
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

/** A ledger line as the API answers it. */
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

/** The ledger entries of order `transactionId`, oldest first. */
export async function orderCommissions(db: Database, clock: SQL | undefined, transactionId: string): Promise<LedgerEntry[]> {
  return (await readLedger(db, clock, { transactionId })).map(entryJson);
}
