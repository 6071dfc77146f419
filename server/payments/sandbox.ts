/**
 * The sandbox payment provider (architecture.md, "Payment providers"): the Stripe flow, offline, kept in the
 * sandbox_* tables so that any server process can serve any call. Ids look like Stripe's with a sandbox marker
 * (cus_sbx_…, sub_sbx_…, si_sbx_…, pi_sbx_…). The buyer pays through the sandbox confirmation routes
 * (server/routes/sandboxConfirm.ts and sandboxAuthenticate.ts, rules in ./sandboxIntents.ts). Money is integer cents.
 */
import { and, eq, ne } from 'drizzle-orm';
import { monthlyTotalCents } from '../../src/domain/pricing';
import type { Database } from '../db/client';
import { sandboxCustomers, sandboxSubscriptions } from '../db/schema';
import { randomAlphanumeric } from '../security/randomText';
import type { InvoiceState, PaymentProvider, SubscriptionPayment, SubscriptionState } from './provider';

/** A request the sandbox refuses, as Stripe would (unknown id, idempotency key reused with other parameters). */
class SandboxError extends Error {
  override name = 'SandboxError';
}

const sandboxId = (prefix: string) => `${prefix}_sbx_${randomAlphanumeric(16)}`;

/** The sandbox provider on `db`. */
export function createSandboxProvider(db: Database): PaymentProvider {
  return {
    name: 'sandbox',

    async createCustomer({ transactionId, affiliateId, affiliateSource, referrer, idempotencyKey }) {
      const metadata = { transactionId, affiliateId, affiliateSource, ...(referrer ? { referrer } : {}) };
      // One statement on the first call; a repeat (conflict: nothing returned) reads the row it made.
      const [created] = await db
        .insert(sandboxCustomers)
        .values({ id: sandboxId('cus'), idempotencyKey, metadata })
        .onConflictDoNothing({ target: sandboxCustomers.idempotencyKey })
        .returning();
      const [customer] = created
        ? [created]
        : await db.select().from(sandboxCustomers).where(eq(sandboxCustomers.idempotencyKey, idempotencyKey));
      if (!customer || customer.metadata.transactionId !== transactionId) {
        throw new SandboxError(`Idempotency key ${idempotencyKey} was used with other parameters`);
      }
      return { customerId: customer.id };
    },

    async createSubscription({ transactionId, customerId, quantity, referrer, idempotencyKey }) {
      const paymentIntentId = sandboxId('pi');
      const [created] = await db
        .insert(sandboxSubscriptions)
        .values({
          id: sandboxId('sub'),
          customerId,
          itemId: sandboxId('si'),
          transactionId,
          quantity,
          amountDueCents: monthlyTotalCents(quantity),
          referrer: referrer ?? null,
          paymentIntentId,
          clientSecret: `${paymentIntentId}_secret_${randomAlphanumeric(24)}`,
          idempotencyKey,
        })
        .onConflictDoNothing({ target: sandboxSubscriptions.idempotencyKey })
        .returning();
      const [row] = created
        ? [created]
        : await db.select().from(sandboxSubscriptions).where(eq(sandboxSubscriptions.idempotencyKey, idempotencyKey));
      if (!row || row.customerId !== customerId || row.quantity !== quantity || row.transactionId !== transactionId) {
        throw new SandboxError(`Idempotency key ${idempotencyKey} was used with other parameters`);
      }
      return {
        subscriptionId: row.id,
        subscriptionItemId: row.itemId,
        clientSecret: row.clientSecret,
        paymentIntentId: row.paymentIntentId,
      };
    },

    /**
     * Cancels an unpaid subscription and its PaymentIntent in one guarded UPDATE, so a confirmation racing it
     * either pays first (then 'paid', nothing cancelled) or finds the intent cancelled. A cancelled or unknown
     * subscription answers 'cancelled', as at Stripe.
     */
    async cancelUnpaidSubscription(subscriptionId) {
      const cancelled = await db
        .update(sandboxSubscriptions)
        .set({ status: 'canceled', paymentStatus: 'canceled', updatedAt: new Date() })
        .where(and(eq(sandboxSubscriptions.id, subscriptionId), ne(sandboxSubscriptions.status, 'active')))
        .returning({ id: sandboxSubscriptions.id });
      if (cancelled.length > 0) return 'cancelled';
      const [row] = await db
        .select({ status: sandboxSubscriptions.status })
        .from(sandboxSubscriptions)
        .where(eq(sandboxSubscriptions.id, subscriptionId));
      return row?.status === 'active' ? 'paid' : 'cancelled';
    },

    async retrieveSubscriptionPayment(subscriptionId): Promise<SubscriptionPayment | null> {
      const [row] = await db.select().from(sandboxSubscriptions).where(eq(sandboxSubscriptions.id, subscriptionId));
      if (!row) return null;
      return {
        subscriptionId: row.id,
        customerId: row.customerId,
        quantity: row.quantity,
        state: row.status satisfies SubscriptionState,
        firstInvoice: {
          invoiceId: row.id.replace(/^sub_/, 'in_'),
          state: invoiceState(row.paymentStatus, row.status),
          amountPaidCents: row.amountPaidCents,
          currency: 'usd',
        },
        transactionId: row.transactionId,
      };
    },

    /** The billing details stored by the last accepted sandbox confirmation of this PaymentIntent. */
    async retrievePaymentBuyer(paymentIntentId) {
      const [row] = await db
        .select({ name: sandboxSubscriptions.billingName, email: sandboxSubscriptions.billingEmail })
        .from(sandboxSubscriptions)
        .where(eq(sandboxSubscriptions.paymentIntentId, paymentIntentId));
      return row ?? null;
    },

    async updateCustomer(customerId, { email, name }) {
      const updated = await db
        .update(sandboxCustomers)
        .set({ email, name })
        .where(eq(sandboxCustomers.id, customerId))
        .returning({ id: sandboxCustomers.id });
      if (updated.length === 0) throw new SandboxError(`No such customer: ${customerId}`);
    },
  };
}

/** The first invoice's state: paid once its PaymentIntent succeeded; void when cancelled unpaid; else open. */
function invoiceState(paymentStatus: string, status: string): InvoiceState {
  if (paymentStatus === 'succeeded') return 'paid';
  return status === 'canceled' ? 'void' : 'open';
}
