/**
 * What the lifecycle announces about an order; each feature hands its listener in at app assembly. Listeners run
 * inside the change's transaction, one after another: their writes commit with it, and an error rolls it back.
 */
import type { SQL } from 'drizzle-orm';
import type { Transaction } from '../db/client';
import type { orders } from '../db/schema';

type Order = typeof orders.$inferSelect;

export type OrderEvent =
  | { kind: 'activated'; transactionId: string }
  // Amounts in cents, tax included (a seat change's: the monthly amount before tax); `taxCents` the tax in it.
  | { kind: 'renewal_paid'; transactionId: string; invoiceId: string; amountCents: number; taxCents: number; recovered: boolean }
  | { kind: 'payment_failed'; transactionId: string; invoiceId: string; amountCents: number; taxCents: number }
  | { kind: 'proration_paid'; transactionId: string; invoiceId: string; amountCents: number; taxCents: number; seats: number }
  | { kind: 'seats_changed'; transactionId: string; changeId: string; from: number; to: number; amountCents: number; taxCents: number }
  | { kind: 'cancel_scheduled'; transactionId: string; changeId: string; cancelAt: string }
  | { kind: 'cancel_undone'; transactionId: string; changeId: string; undoneAt: string }
  | { kind: 'cancelled'; transactionId: string; cancelledAt: string }
  // This refund's amount, tax included, and its tax share (docs/decisions/0074).
  | {
      kind: 'refunded';
      transactionId: string;
      changeId: string;
      amountCents: number;
      taxCents: number;
      subscription: 'ended' | 'continues';
    }
  | { kind: 'refund_asked'; transactionId: string; amountCents: number };

/** `changeId` tells one occurrence from another. */
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
  | { kind: 'refund_asked'; transactionId: string; changeId: string; amountCents: number; reason: string | null };

/** Amounts in cents. */
export interface PaidInvoice {
  invoiceId: string;
  /** Stripe: the PaymentIntent; sandbox: the PaymentIntent or the invoice. */
  paymentId: string | null;
  amountCents: number;
  seats: number;
}

export interface MoneyChanges {
  /** Cents, tax included. */
  paidRenewal?: { invoiceId: string; paymentId: string | null; amountCents: number; taxCents: number };
  paidProration?: { invoiceId: string; paymentId: string | null; amountCents: number; taxCents: number; seats: number };
  seats?: { from: number; to: number };
  moneyMoved: { paymentId: string; why: string }[];
}

export interface OrderAnnouncements {
  orderEvent: OrderEvent;
  ownerNotice: OwnerNotice;
  /** `clock` undefined: the database's. */
  firstPaid: { order: Order; invoice: PaidInvoice; clock: SQL | undefined };
  teamChanged: { order: Order; ended: boolean; seats?: { from: number; to: number }; changeId: string };
  moneyChanged: { order: Order; changes: MoneyChanges; clock: SQL | undefined; changeId: string };
  /** In place of credentials (docs/decisions/0026). */
  signInLinkWanted: { transactionId: string };
}

export interface RetentionPeriod {
  retentionDays: number;
}

/** Rows deleted, by name, in the sweep's transaction. @throws to roll the whole sweep back. */
export type ExpiredRecordsSweep = (tx: Transaction, period: RetentionPeriod) => Promise<Record<string, number>>;

/** @throws to roll the change back. */
export type OrderListener = AnnouncementListener & { sweepExpired?: ExpiredRecordsSweep };

type AnnouncementListener = {
  [K in keyof OrderAnnouncements]?: (tx: Transaction, announcement: OrderAnnouncements[K]) => Promise<void>;
};

export interface OrderListeners {
  /** @throws the first listener's error (the caller's transaction rolls back). */
  announce<K extends keyof OrderAnnouncements>(tx: Transaction, kind: K, announcement: OrderAnnouncements[K]): Promise<void>;
  /** @throws the first part's error (the sweep rolls back). */
  sweepExpired(tx: Transaction, period: RetentionPeriod): Promise<Record<string, number>>;
}

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
