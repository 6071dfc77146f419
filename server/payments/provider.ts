/**
 * The provider-neutral payment interface. The sandbox (server/payments/sandbox.ts, the offline default) and
 * Stripe (server/payments/stripe.ts) both implement it; routes and the order logic speak only to this.
 *
 * Money is integer cents. Every call that creates or changes money state takes an idempotency key derived
 * from the transaction and the step (style.md; Stripe "Idempotent requests").
 */

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
    /** ISO currency code, lower case ('usd'). */
    currency: string;
  } | null;
  /** Our transactionId, read from the provider's metadata; null when the object is not ours. */
  transactionId: string | null;
  /**
   * After the purchase (providers whose own portal and renewals change the subscription: Stripe): the paid
   * period's end, a cancellation scheduled for it, and the latest invoice. Absent for the sandbox, whose manage
   * page and renewals change orders directly (server/account/subscriptionLife.ts).
   */
  lifecycle?: {
    /** ISO 8601; null when the provider does not say. */
    currentPeriodEnd: string | null;
    cancelAtPeriodEnd: boolean;
    /**
     * ISO 8601: when a scheduled cancellation ends the subscription. Stripe's `cancel_at` when set (flexible
     * billing mode: the Customer Portal's cancellation sets only it), else the period's end when
     * `cancel_at_period_end`; null when nothing is scheduled.
     */
    cancelAt: string | null;
    latestInvoice: { invoiceId: string; state: InvoiceState; amountDueCents: number; renewal: boolean } | null;
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
  /** Records the buyer's email and name on the customer once they are known (at finalize). */
  updateCustomer(customerId: string, details: { email: string; name: string }, idempotencyKey: string): Promise<void>;
}

/**
 * A provider webhook event we act on, in our terms (Stripe's allow-list is mapped in stripeWebhook.ts). It names
 * the subscription and our transactionId; handlers re-fetch the subscription instead of trusting the event's
 * copy, since events repeat and arrive out of order.
 */
export interface PaymentEvent {
  /** The provider's event id (Stripe `evt_…`), recorded so a repeat is processed once. */
  eventId: string;
  kind: 'invoice_paid' | 'invoice_payment_failed' | 'subscription_updated' | 'subscription_deleted';
  /** The provider's own event type, for the logs ('invoice.paid'). */
  providerType: string;
  subscriptionId: string;
  /** Our transactionId from the object's metadata. */
  transactionId: string;
}
