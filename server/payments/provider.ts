/**
 * The provider-neutral payment interface, before the purchase and after it: the sandbox and Stripe implement it; the
 * routes and the order speak only to this. Cents. Every call that changes money takes an idempotency key from the
 * transaction and the step (style.md; Stripe "Idempotent requests").
 */

import type { SQL } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyPluginAsync } from 'fastify';
import type { SandboxCard } from '../../src/contract/sandbox';
import type { Config } from '../config';
import type { Database } from '../db/client';
import type { PageHosts } from '../http/securityHeaders';
import type { WebhookStatus } from '../http/routes/health';
import type { CredentialsCipher } from '../security/credentialsCipher';

export type ProviderName = 'sandbox' | 'stripe';

/** Anything unmapped is 'not_supported'; service stops in `unpaid` and `paused` (Stripe, "Subscription statuses"). */
export type SubscriptionState = 'incomplete' | 'active' | 'past_due' | 'unpaid' | 'paused' | 'canceled' | 'not_supported';

export type InvoiceState = 'draft' | 'open' | 'paid' | 'void' | 'uncollectible' | 'not_supported';

export interface CreateCustomerInput {
  transactionId: string;
  affiliateId: string;
  affiliateSource: string;
  referrer?: string;
  idempotencyKey: string;
}

export interface CreateSubscriptionInput {
  transactionId: string;
  customerId: string;
  quantity: number;
  /** Stripe `automatic_tax`, the Price `tax_behavior: 'exclusive'`; only once setCustomerLocation placed the customer. */
  automaticTax?: boolean;
  referrer?: string;
  idempotencyKey: string;
}

export interface CreatedSubscription {
  subscriptionId: string;
  subscriptionItemId: string;
  clientSecret: string;
  paymentIntentId: string | null;
  /** Stripe `total_excluding_tax` */
  subtotalCents: number;
  /** Stripe: the sum of `total_taxes` */
  taxCents: number;
}

/** A US state, null for a place with no state of ours, or 'not_placeable' (Stripe `customer_tax_location_invalid`). */
export type TaxPlacement = { kind: 'placed'; state: string | null } | { kind: 'not_placeable' };

/** A month of `quantity` seats for the customer's location, in cents. */
export interface TaxQuote {
  subtotalCents: number;
  taxCents: number;
}

export interface SubscriptionPayment {
  subscriptionId: string;
  customerId: string;
  quantity: number;
  state: SubscriptionState;
  firstInvoice: {
    invoiceId: string;
    state: InvoiceState;
    amountPaidCents: number;
    totalExcludingTaxCents: number;
    taxCents: number;
    currency: string;
  } | null;
  /** Null when the object is not ours. */
  transactionId: string | null;
  /** After the purchase; the one lifecycle compares it with the order. */
  lifecycle: {
    currentPeriodEnd: string | null;
    /** Stripe's `cancel_at` (the Portal in flexible billing mode sets only it), else the period's end. */
    cancelAt: string | null;
    /** Stripe's Customer Portal: `cancellation_details.comment`, else its `feedback` in words. */
    cancellationReason?: string | null;
    /** The next monthly invoice's tax at the current seats, in cents (Stripe: `invoices.createPreview`); 0 untaxed. */
    monthlyTaxCents: number;
    latestInvoice: {
      invoiceId: string;
      state: InvoiceState;
      amountDueCents: number;
      amountPaidCents: number;
      /** Commissions are on what was paid less this. */
      taxCents: number;
      /** Stripe: the PaymentIntent in `invoice.payments` (API 2025-03-31.basil on); null while unpaid. */
      paymentId: string | null;
      renewal: boolean;
      /** Stripe `billing_reason: 'subscription_update'`; docs/decisions/0045. */
      proration?: boolean;
    } | null;
  };
}

/** Stripe: the PaymentIntent's payment method `billing_details`. */
export interface PaymentBuyer {
  name: string | null;
  email: string | null;
}

export interface PortalSessionInput {
  customerId: string;
  subscriptionId: string;
  flow: 'home' | 'cancel' | 'seats' | 'card';
  returnUrl: string;
  /** A retry of the same request reuses its session. */
  idempotencyKey: string;
}

export interface RefundedPayment {
  /** Stripe: the PaymentIntent; sandbox: the invoice. */
  paymentId: string;
  /** Tax included. */
  amountCents: number;
  /** The tax in `amountCents` (0 untaxed): a refund returns its share (src/domain/tax.ts refundedTaxCents). */
  taxCents: number;
  refundedCents: number;
  /** Open or lost (Stripe: `charge_disputed`). */
  disputeHolds: boolean;
}

