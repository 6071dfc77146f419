/**
 * The provider-neutral payment interface. The sandbox (server/payments/sandbox/, the offline default) and
 * Stripe (server/payments/stripe/provider.ts) both implement it; routes and the order logic speak only to this, before the
 * purchase (customer, subscription, payment) and after it (cancel, undo, seats, card, refund).
 *
 * Money is integer cents. Every call that creates or changes money state takes an idempotency key derived
 * from the transaction and the step (style.md; Stripe "Idempotent requests").
 */

import type { SQL } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyPluginAsync } from 'fastify';
import type { SandboxCard } from '../../src/contract/sandbox';
import type { Config } from '../config';
import type { Database } from '../db/client';
import type { PageHosts } from '../http/securityHeaders';
import type { WebhookStatus } from '../http/routes/health';
import type { CredentialsCipher } from '../security/credentialsCipher';

/** Which provider serves this process. */
export type ProviderName = 'sandbox' | 'stripe';

/**
 * Our own small enum for a subscription's state; anything unmapped is 'not_supported', never a crash. `unpaid`
 * (retries exhausted, the subscription kept open) and `paused` (a trial ended without a payment method) are
 * Stripe's states in which service should stop (Stripe docs, "Subscription statuses").
 */
export type SubscriptionState = 'incomplete' | 'active' | 'past_due' | 'unpaid' | 'paused' | 'canceled' | 'not_supported';

/** Our own small enum for an invoice's state (Stripe's invoice statuses we act on). */
export type InvoiceState = 'draft' | 'open' | 'paid' | 'void' | 'uncollectible' | 'not_supported';

export interface CreateCustomerInput {
  transactionId: string;
  affiliateId: string;
  affiliateSource: string;
  /** The slug of the referrer the server attributed the checkout to; omitted for a visit without a link. */
  referrer?: string;
  idempotencyKey: string;
}

export interface CreateSubscriptionInput {
  transactionId: string;
  customerId: string;
  /** Seat count, an integer ≥ 1. */
  quantity: number;
  /**
   * Tax the subscription for the customer's location (Stripe: `automatic_tax: { enabled: true }`, the Price
   * `tax_behavior: 'exclusive'`). Only once setCustomerLocation placed the customer; absent: untaxed.
   */
  automaticTax?: boolean;
  /** The attributed referrer's slug, written to the subscription's metadata; omitted when there is none. */
  referrer?: string;
  idempotencyKey: string;
}

/** A newly created, unpaid (`incomplete`) subscription and the secret the browser confirms its payment with. */
export interface CreatedSubscription {
  subscriptionId: string;
  subscriptionItemId: string;
  /** The first invoice's confirmation secret (a PaymentIntent client secret). */
  clientSecret: string;
  /** The first invoice's PaymentIntent id, when the provider exposes it; used to map redirect returns. */
  paymentIntentId: string | null;
  /** The first invoice's seats before tax (Stripe `total_excluding_tax`), in cents. */
  subtotalCents: number;
  /** The first invoice's tax (Stripe: the sum of `total_taxes`), in cents; 0 untaxed. */
  taxCents: number;
}

/**
 * Where the provider placed a customer for tax, from the address the buyer typed with the card: a US state
 * (two letters) or null for a place with no state of ours; or 'not_placeable' (Stripe:
 * `customer_tax_location_invalid`), when the address names no place the provider knows.
 */
export type TaxPlacement = { kind: 'placed'; state: string | null } | { kind: 'not_placeable' };

/** What a subscription of `quantity` seats would be charged a month for the customer's location, in cents. */
export interface TaxQuote {
  /** The seats' amount before tax (Stripe `total_excluding_tax`). */
  subtotalCents: number;
  /** Tax on it (Stripe: the sum of `total_taxes`); 0 where none is owed. */
  taxCents: number;
}

