/**
 * What the one lifecycle announces about an order, and who hears it (architecture.md, feature order 3-4). The
 * checkout names each change it makes (paid, renewed, seats changed, cancelled, refunded, disputed, ended) and
 * knows no feature that reacts to it: the outbox, commissions, seats and the account each hand their listener in
 * when the app is put together (server/app.ts), a parameter, not a registration order. The retention sweep asks
 * them the same way for what each keeps past its time (sent mail, spent links, the sign-in's expired records).
 *
 * An announcement is made inside the transaction that makes the change, and each listener runs in it, one after
 * another in the order they were given: what a listener writes commits with the change, and its error rolls the
 * change back (money and seats stay atomic, as before).
 */
import type { SQL } from 'drizzle-orm';
import type { Transaction } from '../db/client';
import type { orders } from '../db/schema';

/** An order's row (./order.ts's Order, which holds these listeners in its context). */
type Order = typeof orders.$inferSelect;

/** An order's event the buyer and the agreement site hear about: its kind, and what its mail or webhook says. */
export type OrderEvent =
  | { kind: 'activated'; transactionId: string }
  // Amounts in cents: `amountCents` what was paid or due, tax included, `taxCents` the tax in it; for a seat change
  // the new monthly amount before tax and its monthly tax.
  | { kind: 'renewal_paid'; transactionId: string; invoiceId: string; amountCents: number; taxCents: number; recovered: boolean }
  | { kind: 'payment_failed'; transactionId: string; invoiceId: string; amountCents: number; taxCents: number }
  | { kind: 'proration_paid'; transactionId: string; invoiceId: string; amountCents: number; taxCents: number; seats: number }
  | { kind: 'seats_changed'; transactionId: string; changeId: string; from: number; to: number; amountCents: number; taxCents: number }
  | { kind: 'cancel_scheduled'; transactionId: string; changeId: string; cancelAt: string }
  | { kind: 'cancel_undone'; transactionId: string; changeId: string; undoneAt: string }
  | { kind: 'cancelled'; transactionId: string; cancelledAt: string }
  | { kind: 'refunded'; transactionId: string; changeId: string; amountCents: number; subscription: 'ended' | 'continues' }
  /** The buyer asked for the guarantee's refund of `amountCents` (./refundAsk.ts): their receipt of the ask. */
  | { kind: 'refund_asked'; transactionId: string; amountCents: number };

/** Something the owners hear about at once. `changeId` tells one occurrence from another (the dispute, the event). */
export type OwnerNotice =
  | {
      kind: 'dispute_opened' | 'dispute_won' | 'dispute_lost';
      transactionId: string;
      changeId: string;
      amountCents: number;
      evidenceDueBy: string | null;
      reason: string | null;
    }
  | { kind: 'refund_failed'; transactionId: string; changeId: string; amountCents: number }
  /** The buyer asked for the guarantee's refund of `amountCents` (./refundAsk.ts); the owner refunds it. */
  | { kind: 'refund_asked'; transactionId: string; changeId: string; amountCents: number; reason: string | null };

/** One paid invoice: the provider's ids, its paid amount in cents and its seats. */
export interface PaidInvoice {
  invoiceId: string;
  /** The payment a refund of it will name (Stripe: the PaymentIntent; sandbox: the PaymentIntent or the invoice). */
  paymentId: string | null;
  amountCents: number;
  seats: number;
}

/** What the lifecycle changed on a paid order, as far as money and seats go (a part of its LifecycleChanges). */
export interface MoneyChanges {
  /** `amountCents` what was paid, tax included; `taxCents` the tax in it. */
  paidRenewal?: { invoiceId: string; paymentId: string | null; amountCents: number; taxCents: number };
  paidProration?: { invoiceId: string; paymentId: string | null; amountCents: number; taxCents: number; seats: number };
  seats?: { from: number; to: number };
  /** Payments whose money went back or came back (a refund, a failed refund, a dispute opened, won or lost). */
  moneyMoved: { paymentId: string; why: string }[];
}

/** Each announcement by name, with what it carries. */
export interface OrderAnnouncements {
  /** An order event: its mail and webhook. */
  orderEvent: OrderEvent;
  /** A dispute, a failed refund or a buyer's refund ask: the owners' mail. */
  ownerNotice: OwnerNotice;
  /** The order's first invoice is paid; `clock` is the provider's billing clock (undefined: the database's). */
  firstPaid: { order: Order; invoice: PaidInvoice; clock: SQL | undefined };
  /** The subscription ended or its seats changed: the team follows. `changeId` names the provider event. */
  teamChanged: { order: Order; ended: boolean; seats?: { from: number; to: number }; changeId: string };
  /** Everything the lifecycle changed on the order, last, with the payments whose money moved. */
  moneyChanged: { order: Order; changes: MoneyChanges; clock: SQL | undefined; changeId: string };
  /** A finalize answered no credentials: the buyer is mailed a sign-in link instead (docs/decisions/0026). */
  signInLinkWanted: { transactionId: string };
}

/** How long the retention sweep keeps what is done with (RETENTION_DAYS, or a script's own). */
export interface RetentionPeriod {
  retentionDays: number;
}

/**
 * What a later feature deletes of its own in the retention sweep (./retention.ts), in the sweep's transaction: rows
 * deleted, by the name the sweep's report gives them (`oidcRecords`, `outbox`, `accountLinks`, `partnerLinks`).
 * @throws to roll the whole sweep back.
 */
export type ExpiredRecordsSweep = (tx: Transaction, period: RetentionPeriod) => Promise<Record<string, number>>;

/**
 * What a feature hears: a listener for any announcements it cares about, and its part of the retention sweep.
 * @throws to roll the change back.
 */
export type OrderListener = AnnouncementListener & { sweepExpired?: ExpiredRecordsSweep };

/** A listener for any announcements a feature cares about. */
type AnnouncementListener = {
  [K in keyof OrderAnnouncements]?: (tx: Transaction, announcement: OrderAnnouncements[K]) => Promise<void>;
};

/** The listeners the lifecycle announces to. */
export interface OrderListeners {
  /**
   * Runs every listener of `kind` in `tx`, one after another.
   * @throws the first listener's error (the caller's transaction rolls back).
   */
  announce<K extends keyof OrderAnnouncements>(tx: Transaction, kind: K, announcement: OrderAnnouncements[K]): Promise<void>;
  /**
   * Runs every feature's part of the retention sweep in `tx`, one after another: the rows each deleted, by name.
   * @throws the first part's error (the sweep rolls back).
   */
  sweepExpired(tx: Transaction, period: RetentionPeriod): Promise<Record<string, number>>;
}

/** The listeners of `features`, each announcement heard in the order the features are given. */
export function orderListeners(features: OrderListener[]): OrderListeners {
  return {
    async announce(tx, kind, announcement) {
      for (const feature of features) {
        const heard: AnnouncementListener = feature;
        await heard[kind]?.(tx, announcement);
      }
    },
    async sweepExpired(tx, period) {
      const deleted: Record<string, number> = {};
      for (const feature of features) Object.assign(deleted, await feature.sweepExpired?.(tx, period));
      return deleted;
    },
  };
}
