/** The Stripe flow, offline, in the sandbox_* tables so any server process can serve any call. Integer cents. */
import { and, eq, ne, sql } from 'drizzle-orm';
import { monthlyTotalCents } from '../../../src/domain/pricing';
import { normalizeTaxLocation, placeZip, taxCents, type TaxRegistration } from '../../../src/domain/tax';
import { sandboxDispute } from './disputes';
import type { Database } from '../../db/client';
import { sandboxCustomers, sandboxInvoices, sandboxSubscriptions } from '../../db/schema';
import { randomAlphanumeric } from '../../security/randomText';
import type { InvoiceState, PaymentProvider, SubscriptionPayment, SubscriptionState } from '../provider';
import {
  firstInvoiceId,
  latestRenewalInvoice,
  SANDBOX_NOW,
  refundSandboxPayments,
  sandboxRefundedPayment,
  sandboxSubscriptionDetails,
  setSandboxCancelAtPeriodEnd,
  endSandboxSubscription,
  updateSandboxCard,
} from './billing';
import { changeSandboxSeats, previewSandboxSeatChange } from './seatChanges';
import { checkSandboxCard, DECLINE_MESSAGES } from './cards';
import { sandboxRoutes } from './routes';

/** A request the sandbox refuses, as Stripe would (unknown id, idempotency key reused with other parameters). */
class SandboxError extends Error {
  override name = 'SandboxError';
}

const sandboxId = (prefix: string) => `${prefix}_sbx_${randomAlphanumeric(16)}`;

