/**
 * Payouts (docs/decisions/0035): batches lock the payable entries in, an entry in at most one live batch (a unique
 * partial index, so of two batches created at once the second is refused), then paid with a reference (each referrer
 * mailed) or voided. Cents.
 */
import { and, desc, eq, inArray, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client';
import { commissionEntries, outbox, payoutBatchEntries, payoutBatches, referrers } from '../db/schema';
import { readLedger, totalsOf, type CommissionTotals, type LedgerLine } from './statements';

interface ReferrerBalance {
  referrerId: string;
  slug: string;
  displayName: string;
  email: string | null;
  totals: CommissionTotals;
}

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

/** Released earned entries, their reversals, open clawbacks. */
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

type BatchRefusal = 'nothing_payable' | 'taken';

/**
 * Every referrer with at least `minimumCents` payable and an email. Refuses 'taken' when a concurrent batch took some
 * entries (nothing created).
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

/** pg, PGlite or wrapped by Drizzle. */
function isUniqueViolation(error: unknown): boolean {
  for (let current: unknown = error; current && typeof current === 'object'; current = (current as { cause?: unknown }).cause) {
    if ((current as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

export interface BatchPayee {
  referrerId: string;
  slug: string;
  displayName: string;
  email: string | null;
  amountCents: number;
  entries: number;
}

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

/** With `referrerId`, only the batches paying them, and only their line. */
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

export async function findPayoutBatch(db: Database, batchId: number): Promise<PayoutBatch | undefined> {
  return (await listPayoutBatches(db)).find((batch) => batch.id === batchId);
}

/** Queues each payee's mail. False unless the batch is 'created'. */
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

/** Its entries are payable again. False unless the batch is 'created'. */
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
