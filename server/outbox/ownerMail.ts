/**
 * Mail to every owner of what needs them at once: a dispute (its evidence deadline), a failed refund, a buyer's ask
 * for the guarantee's refund (docs/decisions/0068). `dedupeKey` names each occurrence, so a repeated provider event
 * mails once. Cents.
 */
import { asc, eq } from 'drizzle-orm';
import { formatDollars } from '../../src/domain/pricing';
import { REFUND_GUARANTEE_DAYS } from '../../src/domain/refunds';
import type { OwnerNotice } from '../checkout';
import type { Database, Transaction } from '../db/client';
import { orders, outbox, owners } from '../db/schema';
import { compose } from './mailTemplates';

export const OWNER_MAIL_PREFIX = 'owner_';

/** @throws database errors: the change rolls back with it. */
export async function raiseOwnerMail(tx: Transaction, event: OwnerNotice): Promise<void> {
  const { kind, transactionId, changeId, ...details } = event;
  await tx
    .insert(outbox)
    .values({
      kind: 'mail',
      topic: `${OWNER_MAIL_PREFIX}${kind}`,
      dedupeKey: `mail:owner:${kind}:${transactionId}:${changeId}`,
      transactionId,
      payload: { ...details, changeId },
    })
    .onConflictDoNothing({ target: outbox.dedupeKey });
}

const dateTimeOf = (iso: unknown) =>
  typeof iso === 'string'
    ? new Date(iso).toLocaleString('en-US', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }) + ' UTC'
    : 'no deadline given';

/** Null when there is no owner. @throws Error when the row names no order. */
export async function renderOwnerMail(
  db: Database,
  site: string,
  row: { id: number; topic: string; transactionId: string | null; payload: Record<string, string | number | null> },
): Promise<{ to: string; subject: string; text: string; html: string } | null> {
  const recipients = await db.select({ email: owners.email }).from(owners).orderBy(asc(owners.createdAt));
  if (recipients.length === 0) return null;
  const [order] = row.transactionId ? await db.select().from(orders).where(eq(orders.transactionId, row.transactionId)) : [];
  if (!order) throw new Error(`Outbox row ${row.id} names no order`);
  const amount = formatDollars(Number(row.payload.amountCents ?? 0));
  const buyer = `${order.name ?? 'A buyer'}${order.email ? ` (${order.email})` : ''}`;
  const link: [string, string] = ['Open the order in the console', `${site}/admin/orders/${encodeURIComponent(order.transactionId)}`];
  const kind = row.topic.slice(OWNER_MAIL_PREFIX.length);
  const mail =
    kind === 'dispute_opened'
      ? compose(`A payment of ${amount} is disputed: evidence due ${dateTimeOf(row.payload.evidenceDueBy)}`, 'owner', [
          `${buyer} disputed a payment of ${amount} with their bank${row.payload.reason ? ` (reason: ${String(row.payload.reason)})` : ''}. The amount and the dispute fee are taken from the balance while the dispute is open.`,
          `Submit evidence in Stripe's Dashboard before ${dateTimeOf(row.payload.evidenceDueBy)}. The referrer's commission on this payment is held back until the dispute is decided; the buyer's seats stay meanwhile.`,
          link,
        ])
      : kind === 'dispute_won'
        ? compose(`Dispute won: ${amount} is back`, 'owner', [
            `The bank decided the dispute of ${buyer}'s payment of ${amount} for you: the money is back, and so is the referrer's commission.`,
            link,
          ])
        : kind === 'dispute_lost'
          ? compose(`Dispute lost: ${amount} is gone and the subscription has ended`, 'owner', [
              `The bank decided the dispute of ${buyer}'s payment of ${amount} for the buyer. The subscription is ended and its seats revoked; the referrer's commission on the payment is taken back.`,
              link,
            ])
          : kind === 'refund_asked'
            ? compose(`Refund asked: ${buyer} wants ${amount} back under the guarantee`, 'owner', [
                `${buyer} asked on the manage page for the ${REFUND_GUARANTEE_DAYS}-day guarantee's refund: ${amount}, everything paid that was not refunded yet.${row.payload.reason ? ` Their reason: “${String(row.payload.reason)}”.` : ''}`,
                'Their subscription is cancelled at the end of the period. The refund is yours to make: the order page has the refund form ready for the amount asked, and refunding ends the subscription at once. The buyer got a receipt of the request.',
                link,
              ])
            : compose(`A refund of ${amount} failed`, 'owner', [
                `The refund of ${amount} to ${buyer} failed (the card may be closed): the money is back in the balance and the buyer has not received it. Refund them another way, or contact them.`,
                link,
              ]);
  return { to: recipients.map((owner) => owner.email).join(', '), ...mail };
}
