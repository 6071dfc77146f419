/**
 * The Stripe provider over the official SDK (Stripe docs, "Build a subscriptions integration"): a Customer per
 * checkout, a Subscription with `payment_behavior: 'default_incomplete'` whose first invoice's `confirmation_secret`
 * the browser confirms (API 2025-03-31.basil). Every POST carries the caller's idempotency key; the one DELETE cannot
 * (keys there "have no effect") and needs none: the open first invoice is voided first, which Stripe refuses for a
 * paid one, so a paid subscription is never cancelled.
 */
import { randomUUID } from 'node:crypto';
import type Stripe from 'stripe';
import { isValidSeatCount, monthlyTotalCents } from '../../../src/domain/pricing';
import { seatQuoteHolds } from '../../../src/domain/proration';
import { refundedTaxCents } from '../../../src/domain/tax';
import type { FastifyPluginAsync } from 'fastify';
import type {
  CreateCustomerInput,
  CreateSubscriptionInput,
  CreatedSubscription,
  InvoiceState,
  ListedInvoice,
  PaymentBuyer,
  PaymentEvent,
  PaymentProvider,
  PortalSessionInput,
  ProviderRouteOptions,
  SubscriptionPayment,
  SubscriptionState,
} from '../provider';
import { paidInvoiceStatus } from '../provider';
import { stripeWebhookRoute } from './webhookRoute';
import { createStripeClient } from './client';
import { isCardDecline, isResourceMissing, isTaxLocationInvalid, StripeProviderError, toProviderError } from './errors';
import { PORTAL_CONFIGURATION_METADATA } from './setup';

/** Plain values, so it does not depend on the server's Config. */
interface StripeProviderOptions {
  secretKey: string;
  apiBase?: string;
  priceLookupKey: string;
  /** Without it POST /api/stripe/webhook is not registered. */
  webhookSecret?: string;
}

/** Stripe docs, "Content Security Policy". */
const STRIPE_PAGE_HOSTS = {
  script: ['https://js.stripe.com', 'https://*.js.stripe.com'],
  frame: ['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com'],
  connect: ['https://api.stripe.com'],
  payment: ['https://js.stripe.com'],
} as const;

/** Stripe docs, "Metadata". */
const METADATA_VALUE_MAX = 500;
/** Stripe docs, "Idempotent requests". */
const IDEMPOTENCY_KEY_MAX = 255;

const SUBSCRIPTION_STATES: Record<string, SubscriptionState> = {
  incomplete: 'incomplete',
  // Never paid within 23 hours: nothing can pay it any more.
  incomplete_expired: 'canceled',
  active: 'active',
  past_due: 'past_due',
  unpaid: 'unpaid',
  paused: 'paused',
  canceled: 'canceled',
};

const INVOICE_STATES: Record<string, InvoiceState> = {
  draft: 'draft',
  open: 'open',
  paid: 'paid',
  void: 'void',
  uncollectible: 'uncollectible',
};

export function subscriptionStateOf(status: string): SubscriptionState {
  return SUBSCRIPTION_STATES[status] ?? 'not_supported';
}

export function invoiceStateOf(status: string | null): InvoiceState {
  return (status && INVOICE_STATES[status]) || 'not_supported';
}

/**
 * Cut by code points, so no surrogate pair splits, and without lone surrogates, which stripe-node cannot form-encode.
 */
function metadataValue(value: string): string {
  return Array.from(value.replace(/[\uD800-\uDFFF]/gu, ''))
    .slice(0, METADATA_VALUE_MAX)
    .join('');
}

/** @throws RangeError when the key is empty or too long: a bug in the caller. */
function requireIdempotencyKey(key: string): string {
  if (key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX) {
    throw new RangeError(`Idempotency key must be 1 to ${IDEMPOTENCY_KEY_MAX} characters, got ${key.length}`);
  }
  return key;
}

/**
 * Flexible billing mode (API 2025-09-30.clover) records the Customer Portal's cancel at period end as `cancel_at`
 * only; older subscriptions set `cancel_at_period_end`. Either counts.
 */
function cancelAtOf(subscription: Stripe.Subscription): string | null {
  if (typeof subscription.cancel_at === 'number') return new Date(subscription.cancel_at * 1000).toISOString();
  return subscription.cancel_at_period_end ? periodEndOf(subscription.items.data[0]?.current_period_end) : null;
}

function periodEndOf(seconds: number | undefined): string | null {
  return typeof seconds === 'number' ? new Date(seconds * 1000).toISOString() : null;
}

function idOf(value: string | { id: string }): string {
  return typeof value === 'string' ? value : value.id;
}

function paymentIntentIdFromClientSecret(clientSecret: string): string | null {
  return /^(pi_[A-Za-z0-9]+)_secret_/.exec(clientSecret)?.[1] ?? null;
}

function paymentIntentIdOf(invoice: Stripe.Invoice, clientSecret: string): string | null {
  const payments = invoice.payments?.data ?? [];
  const payment = payments.find((p) => p.is_default) ?? payments[0];
  const intent = payment?.payment.payment_intent;
  return intent ? idOf(intent) : paymentIntentIdFromClientSecret(clientSecret);
}

