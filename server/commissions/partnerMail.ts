/**
 * The referrer's mails through the outbox: the welcome, each commission earned, the sign-in link to /partner, the
 * payout notice. Links are minted at send time (32 random bytes, SHA-256 kept, single use); a requested link is
 * resolved here to the active referrer with that email, or 'dropped' (the request answers the same either way).
 */
import { randomUUID } from 'node:crypto';
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import { formatCents, shortName } from '../../src/domain/commissions';
import type { Database, Transaction } from '../db/client';
import { orders, outbox, partnerLinks, referrers } from '../db/schema';
import { compose, type FeatureMailContext, type FeatureMailDelivery, type FeatureMailRow } from '../outbox';
import { hashHandoffToken, newHandoffToken } from '../security/handoffToken';

/** The same work whatever the email. */
export async function requestPartnerLink(db: Database, email: string): Promise<void> {
  await db.insert(outbox).values({
    kind: 'mail',
    topic: 'partner_link',
    dedupeKey: `mail:partner_link:${randomUUID()}`,
    transactionId: null,
    payload: { email: email.trim() },
  });
}

/** Null when unknown, expired or used. */
export async function usePartnerLink(db: Database, token: string): Promise<string | null> {
  const [used] = await db
    .update(partnerLinks)
    .set({ usedAt: sql`now()` })
    .where(and(eq(partnerLinks.tokenHash, hashHandoffToken(token)), isNull(partnerLinks.usedAt), gt(partnerLinks.expiresAt, sql`now()`)))
    .returning({ referrerId: partnerLinks.referrerId });
  return used?.referrerId ?? null;
}

/** @throws Error for a row naming no referrer, and mailer errors (the worker retries). */
export async function deliverPartnerMail(
  { db, config, mailer, site, log }: FeatureMailContext,
  row: FeatureMailRow,
): Promise<FeatureMailDelivery> {
  const { email, referrerId } = row.payload;
  const [referrer] =
    typeof email === 'string'
      ? await db
          .select()
          .from(referrers)
          .where(and(sql`lower(${referrers.email}) = ${email.trim().toLowerCase()}`, eq(referrers.status, 'active')))
          .limit(1)
      : typeof referrerId === 'string'
        ? await db.select().from(referrers).where(eq(referrers.id, referrerId))
        : [];
  if (!referrer?.email) {
    if (typeof email === 'string') {
      log.info({ outboxId: row.id, topic: row.topic }, 'Mail dropped: no referrer for the requested email');
      return { status: 'dropped' };
    }
    throw new Error(`Outbox row ${row.id} names no referrer with an email`);
  }
  const link = async () => {
    if (!mailer) return `${site}/partner?token=[hidden]`;
    const { token, tokenHash } = newHandoffToken();
    await db.insert(partnerLinks).values({
      tokenHash,
      referrerId: referrer.id,
      expiresAt: sql`now() + make_interval(mins => ${config.ACCOUNT_LINK_MINUTES})`,
    });
    return `${site}/partner?token=${token}`;
  };
  const name = `Dr. ${referrer.displayName}`;
  const mail =
    row.topic === 'partner_commission_earned'
      ? await earnedMail(db, site, name, row.payload)
      : row.topic === 'partner_welcome'
        ? compose('Your referrals and commissions, on your partner page', name, [
            `Practices you refer through your link, ${site}/r/${referrer.slug}, earn you a commission on what they pay.`,
            'Your partner page shows each practice you referred, every commission, and when it becomes payable.',
            ['Open your partner page', await link()],
            `The link works once, for a short time. Later, ask for a new one at ${site}/partner with this email.`,
          ])
        : row.topic === 'partner_payout_paid'
          ? compose(`Your referral commission of ${formatCents(Number(row.payload.amountCents))} is paid`, name, [
              `We paid you ${formatCents(Number(row.payload.amountCents))} in referral commission (reference ${String(row.payload.reference)}).`,
              'See every practice you referred and each commission on your partner page.',
              ['Open your partner page', `${site}/partner`],
            ])
          : compose('Your link to your partner page', name, [
              'Here is the link you asked for. It works once, for a short time.',
              ['Open your partner page', await link()],
              'If you did not ask for it, you can ignore this mail.',
            ]);
  if (!mailer) return { status: 'held', rendered: { to: referrer.email, subject: mail.subject, text: mail.text } };
  await mailer.send({ to: referrer.email, ...mail });
  log.info({ outboxId: row.id, topic: row.topic }, 'Mail sent');
  return { status: 'sent', rendered: { to: referrer.email, subject: mail.subject, text: mail.text } };
}

/** The practice by first name and initial. */
async function earnedMail(db: Database, site: string, name: string, payload: Record<string, string | number | null>) {
  const [order] =
    typeof payload.transactionId === 'string'
      ? await db.select({ name: orders.name }).from(orders).where(eq(orders.transactionId, payload.transactionId))
      : [];
  const amount = formatCents(Number(payload.amountCents));
  const payable = new Date(String(payload.payableFrom)).toLocaleDateString('en-US', {
    month: 'long',
    day: 'numeric',
    year: 'numeric',
    timeZone: 'UTC',
  });
  return compose(`You earned ${amount} in referral commission`, name, [
    `${shortName(order?.name ?? null)}, a practice you referred, paid ${formatCents(Number(payload.invoiceCents))}. Your commission: ${amount}.`,
    `It is held for the buyer's 30-day money-back guarantee and payable from ${payable}.`,
    ['Open your partner page', `${site}/partner`],
  ]);
}

/** The retention sweep's part: links expired for more than a day. Returns how many. */
export async function deleteExpiredPartnerLinks(tx: Transaction): Promise<number> {
  const deleted = await tx
    .delete(partnerLinks)
    .where(lt(partnerLinks.expiresAt, sql`now() - interval '1 day'`))
    .returning({ tokenHash: partnerLinks.tokenHash });
  return deleted.length;
}