/** Taxes for the owner's `registrations` (SANDBOX_TAX_RATES, docs/decisions/0070) as Stripe Tax would. */
export function createSandboxProvider(db: Database, registrations: readonly TaxRegistration[]): PaymentProvider {
  /** The rate for a customer placed in `state`, in millionths; 0 where the business is not registered. */
  const rateIn = (state: string | null) => registrations.find((registration) => registration.state === state)?.rateMillionths ?? 0;
  /** The customer's placed state and its rate (Stripe Tax reads the customer's address). */
  const customerTax = async (customerId: string) => {
    const [customer] = await db
      .select({ taxState: sandboxCustomers.taxState })
      .from(sandboxCustomers)
      .where(eq(sandboxCustomers.id, customerId));
    if (!customer) throw new SandboxError(`No such customer: ${customerId}`);
    return { state: customer.taxState, rateMillionths: rateIn(customer.taxState) };
  };
  return {
    name: 'sandbox',
    clock: SANDBOX_NOW,

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

    async createSubscription({ transactionId, customerId, quantity, referrer, automaticTax = false, idempotencyKey }) {
      const paymentIntentId = sandboxId('pi');
      const subtotalCents = monthlyTotalCents(quantity);
      const tax = automaticTax ? await customerTax(customerId) : { state: null, rateMillionths: 0 };
      const firstTaxCents = taxCents(subtotalCents, tax.rateMillionths);
      const [created] = await db
        .insert(sandboxSubscriptions)
        .values({
          id: sandboxId('sub'),
          customerId,
          itemId: sandboxId('si'),
          transactionId,
          quantity,
          amountDueCents: subtotalCents + firstTaxCents,
          automaticTax,
          taxState: automaticTax ? tax.state : null,
          taxRateMillionths: tax.rateMillionths,
          taxCents: firstTaxCents,
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
      if (
        !row ||
        row.customerId !== customerId ||
        row.quantity !== quantity ||
        row.transactionId !== transactionId ||
        row.automaticTax !== automaticTax
      ) {
        throw new SandboxError(`Idempotency key ${idempotencyKey} was used with other parameters`);
      }
      return {
        subscriptionId: row.id,
        subscriptionItemId: row.itemId,
        clientSecret: row.clientSecret,
        paymentIntentId: row.paymentIntentId,
        subtotalCents: row.amountDueCents - row.taxCents,
        taxCents: row.taxCents,
      };
    },

    /** Places a US ZIP by its prefix (src/domain/tax.ts); one the USPS does not use is not placeable, as at Stripe. */
    async setCustomerLocation(customerId, location) {
      const { country, postalCode } = normalizeTaxLocation(location);
      const place = country === 'US' ? placeZip(postalCode) : 'elsewhere';
      if (place === 'unplaced') return { kind: 'not_placeable' };
      const taxState = place === 'elsewhere' ? null : place;
      const updated = await db
        .update(sandboxCustomers)
        .set({ addressCountry: country, addressPostalCode: postalCode, taxState })
        .where(eq(sandboxCustomers.id, customerId))
        .returning({ id: sandboxCustomers.id });
      if (updated.length === 0) throw new SandboxError(`No such customer: ${customerId}`);
      return { kind: 'placed', state: taxState };
    },

    async previewTax(customerId, quantity) {
      const subtotalCents = monthlyTotalCents(quantity);
      const { rateMillionths } = await customerTax(customerId);
      return { subtotalCents, taxCents: taxCents(subtotalCents, rateMillionths) };
    },

    /** One guarded UPDATE, so a racing confirmation either pays first ('paid') or finds the intent cancelled. */
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
      const firstInvoice = {
        invoiceId: firstInvoiceId(row.id),
        state: invoiceState(row.paymentStatus, row.status),
        amountPaidCents: row.amountPaidCents,
        totalExcludingTaxCents: row.amountDueCents - row.taxCents,
        taxCents: row.taxCents,
        currency: 'usd',
      };
      const renewal = await latestRenewalInvoice(db, row.id);
      return {
        subscriptionId: row.id,
        customerId: row.customerId,
        quantity: row.quantity,
        state: row.status satisfies SubscriptionState,
        firstInvoice,
        transactionId: row.transactionId,
        lifecycle: {
          currentPeriodEnd: row.currentPeriodEnd?.toISOString() ?? null,
          cancelAt: row.cancelAtPeriodEnd && row.currentPeriodEnd ? row.currentPeriodEnd.toISOString() : null,
          // The monthly amount due is the seats and their tax (a seat change keeps it so, ./seatChanges.ts).
          monthlyTaxCents: row.amountDueCents - monthlyTotalCents(row.quantity),
          // A renewal's payment is its invoice (the sandbox refunds and disputes it by that id), the first's its PaymentIntent.
          latestInvoice: renewal
            ? {
                invoiceId: renewal.id,
                state: renewal.status,
                amountDueCents: renewal.amountCents,
                amountPaidCents: renewal.status === 'paid' ? renewal.amountCents : 0,
                taxCents: renewal.taxCents,
                paymentId: renewal.status === 'paid' ? renewal.id : null,
                renewal: renewal.billingReason === 'subscription_cycle',
                proration: renewal.billingReason === 'subscription_update',
              }
            : {
                invoiceId: firstInvoice.invoiceId,
                state: firstInvoice.state,
                amountDueCents: row.amountDueCents,
                amountPaidCents: row.amountPaidCents,
                taxCents: row.taxCents,
                paymentId: row.amountPaidCents > 0 ? row.paymentIntentId : null,
                renewal: false,
              },
        },
      };
    },

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

    routes: sandboxRoutes,

    retrieveSubscriptionDetails: (subscriptionId) => sandboxSubscriptionDetails(db, subscriptionId),
    scheduleCancel: (subscriptionId, idempotencyKey) => setSandboxCancelAtPeriodEnd(db, subscriptionId, true, idempotencyKey),
    undoCancel: (subscriptionId, idempotencyKey) => setSandboxCancelAtPeriodEnd(db, subscriptionId, false, idempotencyKey),
    endNow: (subscriptionId) => endSandboxSubscription(db, subscriptionId),
    changeSeats: (subscriptionId, quantity, idempotencyKey, prorationDate) =>
      changeSandboxSeats(db, subscriptionId, quantity, idempotencyKey, prorationDate),
    previewSeatChange: (subscriptionId, quantity) => previewSandboxSeatChange(db, subscriptionId, quantity),

    /** Verifies the card as Stripe's SetupIntent would (a decline changes nothing), then charges an unpaid renewal. */
    async replaceCard({ subscriptionId, card }) {
      if (!card) return { kind: 'invalid', message: 'Please enter your card.' };
      const checked = checkSandboxCard(card);
      if (!checked.ok) return { kind: 'invalid', message: checked.message };
      if (checked.behaviour === 'declined' || checked.behaviour === 'insufficient_funds') {
        return { kind: 'declined', message: DECLINE_MESSAGES[checked.behaviour] };
      }
      const behaviour = checked.behaviour === 'requires_authentication' ? 'succeeds' : checked.behaviour;
      const events = await updateSandboxCard(db, subscriptionId, { behaviour, last4: checked.last4 });
      return events ? { kind: 'replaced', events } : { kind: 'not_allowed' };
    },

    refund: (input) => refundSandboxPayments(db, input),
    retrieveRefundedPayment: (paymentId) => sandboxRefundedPayment(db, paymentId),
    retrieveDispute: (disputeId) => sandboxDispute(db, disputeId),

    /** A paid checkout without its order is kept, for an operator to see. */
    async deleteAbandonedRecords(retentionDays) {
      const cutoff = sql`now() - make_interval(days => ${retentionDays})`;
      return db.transaction(async (tx) => {
        const unpaidWithoutOrder = and(
          ne(sandboxSubscriptions.status, 'active'),
          eq(sandboxSubscriptions.amountPaidCents, 0),
          sql`${sandboxSubscriptions.createdAt} < ${cutoff}`,
          sql`not exists (select 1 from orders where orders.transaction_id = ${sandboxSubscriptions.transactionId})`,
        );
        await tx
          .delete(sandboxInvoices)
          .where(sql`${sandboxInvoices.subscriptionId} in (select id from sandbox_subscriptions where ${unpaidWithoutOrder})`);
        const subscriptions = await tx.delete(sandboxSubscriptions).where(unpaidWithoutOrder).returning({ id: sandboxSubscriptions.id });
        const customers = await tx
          .delete(sandboxCustomers)
          .where(
            and(
              sql`${sandboxCustomers.createdAt} < ${cutoff}`,
              sql`not exists (select 1 from sandbox_subscriptions where sandbox_subscriptions.customer_id = ${sandboxCustomers.id})`,
            ),
          )
          .returning({ id: sandboxCustomers.id });
        return { sandboxSubscriptions: subscriptions.length, sandboxCustomers: customers.length };
      });
    },
  };
}

/** The first invoice's state: paid once its PaymentIntent succeeded; void when cancelled unpaid; else open. */
function invoiceState(paymentStatus: string, status: string): InvoiceState {
  if (paymentStatus === 'succeeded') return 'paid';
  return status === 'canceled' ? 'void' : 'open';
}
