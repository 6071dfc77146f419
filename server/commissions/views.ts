/** The console's commission screens: the overview and a batch's CSV files. Cents; CSV in dollars. */
import { eq, type SQL } from 'drizzle-orm';
import type { CommissionsOverview, PayoutBatch as PayoutBatchJson, ReferrerCommissionRequest } from '../../src/contract/commissions';
import type { Database } from '../db/client';
import { outbox, referrers } from '../db/schema';
import { csvOf, usd } from '../http/csv';
import { listPayoutBatches, referrerBalances, type PayoutBatch } from './payouts';
import { defaultRule, ruleFor, setRule } from './rules';

const iso = (date: Date | null) => date?.toISOString() ?? null;

export function batchJson(batch: PayoutBatch): PayoutBatchJson {
  return { ...batch, createdAt: batch.createdAt.toISOString(), paidAt: iso(batch.paidAt), voidedAt: iso(batch.voidedAt) };
}

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

/** `rule` null: back to the default. False for no such referrer. */
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
 * A new address of an active referrer queues their welcome in the same transaction: otherwise they learn of /partner
 * only if someone tells them.
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
 * PayPal, "Send payouts from Payouts Web": no header; email, amount, currency, a customer id of at most 30 characters
 * without spaces, note, 'PAYPAL'.
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
