/**
 * What the console's commission screens read: the overview (rules, balances per referrer, batches) and a batch's
 * CSV files (PayPal Payouts' bulk file and a generic one). A referrer's own page is the partner's
 * (server/partner/partnerView.ts). Money in integer cents; CSV amounts in dollars.
 */
import { eq, type SQL } from 'drizzle-orm';
import type { CommissionsOverview, PayoutBatch as PayoutBatchJson, ReferrerCommissionRequest } from '../../src/contract/commissions';
import type { Database } from '../db/client';
import { outbox, referrers } from '../db/schema';
import { csvOf, usd } from '../http/csv';
import { listPayoutBatches, referrerBalances, type PayoutBatch } from './payouts';
import { defaultRule, ruleFor, setRule } from './rules';

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