/** What finalize and webhooks need to know about a subscription and its first invoice. */
export interface SubscriptionPayment {
  subscriptionId: string;
  customerId: string;
  /** Seat count on the subscription item. */
  quantity: number;
  state: SubscriptionState;
  firstInvoice: {
    invoiceId: string;
    state: InvoiceState;
    /** Amount actually paid, in cents. */
    amountPaidCents: number;
    /** The invoice's total before tax (Stripe `total_excluding_tax`), in cents. */
    totalExcludingTaxCents: number;
    /** The invoice's tax (Stripe: the sum of `total_taxes`), in cents. */
    taxCents: number;
    /** ISO currency code, lower case ('usd'). */
    currency: string;
  } | null;
  /** Our transactionId, read from the provider's metadata; null when the object is not ours. */
  transactionId: string | null;
  /**
   * After the purchase: the paid period's end, a cancellation scheduled for a date (Stripe: `cancel_at`, which
   * flexible billing mode sets for a cancel at period end, or `cancel_at_period_end`), and the latest invoice.
   * The one lifecycle (server/checkout/subscriptionLifecycle.ts) compares it with the order.
   */
  lifecycle: {
    /** ISO 8601; null when the provider does not say (before the first payment). */
    currentPeriodEnd: string | null;
    /**
     * ISO 8601: when a scheduled cancellation ends the subscription. Stripe's `cancel_at` when set (flexible
     * billing mode: the Customer Portal's cancellation sets only it), else the period's end when
     * `cancel_at_period_end`; null when nothing is scheduled.
     */
    cancelAt: string | null;
    /**
     * What the buyer gave as the reason for a scheduled cancellation in the provider's own page (Stripe's
     * Customer Portal: `cancellation_details.comment`, else its `feedback` in words); null or absent when none.
     */
    cancellationReason?: string | null;
    latestInvoice: {
      invoiceId: string;
      state: InvoiceState;
      amountDueCents: number;
      /** What was paid on it, in cents (Stripe's `amount_paid`): a paid invoice's receipt. */
      amountPaidCents: number;
      /** The tax in it, in cents (Stripe: the sum of `total_taxes`): commissions are on what was paid less this. */
      taxCents: number;
      /**
       * The payment a refund or dispute of it names (Stripe: the PaymentIntent in `invoice.payments`, API
       * 2025-03-31.basil and later; the sandbox: its PaymentIntent or renewal invoice); null while unpaid.
       */
      paymentId: string | null;
      renewal: boolean;
      /** A seat change's proration, invoiced at once (Stripe `billing_reason: 'subscription_update'`; decision 0045). */
      proration?: boolean;
    } | null;
  };
}

/**
 * The billing details the buyer entered with the card, read back from the provider's payment (Stripe: the
 * PaymentIntent's payment method `billing_details`). Either may be null when the payment carries none.
 */
export interface PaymentBuyer {
  name: string | null;
  email: string | null;
}

/** Where the manage page sends the buyer in a provider's portal. */
export interface PortalSessionInput {
  customerId: string;
  subscriptionId: string;
  flow: 'home' | 'cancel' | 'seats' | 'card';
  /** Where the portal returns the buyer (the manage page). */
  returnUrl: string;
  /** One per request: a retry of the same request reuses its session. */
  idempotencyKey: string;
}

/** A refund of part of what a subscription's buyer paid, read back from the provider. */
export interface RefundedPayment {
  /** The provider's payment that was refunded (Stripe: the PaymentIntent; sandbox: the invoice). */
  paymentId: string;
  /** Paid on that payment, in cents, tax included. */
  amountCents: number;
  /**
   * The tax in `amountCents`, in cents (0 untaxed): a refund returns its share of it (src/domain/tax.ts
   * refundedTaxCents; Stripe: the invoice's `total_taxes`).
   */
  taxCents: number;
  /** Refunded on that payment so far (all its refunds together), in cents. */
  refundedCents: number;
  /** A dispute holds its money (open or lost): it cannot be refunded (Stripe: `charge_disputed`). */
  disputeHolds: boolean;
}

/**
 * A dispute (chargeback) of one of a subscription's payments, read back from the provider (Stripe API reference,
 * "The Dispute object"). The money is taken from the business when it opens and comes back only if it is won.
 */
export interface ProviderDispute {
  disputeId: string;
  /** The disputed payment (Stripe: the PaymentIntent; sandbox: the PaymentIntent or renewal invoice). */
  paymentId: string;
  /** The customer whose payment it is, to find the order (Stripe: the charge's customer). */
  customerId: string | null;
  /** Disputed, in cents. */
  amountCents: number;
  /** The provider's status in its words (Stripe: warning_needs_response, needs_response, under_review, won, lost, …). */
  status: string;
  /** Open until closed; won when the money came back (Stripe: `won`, `warning_closed`), else lost. */
  outcome: 'open' | 'won' | 'lost';
  reason: string | null;
  /** ISO 8601: the last moment evidence can be submitted (`evidence_details.due_by`); null when none is asked. */
  evidenceDueBy: string | null;
}

/** What the manage page shows of a subscription beyond the order (null where the provider's portal shows it). */
export interface SubscriptionDetails {
  /** ISO 8601 end of the paid period (the next charge date); null when unknown. */
  currentPeriodEnd: string | null;
  cardLast4: string | null;
  invoices: ListedInvoice[];
}

