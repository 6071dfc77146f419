/**
 * Payouts (docs/decisions/0035): the payable balance per referrer, payout batches that lock the payable
 * entries in (an entry is in at most one live batch: the unique partial index payout_batch_entries_one_live_idx,
 * so two batches created at once cannot both take it: the second is refused), marked paid with a reference (each
 * referrer gets a mail through the outbox) or voided (the entries are payable again). Money in integer cents.
 */
import { and, desc, eq, inArray, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client';
import { commissionEntries, outbox, payoutBatchEntries, payoutBatches, referrers } from '../db/schema';
import { readLedger, totalsOf, type CommissionTotals, type LedgerLine } from './statements';

/** One referrer's commission: who, their totals, and whether they can be paid (an email to pay to). */
interface ReferrerBalance {
  referrerId: string;
  slug: string;
  displayName: string;
  email: string | null;
  totals: CommissionTotals;
}

/** Every referrer with their commission totals, by display name. */
export async function referrerBalances(db: Database, clock: SQL | undefined): Promise<ReferrerBalance[]> {
  const [all, lines] = await Promise.all([db.select().from(referrers).orderBy(referrers.displayName), readLedger(db, clock)]);
  return all.map((referrer) => ({
    referrerId: referrer.id,
    slug: referrer.slug,
    displayName: referrer.displayName,
    email: referrer.email,
    totals: totalsOf(lines.filter((line) => line.referrerId === referrer.id)),
  }));
}

/** The entries a payout would take for one referrer: released earned entries, their reversals, open clawbacks. */
function payableLines(lines: LedgerLine[]): LedgerLine[] {
  const payableEarned = new Set(
    lines.filter((line) => line.kind === 'earned' && line.state === 'payable' && line.netCents !== 0).map((line) => line.id),
  );
  return lines.filter(
    (line) =>
      line.batchId === null &&
      ((line.kind === 'earned' && payableEarned.has(line.id)) ||
        (line.kind === 'reversal' && line.reverses !== null && payableEarned.has(line.reverses)) ||
        (line.kind === 'clawback' && line.state === 'payable')),
  );
}

/** Why no batch was created. */
type BatchRefusal = 'nothing_payable' | 'taken';

/**
 * Creates a payout batch of every referrer whose payable balance is at least `minimumCents` and who has an email
 * to be paid at, for owner `ownerId`. Refuses 'nothing_payable' when none qualifies, 'taken' when another batch
 * created at the same time took some of the entries (nothing is created then).
 */
export async function createPayoutBatch(
  db: Database,
  clock: SQL | undefined,
  { minimumCents, ownerId }: { minimumCents: number; ownerId: string },
): Promise<{ ok: true; batchId: number } | { ok: false; refusal: BatchRefusal }> {
  const lines = await readLedger(db, clock);
  const payees = (await db.select({ id: referrers.id, email: referrers.email }).from(referrers)).filter((referrer) => referrer.email);
  const picked = payees.flatMap((referrer) => {
    const taken = payableLines(lines.filter((line) => line.referrerId === referrer.id));
    const cents = taken.reduce((sum, line) => sum + line.amountCents, 0);
    return cents > 0 && cents >= minimumCents ? taken : [];
  });
  if (picked.length === 0) return { ok: false, refusal: 'nothing_payable' };
  try {
    const batchId = await db.transaction(async (tx) => {
      const [batch] = await tx.insert(payoutBatches).values({ createdBy: ownerId }).returning({ id: payoutBatches.id });
      await tx
        .insert(payoutBatchEntries)
        .values(picked.map((line) => ({ batchId: batch!.id, entryId: line.id, referrerId: line.referrerId })));
      return batch!.id;
    });
    return { ok: true, batchId };
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, refusal: 'taken' };
    throw error;
  }
}