/** Stripe, "The Dispute object": the money is taken when it opens and comes back only if won. */
export interface ProviderDispute {
  disputeId: string;
  paymentId: string;
  customerId: string | null;
  amountCents: number;
  status: string;
  /** Won: Stripe's `won` or `warning_closed`. */
  outcome: 'open' | 'won' | 'lost';
  reason: string | null;
  /** `evidence_details.due_by`; null when none is asked. */
  evidenceDueBy: string | null;
}

export interface SubscriptionDetails {
  currentPeriodEnd: string | null;
  cardLast4: string | null;
  invoices: ListedInvoice[];
}

/** Refunded in full reads 'refunded', in part 'partially_refunded'. */
export interface ListedInvoice {
  id: string;
  amountCents: number;
  taxCents: number;
  status: 'paid' | 'open' | 'uncollectible' | 'refunded' | 'partially_refunded';
  refundedCents: number;
  date: string;
}

export function paidInvoiceStatus(amountCents: number, refundedCents: number): ListedInvoice['status'] {
  if (refundedCents <= 0) return 'paid';
  return refundedCents >= amountCents ? 'refunded' : 'partially_refunded';
}

/** docs/decisions/0045, before the buyer confirms. Cents. */
export interface SeatChangePreview {
  quantity: number;
  /** Charged now if confirmed, tax included; 0 for the free second seat or a decrease. */
  amountDueNowCents: number;
  /** The tax in it (docs/decisions/0072: a proration is taxed on its own amount). */
  taxDueNowCents: number;
  /** A decrease's unused time. */
  creditCents: number;
  /** From the next renewal, before tax. */
  monthlyTotalCents: number;
  /** The monthly tax on it from the next renewal; 0 untaxed. */
  monthlyTaxCents: number;
  nextChargeDate: string | null;
  /** Stripe's `proration_date`: `changeSeats` charges it as quoted. */
  prorationDate: number;
}

export type CardReplacement =
  /** `events`: the charges it made at once (an unpaid renewal). */
  | { kind: 'replaced'; events: PaymentEvent[] }
  /** Stripe: a SetupIntent's decline. */
  | { kind: 'declined'; message: string }
  | { kind: 'invalid'; message: string }
  | { kind: 'not_allowed' }
  | { kind: 'redirect'; url: string };

export type OperationRefusal =
  | 'not_allowed'
  | 'amount_too_high'
  | 'payment_declined'
  /** SEAT_QUOTE_SECONDS, src/domain/proration.ts. */
  | 'quote_expired';

export type OperationResult = { ok: true; events: PaymentEvent[] } | { ok: false; refusal: OperationRefusal };

export interface PaymentProvider {
  readonly name: ProviderName;
  createCustomer(input: CreateCustomerInput): Promise<{ customerId: string }>;
  createSubscription(input: CreateSubscriptionInput): Promise<CreatedSubscription>;
  /**
   * Voids the open first invoice first (Stripe voids only an open one, so a paid one refuses), then cancels. 'paid'
   * changes nothing: cancelling would keep the money and end the service. @throws on provider failure.
   */
  cancelUnpaidSubscription(subscriptionId: string, idempotencyKey: string): Promise<'cancelled' | 'paid'>;
  /** Null for an unknown id. */
  retrieveSubscriptionPayment(subscriptionId: string): Promise<SubscriptionPayment | null>;
  /** For a webhook or a 3-D Secure return the browser did not finalize. Null for an unknown id. */
  retrievePaymentBuyer(paymentIntentId: string): Promise<PaymentBuyer | null>;
  /** Stripe: `customers.update` with `tax.validate_location: 'immediately'`. @throws on provider failure. */
  setCustomerLocation(customerId: string, location: { country: string; postalCode: string }, idempotencyKey: string): Promise<TaxPlacement>;
  /** Stripe: `invoices.createPreview` with `automatic_tax`. @throws on provider failure. */
  previewTax(customerId: string, quantity: number): Promise<TaxQuote>;
  updateCustomer(customerId: string, details: { email: string; name: string }, idempotencyKey: string): Promise<void>;

  // After the purchase: each change answers its PaymentEvents, which the caller runs through the lifecycle at once
  // (the provider's webhook later finds nothing left to do). Each @throws on provider failure.

