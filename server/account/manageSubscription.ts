/**
 * What the buyer changes on /account, through the PaymentProvider interface, the answer run through the one lifecycle
 * (server/checkout/applyPaymentEvent.ts) under the order's row lock. Nothing here knows which provider it is.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { AccountView } from '../../src/contract/account';
import type { SandboxCard } from '../../src/contract/sandbox';
import type { Database } from '../db/client';
import { accounts, handoffTokens } from '../db/schema';
import { applyPaymentEvents, recordRefundAsk, type RefundAskRefusal } from '../checkout';
import { findOrder, isPaidOrder, type Order, type OrderContext } from '../checkout';
import { isWithinRefundGuarantee, refundableCents, refundGuaranteeEndsAt } from '../../src/domain/refunds';
import type { OperationResult, SeatChangePreview } from '../payments';
import { generatePassword, hashPassword } from '../security/password';
import { seatsInUse, seatsInUseMessage } from '../seats';

/** The route maps each to a status and a message. */
export type ManageRefusal =
  /** Or the provider refuses the change in its state. */
  | 'ended'
  | 'not_paid_up'
  /** Revoke someone first. */
  | 'seats_in_use'
  | 'card_declined'
  | 'card_invalid'
  /** The seats are as they were. */
  | 'seats_payment_declined'
  /** src/domain/proration.ts: preview again. */
  | 'seats_quote_expired';

export type ManageResult = { ok: true; order: Order } | { ok: false; refusal: ManageRefusal; message?: string };

export async function accountView(context: OrderContext, order: Order): Promise<AccountView> {
  const [account] = await context.db.select().from(accounts).where(eq(accounts.transactionId, order.transactionId));
  const details = isPaidOrder(order) || order.status === 'cancelled' ? await subscriptionDetails(context, order) : null;
  return {
    email: account?.email ?? order.email ?? '',
    name: account?.name ?? order.name ?? '',
    status: order.status,
    seats: order.quantity,
    monthlyTotalCents: order.amountCents,
    monthlyTaxCents: order.taxCents,
    currentPeriodEnd: details?.currentPeriodEnd ?? null,
    cancelAt: order.cancelAt?.toISOString() ?? null,
    cardLast4: details?.cardLast4 ?? null,
    taxState: order.taxState,
    invoices: details?.invoices ?? [],
    managedByProvider: context.provider.createPortalSession !== undefined,
    guaranteeEndsAt: order.paidAt ? refundGuaranteeEndsAt(order.paidAt).toISOString() : null,
    refundableCents: refundableCents(details?.invoices ?? []),
    refundAsked:
      order.refundAskedAt && order.refundAskedCents !== null
        ? { at: order.refundAskedAt.toISOString(), amountCents: order.refundAskedCents }
        : null,
  };
}

/** Null when it cannot be read now (the page shows '—'). */
async function subscriptionDetails(context: OrderContext, order: Order) {
  try {
    return await context.provider.retrieveSubscriptionDetails(order.subscriptionId);
  } catch (error) {
    context.log.warn({ err: error, transactionId: order.transactionId }, 'Could not read the subscription for the manage page');
    return null;
  }
}

async function settle(
  context: OrderContext,
  order: Order,
  result: OperationResult,
  refusal: ManageRefusal,
  reason?: string,
): Promise<ManageResult> {
  if (!result.ok) {
    const own = { payment_declined: 'seats_payment_declined', quote_expired: 'seats_quote_expired' } as const;
    return {
      ok: false,
      refusal: result.refusal === 'payment_declined' || result.refusal === 'quote_expired' ? own[result.refusal] : refusal,
    };
  }
  await applyPaymentEvents(
    context,
    result.events.map((event) => (reason ? { ...event, reason } : event)),
  );
  return { ok: true, order: (await findOrder(context.db, order.transactionId)) ?? order };
}

const changeKey = (order: Order, change: string) => `${order.transactionId}:${change}:${randomUUID()}`;

export async function cancelAtPeriodEnd(context: OrderContext, order: Order, reason: string | undefined): Promise<ManageResult> {
  if (!isPaidOrder(order)) return { ok: false, refusal: 'ended' };
  const result = await context.provider.scheduleCancel(order.subscriptionId, changeKey(order, 'cancel'));
  return settle(context, order, result, 'ended', reason?.trim() || undefined);
}

export async function undoCancellation(context: OrderContext, order: Order): Promise<ManageResult> {
  if (!isPaidOrder(order)) return { ok: false, refusal: 'ended' };
  if (!order.cancelAt) return { ok: true, order };
  return settle(context, order, await context.provider.undoCancel(order.subscriptionId, changeKey(order, 'undo-cancel')), 'ended');
}

/** `unreadable`: the provider could not be asked now. */
export type RefundAskOutcome = { ok: true; order: Order } | { ok: false; refusal: RefundAskRefusal | 'unreadable' };