function paidPaymentIntentOf(invoice: Stripe.Invoice): string | null {
  const payments = invoice.payments?.data ?? [];
  const payment = payments.find((p) => p.status === 'paid') ?? payments.find((p) => p.is_default) ?? payments[0];
  const intent = payment?.payment.payment_intent;
  return intent ? idOf(intent) : null;
}

/** Exclusive taxes, as the Price's `tax_behavior`. */
function taxOf(invoice: Stripe.Invoice): number {
  return (invoice.total_taxes ?? []).reduce((sum, tax) => sum + tax.amount, 0);
}

/**
 * The tax in what the invoice charges (`amount_due`, which is `amount_paid` once paid), in cents: its exclusive tax,
 * less the tax share of the customer's credit balance it took. A seat decrease's credit line carried its own tax
 * into the balance, so the part of the invoice the credit paid is taxed already: the tax is split in proportion to
 * the amount, as Stripe Tax splits money against tax ("Refunds and credit notes"; docs/decisions/0077). 0 for an
 * invoice that charges nothing (a credit, or one the balance paid in full).
 */
function taxChargedOf(invoice: Stripe.Invoice): number {
  const tax = taxOf(invoice);
  if (invoice.amount_due <= 0 || tax <= 0) return 0;
  if (invoice.amount_due >= invoice.total) return tax;
  return refundedTaxCents(invoice.amount_due, invoice.total, tax);
}

/** The total when Stripe leaves it null. */
function totalExcludingTaxOf(invoice: Stripe.Invoice): number {
  return invoice.total_excluding_tax ?? invoice.total - taxOf(invoice);
}

function expandedInvoice(subscription: Stripe.Subscription, action: string): Stripe.Invoice | null {
  const invoice = subscription.latest_invoice;
  if (invoice === null) return null;
  if (typeof invoice === 'string') throw new StripeProviderError('unexpected', action);
  return invoice;
}

/**
 * Nothing is sent to Stripe until a method is called. @throws Error when the secret key is empty or `apiBase` is not
 * a bare http(s) origin.
 */