/** True for PostgreSQL's unique_violation (23505), as pg or PGlite raise it, or wrapped by Drizzle. */
function isUniqueViolation(error: unknown): boolean {
  for (let current: unknown = error; current && typeof current === 'object'; current = (current as { cause?: unknown }).cause) {
    if ((current as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

/** One referrer's line of a batch: whom to pay, how much (cents), and how many entries. */
export interface BatchPayee {
  referrerId: string;
  slug: string;
  displayName: string;
  email: string | null;
  amountCents: number;
  entries: number;
}

/** A payout batch with its payees. */
export interface PayoutBatch {
  id: number;
  status: 'created' | 'paid' | 'voided';
  reference: string | null;
  createdAt: Date;
  paidAt: Date | null;
  voidedAt: Date | null;
  totalCents: number;
  payees: BatchPayee[];
}

/** The batches, newest first (with `referrerId`: only those paying that referrer, and only their line). */
export async function listPayoutBatches(db: Database, { referrerId }: { referrerId?: string } = {}): Promise<PayoutBatch[]> {
  const batches = await db.select().from(payoutBatches).orderBy(desc(payoutBatches.id));
  if (batches.length === 0) return [];
  const lines = await db
    .select({
      batchId: payoutBatchEntries.batchId,
      referrerId: payoutBatchEntries.referrerId,
      amountCents: commissionEntries.amountCents,
      slug: referrers.slug,
      displayName: referrers.displayName,
      email: referrers.email,
    })
    .from(payoutBatchEntries)
    .innerJoin(commissionEntries, eq(commissionEntries.id, payoutBatchEntries.entryId))
    .innerJoin(referrers, eq(referrers.id, payoutBatchEntries.referrerId))
    .where(
      and(
        inArray(
          payoutBatchEntries.batchId,
          batches.map((batch) => batch.id),
        ),
        referrerId ? eq(payoutBatchEntries.referrerId, referrerId) : undefined,
      ),
    );
  return batches.flatMap((batch) => {
    const payees = new Map<string, BatchPayee>();
    for (const line of lines.filter((each) => each.batchId === batch.id)) {
      const payee = payees.get(line.referrerId) ?? { ...line, amountCents: 0, entries: 0 };
      payee.amountCents += line.amountCents;
      payee.entries += 1;
      payees.set(line.referrerId, payee);
    }
    if (referrerId && payees.size === 0) return [];
    const list = [...payees.values()].map(({ referrerId: id, slug, displayName, email, amountCents, entries }) => ({
      referrerId: id,
      slug,
      displayName,
      email,
      amountCents,
      entries,
    }));
    return [
      {
        id: batch.id,
        status: batch.status,
        reference: batch.reference,
        createdAt: batch.createdAt,
        paidAt: batch.paidAt,
        voidedAt: batch.voidedAt,
        totalCents: list.reduce((sum, payee) => sum + payee.amountCents, 0),
        payees: list,
      },
    ];
  });
}

/** One batch, or undefined. */
export async function findPayoutBatch(db: Database, batchId: number): Promise<PayoutBatch | undefined> {
  return (await listPayoutBatches(db)).find((batch) => batch.id === batchId);
}

/**
 * Marks batch `batchId` paid with `reference` and queues each payee's 'payout_paid' mail. Refuses a batch that is
 * not 'created' (already paid or voided): false.
 */
export async function markBatchPaid(db: Database, batchId: number, reference: string): Promise<boolean> {
  const batch = await findPayoutBatch(db, batchId);
  if (!batch) return false;
  return db.transaction(async (tx) => {
    const [paid] = await tx
      .update(payoutBatches)
      .set({ status: 'paid', reference, paidAt: new Date() })
      .where(and(eq(payoutBatches.id, batchId), eq(payoutBatches.status, 'created')))
      .returning({ id: payoutBatches.id });
    if (!paid) return false;
    for (const payee of batch.payees) {
      await tx.insert(outbox).values({
        kind: 'mail',
        topic: 'partner_payout_paid',
        dedupeKey: `mail:partner_payout_paid:${batchId}:${payee.referrerId}`,
        transactionId: null,
        payload: { referrerId: payee.referrerId, amountCents: payee.amountCents, reference, batchId },
      });
    }
    return true;
  });
}

/** Voids batch `batchId` while it is 'created': its entries are payable again. False when it is not. */
export async function voidBatch(db: Database, batchId: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [voided] = await tx
      .update(payoutBatches)
      .set({ status: 'voided', voidedAt: new Date() })
      .where(and(eq(payoutBatches.id, batchId), eq(payoutBatches.status, 'created')))
      .returning({ id: payoutBatches.id });
    if (!voided) return false;
    await tx.update(payoutBatchEntries).set({ released: true }).where(eq(payoutBatchEntries.batchId, batchId));
    return true;
  });
}