/**
 * docs/decisions/0068: within the guarantee the subscription is cancelled at the period's end first (no renewal may
 * charge while the owner refunds), then the ask is recorded and mailed. A repeat answers the first ask.
 */
export async function askForRefund(
  context: OrderContext,
  order: Order,
  reason: string | undefined,
  now = new Date(),
): Promise<RefundAskOutcome> {
  if (order.refundAskedAt) return { ok: true, order };
  if (!order.paidAt || !isPaidOrder(order)) return { ok: false, refusal: 'ended' };
  if (!isWithinRefundGuarantee(order.paidAt, now)) return { ok: false, refusal: 'window_closed' };
  const details = await context.provider.retrieveSubscriptionDetails(order.subscriptionId);
  if (!details) return { ok: false, refusal: 'unreadable' };
  const refundable = refundableCents(details.invoices);
  if (refundable <= 0) return { ok: false, refusal: 'nothing_refundable' };
  const said = reason?.trim() || null;
  if (!order.cancelAt) {
    const cancelled = await cancelAtPeriodEnd(context, order, said ?? undefined);
    if (!cancelled.ok) return { ok: false, refusal: 'ended' };
  }
  return recordRefundAsk(context, { transactionId: order.transactionId, refundableCents: refundable, reason: said, now });
}

/** The seat floors of docs/decisions/0032. */
async function seatsRefusal(context: OrderContext, order: Order, quantity: number): Promise<Exclude<ManageResult, { ok: true }> | null> {
  if (order.status !== 'paid') return { ok: false, refusal: 'not_paid_up' };
  const inUse = await seatsInUse(context.db, order.transactionId);
  if (quantity < inUse) return { ok: false, refusal: 'seats_in_use', message: seatsInUseMessage(inUse) };
  return null;
}

/** docs/decisions/0045: the charge due now for more seats, or the credit fewer leave. */
export async function previewSeats(
  context: OrderContext,
  order: Order,
  quantity: number,
): Promise<{ ok: true; preview: SeatChangePreview } | Exclude<ManageResult, { ok: true }>> {
  const refused = await seatsRefusal(context, order, quantity);
  if (refused) return refused;
  const preview = await context.provider.previewSeatChange(order.subscriptionId, quantity);
  return preview ? { ok: true, preview } : { ok: false, refusal: 'not_paid_up' };
}

/**
 * More seats are charged now and added only once paid; fewer leave a credit (docs/decisions/0045). `prorationDate`
 * (Unix s, the preview's) charges the amount shown; an old one is refused.
 */
export async function changeSeats(context: OrderContext, order: Order, quantity: number, prorationDate?: number): Promise<ManageResult> {
  if (order.status === 'paid' && order.quantity === quantity) return { ok: true, order };
  const refused = await seatsRefusal(context, order, quantity);
  if (refused) return refused;
  return settle(
    context,
    order,
    await context.provider.changeSeats(order.subscriptionId, quantity, changeKey(order, 'seats'), prorationDate),
    'not_paid_up',
  );
}

export async function replaceCard(
  context: OrderContext,
  order: Order,
  input: { card?: SandboxCard; returnUrl: string },
): Promise<ManageResult | { ok: true; redirect: string }> {
  if (!isPaidOrder(order)) return { ok: false, refusal: 'ended' };
  const replaced = await context.provider.replaceCard({
    subscriptionId: order.subscriptionId,
    customerId: order.customerId,
    ...input,
    idempotencyKey: changeKey(order, 'card'),
  });
  switch (replaced.kind) {
    case 'redirect':
      return { ok: true, redirect: replaced.url };
    case 'declined':
      return { ok: false, refusal: 'card_declined', message: replaced.message };
    case 'invalid':
      return { ok: false, refusal: 'card_invalid', message: replaced.message };
    case 'not_allowed':
      return { ok: false, refusal: 'ended' };
    case 'replaced':
      return settle(context, order, { ok: true, events: replaced.events }, 'ended');
  }
}

/**
 * The old password stops working and any unredeemed hand-off token is revoked. Undefined when the order has no
 * account.
 */
export async function issueNewPassword(db: Database, transactionId: string): Promise<{ email: string; password: string } | undefined> {
  const password = generatePassword();
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx) => {
    const [account] = await tx
      .update(accounts)
      .set({ passwordHash, passwordCiphertext: null, credentialsIssuedAt: new Date() })
      .where(eq(accounts.transactionId, transactionId))
      .returning({ email: accounts.email });
    if (!account) return undefined;
    await tx
      .update(handoffTokens)
      .set({ revokedAt: sql`now()`, tokenCiphertext: null })
      .where(
        and(
          eq(handoffTokens.transactionId, transactionId),
          isNull(handoffTokens.seatId), // the buyer's tokens only: the team members' are theirs
          isNull(handoffTokens.redeemedAt),
          isNull(handoffTokens.revokedAt),
        ),
      );
    return { email: account.email, password };
  });
}