/**
 * An invoice as the manage page and the console list it: what was paid (or is due), in cents, and what of it was
 * refunded; a paid invoice refunded in full reads 'refunded', in part 'partially_refunded'.
 */
export interface ListedInvoice {
  id: string;
  amountCents: number;
  /** The tax in `amountCents`, in cents; 0 untaxed. */
  taxCents: number;
  status: 'paid' | 'open' | 'uncollectible' | 'refunded' | 'partially_refunded';
  /** Refunded of `amountCents` so far (all its refunds), in cents; 0 for one never refunded. */
  refundedCents: number;
  date: string;
}

/** The listed status of a paid invoice of `amountCents` with `refundedCents` refunded. */
export function paidInvoiceStatus(amountCents: number, refundedCents: number): ListedInvoice['status'] {
  if (refundedCents <= 0) return 'paid';
  return refundedCents >= amountCents ? 'refunded' : 'partially_refunded';
}

/**
 * What a seat change would cost now (decision 0045), before the buyer confirms it: the proration charged at once
 * for an increase, or the credit a decrease leaves for the next invoice. Cents.
 */
export interface SeatChangePreview {
  quantity: number;
  /** Charged now if the buyer confirms (0 when nothing is due, e.g. the free second seat or a decrease). */
  amountDueNowCents: number;
  /** Taken off the next invoice (a decrease's unused time); 0 for an increase. */
  creditCents: number;
  /** The monthly total for `quantity` seats from the next renewal. */
  monthlyTotalCents: number;
  /** ISO 8601: the next renewal; null when unknown. */
  nextChargeDate: string | null;
  /** Unix seconds the proration was computed at (Stripe's `proration_date`): `changeSeats` charges it as quoted. */
  prorationDate: number;
}

/** The outcome of putting a new card on a subscription. */
export type CardReplacement =
  /** The card is on file; `events` are the charges it made at once (an unpaid renewal), for the lifecycle. */
  | { kind: 'replaced'; events: PaymentEvent[] }
  /** The card was refused when it was verified (Stripe: a SetupIntent's decline); nothing changed. */
  | { kind: 'declined'; message: string }
  /** The card's details are wrong (number, expiry, security code); nothing changed. */
  | { kind: 'invalid'; message: string }
  /** The subscription has ended (or was never paid): no card can be put on it. */
  | { kind: 'not_allowed' }
  /** The provider collects the card on its own page (Stripe's Customer Portal): send the buyer to `url`. */
  | { kind: 'redirect'; url: string };

/** Why a provider refused an after-purchase operation, in our words. */
export type OperationRefusal =
  /** The subscription is not in a state that allows it (ended, unpaid, not yet paid). */
  | 'not_allowed'
  /** The amount is above what can still be refunded. */
  | 'amount_too_high'
  /** The card on file refused the charge the change needs (a seat increase's proration); nothing changed. */
  | 'payment_declined'
  /** The quoted proration is older than SEAT_QUOTE_SECONDS (src/domain/proration.ts): nothing changed. */
  | 'quote_expired';

/** An after-purchase operation's answer: the provider event it amounts to, or a refusal. */
export type OperationResult = { ok: true; events: PaymentEvent[] } | { ok: false; refusal: OperationRefusal };

export interface PaymentProvider {
  readonly name: ProviderName;
  /** Creates the provider's customer record for an anonymous buyer. */
  createCustomer(input: CreateCustomerInput): Promise<{ customerId: string }>;
  /** Creates an unpaid monthly subscription for `quantity` seats on `customerId`. */
  createSubscription(input: CreateSubscriptionInput): Promise<CreatedSubscription>;
  /**
   * Cancels an unpaid subscription (a seat change replaces it, an orphan is dropped) so that nothing can pay it
   * any more: the open first invoice is voided first (Stripe: "Void an invoice" works only on an open invoice, so
   * a paid one refuses), which also cancels its PaymentIntent, then the subscription is cancelled.
   * Resolves 'cancelled' (also for one already cancelled or unknown), or 'paid' when the first invoice is paid:
   * then nothing is changed, because cancelling a paid subscription would keep the money and end the service.
   * @throws on provider failure.
   */
  cancelUnpaidSubscription(subscriptionId: string, idempotencyKey: string): Promise<'cancelled' | 'paid'>;
  /** Reads the subscription and its first invoice; null when the provider does not know the id. */
  retrieveSubscriptionPayment(subscriptionId: string): Promise<SubscriptionPayment | null>;
  /**
   * Reads who paid a first invoice's PaymentIntent: the billing name and email sent with the confirmation.
   * Used when the browser did not finalize (a webhook, a 3-D Secure redirect return). Null for an unknown id.
   */
  retrievePaymentBuyer(paymentIntentId: string): Promise<PaymentBuyer | null>;
  /**
   * Sets the customer's address to the buyer's location and answers where the provider places it for tax (Stripe:
   * `customers.update` with `address` and `tax.validate_location: 'immediately'`). @throws on provider failure.
   */
  setCustomerLocation(customerId: string, location: { country: string; postalCode: string }, idempotencyKey: string): Promise<TaxPlacement>;
  /**
   * What a taxed subscription of `quantity` seats would charge the (placed) customer each month (Stripe:
   * `invoices.createPreview` with `automatic_tax`). @throws on provider failure.
   */
  previewTax(customerId: string, quantity: number): Promise<TaxQuote>;
  /** Records the buyer's email and name on the customer once they are known (at finalize). */
  updateCustomer(customerId: string, details: { email: string; name: string }, idempotencyKey: string): Promise<void>;