  retrieveSubscriptionDetails(subscriptionId: string): Promise<SubscriptionDetails | null>;
  scheduleCancel(subscriptionId: string, idempotencyKey: string): Promise<OperationResult>;
  endNow(subscriptionId: string, idempotencyKey: string): Promise<OperationResult>;
  undoCancel(subscriptionId: string, idempotencyKey: string): Promise<OperationResult>;
  /**
   * docs/decisions/0045: an increase is charged at once and applied only when paid (Stripe: `always_invoice`,
   * `pending_if_incomplete`); a decrease credits the next invoice. `prorationDate` prorates as quoted.
   */
  changeSeats(subscriptionId: string, quantity: number, idempotencyKey: string, prorationDate?: number): Promise<OperationResult>;
  /** Null for an unknown subscription or one whose seats cannot change. */
  previewSeatChange(subscriptionId: string, quantity: number): Promise<SeatChangePreview | null>;
  replaceCard(input: ReplaceCardInput): Promise<CardReplacement>;
  /** Newest payments first; `endNow` ends the subscription at once. */
  refund(input: RefundInput): Promise<OperationResult>;
  retrieveRefundedPayment(paymentId: string): Promise<RefundedPayment | null>;
  /** Events arrive out of order, so the dispute is read as it is now. */
  retrieveDispute(disputeId: string): Promise<ProviderDispute | null>;
  /** Stripe only (`flow_data` deep links); the sandbox's manage page does the same itself. */
  createPortalSession?(input: PortalSessionInput): Promise<string>;
  /** Clears each subscription's own default payment method, which would outrank the customer's. Stripe only. */
  syncDefaultPaymentMethod?(customerId: string, idempotencyKey: string): Promise<number>;
  /** The sandbox's test clock, for records kept on the billing clock; absent: now() (Stripe bills on real time). */
  readonly clock?: SQL;
  readonly pageHosts?: PageHosts;
  /** Under the API's per-address rate limit. */
  routes?: FastifyPluginAsync<ProviderRouteOptions>;
  /** Outside the rate limit: the provider delivers from few addresses. */
  webhookRoutes?: FastifyPluginAsync<ProviderRouteOptions>;
  /** The sandbox keeps them in this database; Stripe keeps its own. */
  deleteAbandonedRecords?(retentionDays: number): Promise<Record<string, number>>;
}

/** Not ok when refused: the event stays unrecorded and the provider delivers it again. */
export type PaymentEventHandled = { ok: true; value: { outcome: 'processed' | 'duplicate' | 'ignored' } } | { ok: false };

/** The one lifecycle, handed in so a provider knows no feature; database errors propagate (the provider retries). */
export interface PaymentEventRunner {
  event(log: FastifyBaseLogger, event: PaymentEvent): Promise<PaymentEventHandled>;
  /** @throws on the first refused. */
  events(log: FastifyBaseLogger, events: PaymentEvent[]): Promise<void>;
  refundNotice(
    log: FastifyBaseLogger,
    notice: { eventId: string; providerType: string; customerId: string; paymentId: string },
  ): Promise<PaymentEventHandled>;
  failedRefundNotice(
    log: FastifyBaseLogger,
    notice: { eventId: string; providerType: string; paymentId: string },
  ): Promise<PaymentEventHandled>;
  disputeNotice(log: FastifyBaseLogger, notice: { eventId: string; providerType: string; disputeId: string }): Promise<PaymentEventHandled>;
}

export interface ProviderRouteOptions {
  config: Config;
  db: Database;
  provider: PaymentProvider;
  cipher: CredentialsCipher;
  paymentEvents: PaymentEventRunner;
  challengeKey: string;
  nudgeOutbox: () => void;
  webhookStatus: WebhookStatus;
}

export interface ReplaceCardInput {
  subscriptionId: string;
  customerId: string;
  /** Absent when the provider collects the card itself. */
  card?: SandboxCard;
  returnUrl: string;
  idempotencyKey: string;
}

export interface RefundInput {
  subscriptionId: string;
  /** 'all': everything not yet refunded. */
  amountCents: number | 'all';
  endNow: boolean;
  idempotencyKey: string;
}

/** Handlers re-fetch the subscription instead of trusting the event's copy: events repeat and arrive out of order. */
export interface PaymentEvent {
  eventId: string;
  kind:
    'invoice_paid' | 'invoice_payment_failed' | 'subscription_updated' | 'subscription_deleted' | 'payment_refunded' | 'payment_disputed';
  providerType: string;
  subscriptionId: string;
  transactionId: string;
  /** A failed refund is read the same way: its payment then reports less refunded. */
  paymentId?: string;
  disputeId?: string;
  reason?: string;
}