export function createStripeProvider(options: StripeProviderOptions): PaymentProvider {
  const stripe = createStripeClient({ secretKey: options.secretKey, apiBase: options.apiBase });
  let priceId: string | undefined;

  /** Looked up once, kept for the life of the process. */
  async function monthlyPriceId(): Promise<string> {
    if (priceId) return priceId;
    const prices = await stripe.prices.list({ lookup_keys: [options.priceLookupKey], active: true, limit: 1 });
    const price = prices.data[0];
    if (!price) {
      throw new StripeProviderError(
        'misconfigured',
        'find price',
        undefined,
        `Stripe price with lookup key "${options.priceLookupKey}" not found; run npm run stripe:setup`,
      );
    }
    priceId = price.id;
    return priceId;
  }

  let portalConfigurationId: string | undefined;

  async function portalConfiguration(): Promise<string> {
    if (portalConfigurationId) return portalConfigurationId;
    const configurations = await stripe.billingPortal.configurations.list({ active: true, limit: 100 });
    const ours = configurations.data.find((each) => each.metadata?.referral_checkout === PORTAL_CONFIGURATION_METADATA.referral_checkout);
    if (!ours) {
      throw new StripeProviderError(
        'misconfigured',
        'find portal configuration',
        undefined,
        'Customer Portal configuration not found; run npm run stripe:setup',
      );
    }
    portalConfigurationId = ours.id;
    return portalConfigurationId;
  }

  async function call<T>(action: string, request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (error) {
      throw toProviderError(error, action);
    }
  }

  return {
    name: 'stripe',
    pageHosts: STRIPE_PAGE_HOSTS,

    async createPortalSession({ customerId, subscriptionId, flow, returnUrl, idempotencyKey }: PortalSessionInput) {
      const afterCompletion = { type: 'redirect' as const, redirect: { return_url: returnUrl } };
      const flowData: Stripe.BillingPortal.SessionCreateParams.FlowData | undefined =
        flow === 'cancel'
          ? { type: 'subscription_cancel', subscription_cancel: { subscription: subscriptionId }, after_completion: afterCompletion }
          : flow === 'seats'
            ? { type: 'subscription_update', subscription_update: { subscription: subscriptionId }, after_completion: afterCompletion }
            : flow === 'card'
              ? { type: 'payment_method_update', after_completion: afterCompletion }
              : undefined;
      const session = await call('create portal session', async () =>
        stripe.billingPortal.sessions.create(
          {
            customer: customerId,
            configuration: await portalConfiguration(),
            return_url: returnUrl,
            ...(flowData ? { flow_data: flowData } : {}),
          },
          { idempotencyKey: requireIdempotencyKey(idempotencyKey) },
        ),
      );
      return session.url;
    },

    async createCustomer(input: CreateCustomerInput) {
      const customer = await call('create customer', () =>
        stripe.customers.create(
          {
            metadata: {
              transactionId: metadataValue(input.transactionId),
              affiliate_id: metadataValue(input.affiliateId),
              affiliate_source: metadataValue(input.affiliateSource),
              ...(input.referrer ? { referrer: metadataValue(input.referrer) } : {}),
            },
          },
          { idempotencyKey: requireIdempotencyKey(input.idempotencyKey) },
        ),
      );
      return { customerId: customer.id };
    },

    async createSubscription(input: CreateSubscriptionInput): Promise<CreatedSubscription> {
      if (!isValidSeatCount(input.quantity)) throw new RangeError(`Seat count must be an integer ≥ 1, got ${input.quantity}`);
      const idempotencyKey = requireIdempotencyKey(input.idempotencyKey);
      const action = 'create subscription';
      const subscription = await call(action, async () =>
        stripe.subscriptions.create(
          {
            customer: input.customerId,
            items: [{ price: await monthlyPriceId(), quantity: input.quantity }],
            payment_behavior: 'default_incomplete',
            // Taxed only once setCustomerLocation placed the customer, else Stripe could not finalize the first
            // invoice (docs/decisions/0071).
            automatic_tax: { enabled: input.automaticTax ?? false },
            payment_settings: { save_default_payment_method: 'on_subscription', payment_method_types: ['card'] },
            metadata: {
              transactionId: metadataValue(input.transactionId),
              ...(input.referrer ? { referrer: metadataValue(input.referrer) } : {}),
            },
            expand: ['latest_invoice.confirmation_secret', 'latest_invoice.payments'],
          },
          { idempotencyKey },
        ),
      );
      if (subscription.status !== 'incomplete') {
        // Paid without the buyer's card (a credit balance, a coupon): never hand out a session for it.
        await stripe.subscriptions.cancel(subscription.id).catch(() => undefined);
        throw new StripeProviderError(
          'unexpected',
          action,
          undefined,
          `A new subscription was ${subscription.status}, not incomplete; it was cancelled. Please try again.`,
        );
      }
      const item = subscription.items.data[0];
      const invoice = expandedInvoice(subscription, action);
      const clientSecret = invoice?.confirmation_secret?.client_secret;
      if (!item || !invoice || !clientSecret) throw new StripeProviderError('unexpected', action);
      return {
        subscriptionId: subscription.id,
        subscriptionItemId: item.id,
        clientSecret,
        paymentIntentId: paymentIntentIdOf(invoice, clientSecret),
        subtotalCents: totalExcludingTaxOf(invoice),
        taxCents: taxOf(invoice),
      };
    },

    /**
     * `tax.validate_location: 'immediately'`: an address Stripe Tax cannot place is refused (Stripe docs, "Collect
     * customer addresses").
     */
    async setCustomerLocation(customerId, location, idempotencyKey) {
      let customer: Stripe.Customer;
      try {
        customer = await stripe.customers.update(
          customerId,
          {
            address: { country: location.country, postal_code: location.postalCode },
            tax: { validate_location: 'immediately' },
            expand: ['tax'],
          },
          { idempotencyKey: requireIdempotencyKey(idempotencyKey) },
        );
      } catch (error) {
        if (isTaxLocationInvalid(error)) return { kind: 'not_placeable' };
        throw toProviderError(error, 'set customer location');
      }
      return { kind: 'placed', state: customer.tax?.location?.state ?? null };
    },

    async previewTax(customerId, quantity) {
      const preview = await call('preview tax', async () =>
        stripe.invoices.createPreview({
          customer: customerId,
          automatic_tax: { enabled: true },
          subscription_details: { items: [{ price: await monthlyPriceId(), quantity }] },
        }),
      );
      return { subtotalCents: totalExcludingTaxOf(preview), taxCents: taxOf(preview) };
    },

    /**
     * Voiding cancels the PaymentIntent, so the old client secret can no longer pay (Stripe API reference, "Void an
     * invoice").
     */
    async cancelUnpaidSubscription(subscriptionId: string, idempotencyKey: string) {
      const action = 'cancel unpaid subscription';
      const key = requireIdempotencyKey(idempotencyKey);
      let subscription: Stripe.Subscription;
      try {
        subscription = await stripe.subscriptions.retrieve(subscriptionId, { expand: ['latest_invoice'] });
      } catch (error) {
        if (isResourceMissing(error)) return 'cancelled';
        throw toProviderError(error, action);
      }
      if (subscription.status === 'canceled' || subscription.status === 'incomplete_expired') return 'cancelled';
      const invoice = expandedInvoice(subscription, action);
      if (invoice?.status === 'paid') return 'paid';
      if (invoice?.status === 'open') {
        try {
          await stripe.invoices.voidInvoice(invoice.id, {}, { idempotencyKey: requireIdempotencyKey(`${key}:void`) });
        } catch (error) {
          // The card may have paid it a moment ago: read it again to tell.
          const current = await call(action, () => stripe.invoices.retrieve(invoice.id));
          if (current.status === 'paid') return 'paid';
          if (current.status !== 'void') throw toProviderError(error, action);
        }
      }
      try {
        await stripe.subscriptions.cancel(subscriptionId);
      } catch (error) {
        // 404 resource_missing: already gone, the outcome we want.
        if (!isResourceMissing(error)) throw toProviderError(error, action);
      }
      return 'cancelled';
    },

    async retrieveSubscriptionPayment(subscriptionId: string): Promise<SubscriptionPayment | null> {
      const action = 'retrieve subscription';
      let subscription: Stripe.Subscription;
      try {
        subscription = await stripe.subscriptions.retrieve(subscriptionId, { expand: ['latest_invoice.payments'] });
      } catch (error) {
        if (isResourceMissing(error)) return null;
        throw toProviderError(error, action);
      }
      const quantity = subscription.items.data[0]?.quantity;
      if (quantity === undefined) throw new StripeProviderError('unexpected', action);
      const invoice = expandedInvoice(subscription, action);
      const currentPeriodEnd = periodEndOf(subscription.items.data[0]?.current_period_end);
      const monthlyTaxCents = await monthlyTaxOf(subscription);
      return {
        subscriptionId: subscription.id,
        customerId: idOf(subscription.customer),
        quantity,
        state: subscriptionStateOf(subscription.status),
        firstInvoice: invoice && {
          invoiceId: invoice.id,
          state: invoiceStateOf(invoice.status),
          amountPaidCents: invoice.amount_paid,
          totalExcludingTaxCents: totalExcludingTaxOf(invoice),
          taxCents: taxOf(invoice),
          currency: invoice.currency,
        },
        transactionId: subscription.metadata.transactionId || null,
        lifecycle: {
          // Since API 2025-03-31.basil the period lives on the subscription item.
          currentPeriodEnd,
          cancelAt: cancelAtOf(subscription),
          cancellationReason: cancellationReasonOf(subscription),
          monthlyTaxCents,
          latestInvoice: invoice && {
            invoiceId: invoice.id,
            state: invoiceStateOf(invoice.status),
            amountDueCents: invoice.amount_due,
            amountPaidCents: invoice.amount_paid,
            taxCents: taxChargedOf(invoice),
            paymentId: invoice.status === 'paid' ? paidPaymentIntentOf(invoice) : null,
            renewal: invoice.billing_reason === 'subscription_cycle',
            proration: invoice.billing_reason === 'subscription_update',
          },
        },
      };
    },

    /** Since API 2025-03-31.basil a PaymentIntent no longer names its invoice: the caller maps the id to its order. */
    async retrievePaymentBuyer(paymentIntentId: string): Promise<PaymentBuyer | null> {
      const action = 'retrieve payment intent';
      let intent: Stripe.PaymentIntent;
      try {
        intent = await stripe.paymentIntents.retrieve(paymentIntentId, { expand: ['payment_method'] });
      } catch (error) {
        if (isResourceMissing(error)) return null;
        throw toProviderError(error, action);
      }
      const method = intent.payment_method;
      if (method === null) return { name: null, email: null };
      if (typeof method === 'string') throw new StripeProviderError('unexpected', action);
      return { name: method.billing_details.name || null, email: method.billing_details.email || null };
    },

    /**
     * Read now (events arrive out of order); a subscription's own default takes precedence over the customer's, so it
     * is cleared (Stripe, "The Subscription object"). A past-due subscription's open invoices are paid at once rather
     * than by Smart Retries; a decline is left to its event.
     */
    async syncDefaultPaymentMethod(customerId: string, idempotencyKey: string) {
      const action = 'sync default payment method';
      const key = requireIdempotencyKey(idempotencyKey);
      const customer = await call(action, () => stripe.customers.retrieve(customerId));
      if (customer.deleted) return 0;
      const wanted = customer.invoice_settings.default_payment_method;
      if (!wanted) return 0;
      const wantedId = idOf(wanted);
      const live = await call(action, () => stripe.subscriptions.list({ customer: customerId, limit: 100 }));
      const stale = live.data.filter(
        (subscription) => subscription.default_payment_method && idOf(subscription.default_payment_method) !== wantedId,
      );
      for (const subscription of stale) {
        await call(action, () =>
          stripe.subscriptions.update(
            subscription.id,
            { default_payment_method: '' },
            { idempotencyKey: requireIdempotencyKey(`${key}:${subscription.id}`.slice(0, IDEMPOTENCY_KEY_MAX)) },
          ),
        );
      }
      for (const subscription of live.data.filter((each) => each.status === 'past_due' || each.status === 'unpaid')) {
        await payOpenInvoices(subscription.id, `${key}:pay`);
      }
      return stale.length;
    },

    async updateCustomer(customerId: string, details: { email: string; name: string }, idempotencyKey: string) {
      await call('update customer', () =>
        stripe.customers.update(
          customerId,
          { email: details.email, name: details.name },
          { idempotencyKey: requireIdempotencyKey(idempotencyKey) },
        ),
      );
    },

    ...(options.webhookSecret ? { webhookRoutes: webhookRoutes(options.webhookSecret) } : {}),

    /** The card is on the Customer Portal. */
    async retrieveSubscriptionDetails(subscriptionId: string) {
      const payment = await this.retrieveSubscriptionPayment(subscriptionId);
      if (!payment) return null;
      const listed = await call('list invoices', () =>
        stripe.invoices.list({ subscription: subscriptionId, limit: 24, expand: ['data.payments'] }),
      );
      const invoices: ListedInvoice[] = [];
      for (const invoice of listed.data) {
        const state = LISTED_INVOICE_STATES.find((each) => each === invoice.status);
        if (!state) continue;
        const date = new Date(invoice.created * 1000).toISOString();
        if (state !== 'paid') {
          invoices.push({
            id: invoice.id,
            amountCents: invoice.amount_due,
            taxCents: taxChargedOf(invoice),
            status: state,
            refundedCents: 0,
            date,
          });
          continue;
        }
        const intentId = invoice.amount_paid > 0 ? paymentIntentIdOf(invoice, '') : null;
        const refunded = intentId ? await this.retrieveRefundedPayment(intentId) : null;
        const refundedCents = Math.min(invoice.amount_paid, refunded?.refundedCents ?? 0);
        invoices.push({
          id: invoice.id,
          amountCents: invoice.amount_paid,
          taxCents: taxChargedOf(invoice),
          status: paidInvoiceStatus(invoice.amount_paid, refundedCents),
          refundedCents,
          date,
        });
      }
      return { currentPeriodEnd: payment.lifecycle.currentPeriodEnd, cardLast4: null, invoices };
    },

    async scheduleCancel(subscriptionId: string, idempotencyKey: string) {
      return updateSubscription(subscriptionId, 'schedule cancel', { cancel_at_period_end: true }, idempotencyKey);
    },

    /** No proration, no refund. */
    async endNow(subscriptionId: string, idempotencyKey: string) {
      const current = await call('end now', () => stripe.subscriptions.retrieve(subscriptionId));
      const transactionId = current.metadata.transactionId;
      if (!transactionId || !['active', 'past_due', 'unpaid', 'paused'].includes(current.status)) {
        return { ok: false as const, refusal: 'not_allowed' as const };
      }
      await call('end now', () =>
        stripe.subscriptions.cancel(subscriptionId, {}, { idempotencyKey: requireIdempotencyKey(idempotencyKey) }),
      );
      const event: PaymentEvent = {
        eventId: `stripe:${subscriptionId}:deleted`,
        kind: 'subscription_deleted',
        providerType: 'customer.subscription.deleted',
        subscriptionId,
        transactionId,
      };
      return { ok: true as const, events: [event] };
    },

    async undoCancel(subscriptionId: string, idempotencyKey: string) {
      const current = await call('undo cancel', () => stripe.subscriptions.retrieve(subscriptionId));
      const params: Stripe.SubscriptionUpdateParams = current.cancel_at_period_end ? { cancel_at_period_end: false } : { cancel_at: '' };
      return updateSubscription(subscriptionId, 'undo cancel', params, idempotencyKey);
    },

    /**
     * A pending update (Stripe docs, "Pending updates"): the quantity applies only once the proration invoice is
     * paid. On a decline its open invoice is voided, discarding the update, so nothing is charged later for seats the
     * buyer was told were not added. `prorationDate` is Stripe's `proration_date`; a quote from the future or older
     * than SEAT_QUOTE_SECONDS is 'quote_expired' (a later date would charge less).
     */
    async changeSeats(subscriptionId: string, quantity: number, idempotencyKey: string, prorationDate?: number) {
      if (!isValidSeatCount(quantity)) throw new RangeError(`Seat count must be an integer ≥ 1, got ${quantity}`);
      const action = 'change seats';
      if (prorationDate !== undefined) {
        const now = await this.previewSeatChange(subscriptionId, quantity);
        if (!now) return { ok: false as const, refusal: 'not_allowed' as const };
        if (!seatQuoteHolds(prorationDate, now.prorationDate)) return { ok: false as const, refusal: 'quote_expired' as const };
      }
      const key = requireIdempotencyKey(idempotencyKey);
      const current = await call(action, () => stripe.subscriptions.retrieve(subscriptionId));
      const item = current.items.data[0];
      const transactionId = current.metadata.transactionId;
      if (!item || !transactionId || current.status !== 'active') return { ok: false as const, refusal: 'not_allowed' as const };
      const updated = await call(action, () =>
        stripe.subscriptions.update(
          subscriptionId,
          {
            items: [{ id: item.id, quantity }],
            proration_behavior: 'always_invoice',
            ...(prorationDate === undefined ? {} : { proration_date: prorationDate }),
            payment_behavior: 'pending_if_incomplete',
            expand: ['latest_invoice'],
          },
          { idempotencyKey: key },
        ),
      );
      const invoice = expandedInvoice(updated, action);
      if (updated.pending_update) {
        if (invoice?.status === 'open') {
          await call(action, () =>
            stripe.invoices.voidInvoice(
              invoice.id,
              {},
              { idempotencyKey: requireIdempotencyKey(`${key}:void`.slice(0, IDEMPOTENCY_KEY_MAX)) },
            ),
          );
        }
        return { ok: false as const, refusal: 'payment_declined' as const };
      }
      const subject = { subscriptionId, transactionId };
      const updatedEvent: PaymentEvent = {
        eventId: `stripe:${subscriptionId}:updated:${key}`,
        kind: 'subscription_updated',
        providerType: 'customer.subscription.updated',
        ...subject,
      };
      // Its own event, keyed by the invoice, books its receipt and commission.
      const paid = invoice?.billing_reason === 'subscription_update' && invoice.status === 'paid' ? invoice : null;
      const events: PaymentEvent[] = paid
        ? [{ eventId: `stripe:${paid.id}:paid`, kind: 'invoice_paid', providerType: 'invoice.paid', ...subject }, updatedEvent]
        : [updatedEvent];
      return { ok: true as const, events };
    },

    /** Stripe, "Create a preview invoice": positive is due now, negative a credit for the next invoice. */
    async previewSeatChange(subscriptionId: string, quantity: number) {
      if (!isValidSeatCount(quantity)) throw new RangeError(`Seat count must be an integer ≥ 1, got ${quantity}`);
      const action = 'preview seat change';
      let current: Stripe.Subscription;
      try {
        current = await stripe.subscriptions.retrieve(subscriptionId);
      } catch (error) {
        if (isResourceMissing(error)) return null;
        throw toProviderError(error, action);
      }
      const item = current.items.data[0];
      const transactionId = current.metadata.transactionId;
      if (!item || !transactionId || current.status !== 'active') return null;
      // Our key all the same, so the SDK's retries reuse it.
      const idempotencyKey = requireIdempotencyKey(`${transactionId}:seat-preview:${randomUUID()}`.slice(0, IDEMPOTENCY_KEY_MAX));
      const preview = await call(action, () =>
        stripe.invoices.createPreview(
          {
            customer: idOf(current.customer),
            subscription: subscriptionId,
            subscription_details: {
              items: [{ id: item.id, quantity }],
              proration_behavior: 'always_invoice',
            },
          },
          { idempotencyKey },
        ),
      );
      const monthlyKey = requireIdempotencyKey(`${transactionId}:monthly-tax:${randomUUID()}`.slice(0, IDEMPOTENCY_KEY_MAX));
      const monthly = current.automatic_tax?.enabled
        ? await call(action, () =>
            stripe.invoices.createPreview(
              {
                customer: idOf(current.customer),
                subscription: subscriptionId,
                subscription_details: { items: [{ id: item.id, quantity }], proration_behavior: 'none' },
              },
              { idempotencyKey: monthlyKey },
            ),
          )
        : null;
      return {
        quantity,
        // What Stripe will charge: the proration less the customer's credit balance (a decrease's, tax and all),
        // which the preview's `amount_due` has taken, as the invoice will (docs/decisions/0077).
        amountDueNowCents: preview.total > 0 ? preview.amount_due : 0,
        taxDueNowCents: preview.total > 0 ? taxChargedOf(preview) : 0,
        creditCents: Math.max(0, -preview.total),
        monthlyTotalCents: monthlyTotalCents(quantity),
        // The next month's invoice at the new seats, previewed without the proration: its tax is Stripe Tax's.
        monthlyTaxCents: monthly ? taxOf(monthly) : 0,
        nextChargeDate: periodEndOf(item.current_period_end),
        // Stripe's clock; confirming sends it back as `proration_date`.
        prorationDate: preview.parent?.subscription_details?.subscription_proration_date ?? Math.floor(Date.now() / 1000),
      };
    },

    async replaceCard({ customerId, subscriptionId, returnUrl, idempotencyKey }) {
      const url = await this.createPortalSession!({ customerId, subscriptionId, flow: 'card', returnUrl, idempotencyKey });
      return { kind: 'redirect' as const, url };
    },

    /**
     * Refunds `amountCents` across the subscription's paid invoices, newest first: one Refund per PaymentIntent
     * (Stripe API reference, "Create a refund": `payment_intent` and `amount`, at most what is left on its charge),
     * each with its own idempotency key and the request's key in its metadata (`refund_request`), so a retry of the
     * same request (after the cancel failed) finds what it refunded ("List all refunds") and refunds only the rest,
     * never twice; then cancels the subscription at once when `endNow` (cancelling a paid
     * subscription succeeds and keeps the money, which was refunded).
     */
    async refund({ subscriptionId, amountCents, endNow, idempotencyKey }) {
      const action = 'refund';
      const subscription = await call(action, () => stripe.subscriptions.retrieve(subscriptionId));
      const transactionId = subscription.metadata.transactionId;
      if (!transactionId) return { ok: false as const, refusal: 'not_allowed' as const };
      const invoices = await call(action, () =>
        stripe.invoices.list({ subscription: subscriptionId, status: 'paid', limit: 24, expand: ['data.payments'] }),
      );
      const payments: { paymentIntentId: string; refundableCents: number }[] = [];
      const events: PaymentEvent[] = [];
      const refundEvent = (refundId: string, paymentIntentId: string): PaymentEvent => ({
        eventId: `stripe:${refundId}:refunded`,
        kind: 'payment_refunded',
        providerType: 'refund.created',
        subscriptionId,
        transactionId,
        paymentId: paymentIntentId,
      });
      // A retry of the same request (its key) finds the refunds it already made, by their metadata, and makes
      // only the rest: the plan cannot be recomputed, since what is left to refund changed with them.
      let alreadyCents = 0;
      let paidSomething = false;
      for (const invoice of invoices.data) {
        const intentId = paymentIntentIdOf(invoice, '');
        if (!intentId) continue;
        paidSomething = true;
        const made = await call(action, () => stripe.refunds.list({ payment_intent: intentId, limit: 100 }));
        const mine = made.data.filter((refund) => refund.metadata?.refund_request === idempotencyKey && refund.status !== 'failed');
        for (const refund of mine) {
          alreadyCents += refund.amount;
          events.push(refundEvent(refund.id, intentId));
        }
        if (mine.length > 0) continue;
        const refunded = await this.retrieveRefundedPayment(intentId);
        if (refunded && !refunded.disputeHolds && refunded.amountCents > refunded.refundedCents)
          payments.push({ paymentIntentId: intentId, refundableCents: refunded.amountCents - refunded.refundedCents });
      }
      const refundable = payments.reduce((sum, payment) => sum + payment.refundableCents, 0);
      if (!paidSomething) return { ok: false as const, refusal: 'not_allowed' as const };
      const cents = amountCents === 'all' ? refundable : amountCents - alreadyCents;
      if (cents < 0 || cents > refundable || (cents === 0 && alreadyCents === 0))
        return { ok: false as const, refusal: 'amount_too_high' as const };
      let left = cents;
      for (const payment of payments) {
        if (left === 0) break;
        const part = Math.min(left, payment.refundableCents);
        if (part <= 0) continue;
        const refund = await call(action, () =>
          stripe.refunds.create(
            {
              payment_intent: payment.paymentIntentId,
              amount: part,
              metadata: { transactionId: metadataValue(transactionId), refund_request: metadataValue(idempotencyKey) },
            },
            { idempotencyKey: requireIdempotencyKey(`${idempotencyKey}:${payment.paymentIntentId}`) },
          ),
        );
        events.push(refundEvent(refund.id, payment.paymentIntentId));
        left -= part;
      }
      if (endNow && subscription.status !== 'canceled') {
        await call(action, () => stripe.subscriptions.cancel(subscriptionId));
      }
      return { ok: true as const, events };
    },

    /**
     * The dispute with its charge expanded (Stripe API reference, "Retrieve a dispute"): the PaymentIntent it
     * names, the charge's customer (to find the order), the amount, the status and `evidence_details.due_by`.
     * Closed `won`, or `warning_closed` (an inquiry that never became a chargeback), the money is the business's;
     * `lost` it is gone; any other status is open.
     */
    async retrieveDispute(disputeId: string) {
      let dispute: Stripe.Dispute;
      try {
        dispute = await stripe.disputes.retrieve(disputeId, { expand: ['charge'] });
      } catch (error) {
        if (isResourceMissing(error)) return null;
        throw toProviderError(error, 'retrieve dispute');
      }
      const charge = typeof dispute.charge === 'string' ? null : dispute.charge;
      const paymentId = dispute.payment_intent ? idOf(dispute.payment_intent) : charge?.payment_intent ? idOf(charge.payment_intent) : null;
      if (!paymentId) return null;
      const dueBy = dispute.evidence_details?.due_by;
      return {
        disputeId: dispute.id,
        paymentId,
        customerId: charge?.customer ? idOf(charge.customer) : null,
        amountCents: dispute.amount,
        status: dispute.status,
        outcome: dispute.status === 'won' || dispute.status === 'warning_closed' ? 'won' : dispute.status === 'lost' ? 'lost' : 'open',
        reason: dispute.reason || null,
        evidenceDueBy: typeof dueBy === 'number' && dueBy > 0 ? new Date(dueBy * 1000).toISOString() : null,
      } as const;
    },

    /**
     * The PaymentIntent's amount received, the tax in it (its invoice's, found through "List all payments for an
     * invoice" by `payment.payment_intent`), what its charge has refunded (`latest_charge.amount_refunded`), and
     * whether a dispute holds its money: on a `disputed` charge, a dispute under which Stripe says it cannot be
     * refunded (`is_charge_refundable` false: a chargeback open or lost; a refund is refused `charge_disputed`),
     * unless won (the money came back). Stripe API reference, "The Dispute object", "List all disputes".
     */
    async retrieveRefundedPayment(paymentIntentId: string) {
      let intent: Stripe.PaymentIntent;
      try {
        intent = await stripe.paymentIntents.retrieve(paymentIntentId, { expand: ['latest_charge'] });
      } catch (error) {
        if (isResourceMissing(error)) return null;
        throw toProviderError(error, 'retrieve refunded payment');
      }
      const charge = intent.latest_charge && typeof intent.latest_charge !== 'string' ? intent.latest_charge : null;
      let disputeHolds = false;
      if (charge?.disputed) {
        const disputes = await call('retrieve refunded payment', () => stripe.disputes.list({ payment_intent: intent.id, limit: 10 }));
        disputeHolds = disputes.data.some((dispute) => !dispute.is_charge_refundable && dispute.status !== 'won');
      }
      // The tax in the payment is its invoice's (`total_taxes`, less a credit's share): Stripe Tax splits a refund in
      // proportion to it.
      const paidInvoices = await call('retrieve refunded payment', () =>
        stripe.invoicePayments.list({ payment: { type: 'payment_intent', payment_intent: intent.id }, expand: ['data.invoice'], limit: 1 }),
      );
      const invoice = paidInvoices.data[0]?.invoice;
      const taxCents = invoice && typeof invoice !== 'string' && !invoice.deleted ? taxChargedOf(invoice) : 0;
      return {
        paymentId: intent.id,
        amountCents: intent.amount_received,
        taxCents,
        refundedCents: charge?.amount_refunded ?? 0,
        disputeHolds,
      };
    },
  };

  /**
   * Pays each open invoice of the subscription now, oldest first, with the payment method in effect (Stripe API
   * reference, "Pay an invoice"). A declined card is not a failure here: Stripe sends `invoice.payment_failed`.
   * Answers the ids of the invoices paid.
   */
  /**
   * The tax of a live, taxed subscription's next monthly invoice at its current seats, in cents (Stripe API
   * reference, "Create a preview invoice" for the subscription: its `total_taxes`); 0 for one untaxed, unpaid or
   * ended, without asking Stripe.
   */
  async function monthlyTaxOf(subscription: Stripe.Subscription): Promise<number> {
    const live = subscription.status === 'active' || subscription.status === 'past_due' || subscription.status === 'trialing';
    if (!live || !subscription.automatic_tax?.enabled) return 0;
    const owner = subscription.metadata.transactionId || subscription.id;
    const idempotencyKey = requireIdempotencyKey(`${owner}:monthly-tax:${randomUUID()}`.slice(0, IDEMPOTENCY_KEY_MAX));
    const preview = await call('preview monthly tax', () =>
      stripe.invoices.createPreview({ customer: idOf(subscription.customer), subscription: subscription.id }, { idempotencyKey }),
    );
    return taxOf(preview);
  }

  async function payOpenInvoices(subscriptionId: string, keyPrefix: string): Promise<string[]> {
    const action = 'pay open invoice';
    const open = await call(action, () => stripe.invoices.list({ subscription: subscriptionId, status: 'open', limit: 10 }));
    const paid: string[] = [];
    for (const invoice of [...open.data].reverse()) {
      try {
        await stripe.invoices.pay(
          invoice.id,
          {},
          { idempotencyKey: requireIdempotencyKey(`${keyPrefix}:${invoice.id}`.slice(0, IDEMPOTENCY_KEY_MAX)) },
        );
        paid.push(invoice.id);
      } catch (error) {
        if (!isCardDecline(error)) throw toProviderError(error, action);
      }
    }
    return paid;
  }

  /** Updates the subscription and answers the change as a PaymentEvent for the lifecycle. */
  async function updateSubscription(
    subscriptionId: string,
    action: string,
    params: Stripe.SubscriptionUpdateParams,
    idempotencyKey: string,
  ) {
    const updated = await call(action, () =>
      stripe.subscriptions.update(subscriptionId, params, { idempotencyKey: requireIdempotencyKey(idempotencyKey) }),
    );
    const transactionId = updated.metadata.transactionId;
    if (!transactionId) return { ok: false as const, refusal: 'not_allowed' as const };
    const event: PaymentEvent = {
      eventId: `stripe:${subscriptionId}:updated:${idempotencyKey}`,
      kind: 'subscription_updated',
      providerType: 'customer.subscription.updated',
      subscriptionId,
      transactionId,
    };
    return { ok: true as const, events: [event] };
  }
}

/** Stripe's portal feedback options, in words. */
const FEEDBACK_WORDS: Record<string, string> = {
  too_expensive: 'Too expensive',
  unused: 'Not using it',
  missing_features: 'Missing features',
  switched_service: 'Switched to another service',
  too_complex: 'Too complex',
  low_quality: 'Quality was too low',
  customer_service: 'Customer service',
  other: 'Other',
};

/** The reason the buyer gave in the Customer Portal: their comment, else the feedback option in words; null for none. */
function cancellationReasonOf(subscription: Stripe.Subscription): string | null {
  const details = subscription.cancellation_details;
  const comment = details?.comment?.trim();
  if (comment) return comment.slice(0, 500);
  return details?.feedback ? (FEEDBACK_WORDS[details.feedback] ?? details.feedback) : null;
}

/** The invoice states the console lists (drafts and voided invoices took no money). */
const LISTED_INVOICE_STATES = ['paid', 'open', 'uncollectible'] as const;

/** The webhook endpoint with its signing secret. */
function webhookRoutes(webhookSecret: string): FastifyPluginAsync<ProviderRouteOptions> {
  return async (app, options) => {
    await app.register(stripeWebhookRoute, { ...options, webhookSecret });
  };
}