  // After the purchase. Each change answers the PaymentEvents it amounts to; the caller runs them through the
  // one lifecycle at once (the provider's own webhook for the same change later finds nothing left to do).

  /** The card and invoices the manage page shows; null for an unknown subscription. @throws on provider failure. */
  retrieveSubscriptionDetails(subscriptionId: string): Promise<SubscriptionDetails | null>;
  /** Schedules the end of a paid subscription at the end of its paid period. @throws on provider failure. */
  scheduleCancel(subscriptionId: string, idempotencyKey: string): Promise<OperationResult>;
  /**
   * Ends a paid (or past-due) subscription now, without a refund (the console's "Cancel now"); refuses one that
   * already ended or was never paid. @throws on provider failure.
   */
  endNow(subscriptionId: string, idempotencyKey: string): Promise<OperationResult>;
  /** Undoes a scheduled cancellation. @throws on provider failure. */
  undoCancel(subscriptionId: string, idempotencyKey: string): Promise<OperationResult>;
  /**
   * Changes the seats of an active, paid-up subscription (decision 0045): an increase's proration is charged at
   * once and the seats change only when it is paid (Stripe: `always_invoice` with `pending_if_incomplete`), else
   * 'payment_declined' and nothing changed; a decrease takes effect at once, its unused time credited to the next
   * invoice. `prorationDate` (a preview's) prorates as quoted; without it, now. @throws on provider failure.
   */
  changeSeats(subscriptionId: string, quantity: number, idempotencyKey: string, prorationDate?: number): Promise<OperationResult>;
  /**
   * What `changeSeats` to `quantity` would cost now (Stripe: `invoices.createPreview`); null for an unknown
   * subscription or one whose seats cannot change. @throws on provider failure.
   */
  previewSeatChange(subscriptionId: string, quantity: number): Promise<SeatChangePreview | null>;
  /**
   * Puts a new card on the subscription (the sandbox verifies a test card and charges an unpaid renewal with it),
   * or answers where the provider collects it. @throws on provider failure.
   */
  replaceCard(input: ReplaceCardInput): Promise<CardReplacement>;
  /**
   * Refunds `amountCents` of what was paid on the subscription (newest payments first) and, when `endNow`,
   * ends the subscription at once. Refuses an amount above what is left to refund. @throws on provider failure.
   */
  refund(input: RefundInput): Promise<OperationResult>;
  /** Reads a refunded payment (after a refund event); null for an unknown id. @throws on provider failure. */
  retrieveRefundedPayment(paymentId: string): Promise<RefundedPayment | null>;
  /**
   * Reads a dispute as the provider reports it now (Stripe: disputes.retrieve; events arrive out of order); null
   * for an unknown id. @throws on provider failure.
   */
  retrieveDispute(disputeId: string): Promise<ProviderDispute | null>;
  /**
   * A Customer Portal session for the buyer, opened on `flow` (Stripe: `flow_data` deep links); returns its URL.
   * Only providers with a hosted portal have it (Stripe); the sandbox's manage page does the same itself.
   * @throws on provider failure.
   */
  createPortalSession?(input: PortalSessionInput): Promise<string>;
  /**
   * After the buyer changed the customer's default payment method (Stripe: the Customer Portal's card update
   * sets `invoice_settings.default_payment_method`), makes the customer's subscriptions charge it: a
   * subscription's own default payment method, which would take precedence, is cleared. Resolves how many
   * subscriptions changed. Only providers with a hosted portal have it (Stripe).
   * @throws on provider failure.
   */
  syncDefaultPaymentMethod?(customerId: string, idempotencyKey: string): Promise<number>;
  /**
   * The provider's billing clock as a SQL expression on this database, for records kept on it (a commission's
   * hold, server/commissions/): the sandbox's test clock, which `POST /api/sandbox/clock/advance` moves. Absent:
   * the database's now() (Stripe bills on real time).
   */
  readonly clock?: SQL;
  /** The hosts the page needs for the provider's browser library (the Content-Security-Policy); none for the sandbox. */
  readonly pageHosts?: PageHosts;
  /** The provider's own API routes, under the API's per-address rate limit: the sandbox's card form and clock (./sandbox/routes.ts). */
  routes?: FastifyPluginAsync<ProviderRouteOptions>;
  /** The provider's webhook endpoint, outside the rate limit (the provider delivers from few addresses): Stripe's (./stripeWebhookRoute.ts). */
  webhookRoutes?: FastifyPluginAsync<ProviderRouteOptions>;
  /**
   * Deletes the provider's own records of checkouts abandoned more than `retentionDays` ago (the sandbox keeps
   * them in this database; Stripe keeps its own). Answers how many rows went, by table.
   */
  deleteAbandonedRecords?(retentionDays: number): Promise<Record<string, number>>;
}

/**
 * An event's outcome: `processed`, `duplicate` (seen before) or `ignored` (no order of ours); not ok when it was
 * refused (the provider could not be asked): the event stays unrecorded and the provider delivers it again.
 */
export type PaymentEventHandled = { ok: true; value: { outcome: 'processed' | 'duplicate' | 'ignored' } } | { ok: false };

/**
 * What a provider's routes hand their events and notices to: the one subscription lifecycle
 * (server/checkout/applyPaymentEvent.ts), given by the app (server/app.ts), so a provider knows no feature. Each
 * runs with the request's logger; database errors propagate (the provider retries).
 */
export interface PaymentEventRunner {
  event(log: FastifyBaseLogger, event: PaymentEvent): Promise<PaymentEventHandled>;
  /** Each of `events` in order. @throws on the first refused. */
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

/** What a provider's routes are given (server/app.ts). */
export interface ProviderRouteOptions {
  config: Config;
  db: Database;
  provider: PaymentProvider;
  cipher: CredentialsCipher;
  /** Runs the provider's events through the one lifecycle. */
  paymentEvents: PaymentEventRunner;
  /** Signs the sandbox's proof-of-work challenges; the same in every process. */
  challengeKey: string;
  /** Sends the outbox now (mail a change causes should not wait for the next run). */
  nudgeOutbox: () => void;
  /** Where a webhook route reports the API version of the events it receives (GET /healthz shows it). */
  webhookStatus: WebhookStatus;
}

export interface ReplaceCardInput {
  subscriptionId: string;
  customerId: string;
  /** The card as the sandbox's card form sends it; absent when the provider collects the card itself. */
  card?: SandboxCard;
  /** Where the provider's page returns the buyer (the manage page). */
  returnUrl: string;
  idempotencyKey: string;
}

export interface RefundInput {
  subscriptionId: string;
  /** Cents, > 0; 'all' for everything paid and not yet refunded. */
  amountCents: number | 'all';
  /** End the subscription at once (the console's refund does). */
  endNow: boolean;
  idempotencyKey: string;
}

/**
 * A provider webhook event we act on, in our terms (Stripe's allow-list is mapped in stripeWebhook.ts). It names
 * the subscription and our transactionId; handlers re-fetch the subscription instead of trusting the event's
 * copy, since events repeat and arrive out of order.
 */
export interface PaymentEvent {
  /** The provider's event id (Stripe `evt_…`; the sandbox's own), recorded so a repeat is processed once. */
  eventId: string;
  kind:
    'invoice_paid' | 'invoice_payment_failed' | 'subscription_updated' | 'subscription_deleted' | 'payment_refunded' | 'payment_disputed';
  /** The provider's own event type, for the logs ('invoice.paid'). */
  providerType: string;
  subscriptionId: string;
  /** Our transactionId from the object's metadata. */
  transactionId: string;
  /**
   * `payment_refunded`: the payment whose refunds to read (Stripe: the PaymentIntent); a refund that failed
   * (`refund.failed`, `charge.refund.updated`) is read the same way: its payment then reports less refunded.
   */
  paymentId?: string;
  /** `payment_disputed`: the dispute to read (Stripe `charge.dispute.*`). */
  disputeId?: string;
  /** A cancellation the buyer asked for: the reason they gave, if any. */
  reason?: string;
}
