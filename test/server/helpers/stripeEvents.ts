/**
 * Stripe webhook deliveries for the server tests: Stripe-shaped events around the fixtures of
 * test/server/fixtures/stripe/, signed with the SDK's own `webhooks.generateTestHeaderString`, and orders
 * written straight into the database so each test owns its ids (the Stripe double answers the re-fetches).
 */
import { randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import { monthlyTotalCents } from '../../../src/domain/pricing';
import { orders } from '../../../server/db/schema';
import { STRIPE_API_VERSION } from '../../../server/payments/stripe/client';
import type { TestServer } from '../helper';
import { fixture, TEST_SECRET_KEY } from './stripeDouble';

/** The endpoint's signing secret in these tests; valid nowhere. */
export const TEST_WEBHOOK_SECRET = 'whsec_referralCheckoutTestSecret0000';

const WEBHOOK = '/api/stripe/webhook';

/** The environment of a test server in Stripe mode, talking to the Stripe double at `apiBase`. */
export function stripeTestEnv(apiBase: string): Record<string, string> {
  return {
    STRIPE_SECRET_KEY: TEST_SECRET_KEY,
    STRIPE_PUBLISHABLE_KEY: 'pk_test_referralCheckout',
    STRIPE_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
    STRIPE_API_BASE: apiBase,
  };
}

/** An order of the Stripe provider, as call 1 writes it; ids unique to the test. */
export interface TestOrder {
  transactionId: string;
  customerId: string;
  subscriptionId: string;
  subscriptionItemId: string;
  paymentIntentId: string;
  clientSecret: string;
  quantity: number;
}

let sequence = 0;

/** Writes an open order of `quantity` seats, as POST /api/create-anon-subscription-intent would with Stripe. */
export async function insertStripeOrder(server: TestServer, quantity = 3): Promise<TestOrder> {
  sequence += 1;
  const tag = `Wh${sequence}${randomUUID().slice(0, 8)}`;
  const order: TestOrder = {
    transactionId: randomUUID(),
    customerId: `cus_${tag}`,
    subscriptionId: `sub_${tag}`,
    subscriptionItemId: `si_${tag}`,
    paymentIntentId: `pi_${tag}`,
    clientSecret: `pi_${tag}_secret_${randomUUID().replace(/-/g, '')}`,
    quantity,
  };
  await server.db.insert(orders).values({
    ...order,
    provider: 'stripe',
    amountCents: monthlyTotalCents(quantity),
    affiliateId: 'dr-sample',
    affiliateSource: 'https://checkout.test/',
  });
  return order;
}

type Json = Record<string, unknown>;

interface SubscriptionState {
  /** Stripe subscription status; default 'active'. */
  status?: string;
  /** The first (latest) invoice's status; default 'paid'. */
  invoiceStatus?: string;
  /** Amount paid on it, in cents; default the order's monthly total when paid, else 0. */
  amountPaid?: number;
  /** Another subscription id than the order's (a replaced one). */
  subscriptionId?: string;
}

/** The order's first invoice as Stripe returns it (API 2025-03-31.basil+: subscription under `parent`). */
export function invoiceFor(order: TestOrder, state: SubscriptionState = {}): Json {
  const invoice = fixture<{ latest_invoice: Json }>('subscription-active').latest_invoice;
  const subscriptionId = state.subscriptionId ?? order.subscriptionId;
  const status = state.invoiceStatus ?? 'paid';
  const total = monthlyTotalCents(order.quantity);
  return {
    ...invoice,
    id: `in_${subscriptionId.slice(4)}`,
    customer: order.customerId,
    status,
    amount_due: total,
    amount_paid: state.amountPaid ?? (status === 'paid' ? total : 0),
    amount_remaining: status === 'paid' ? 0 : total,
    subtotal: total,
    total,
    total_excluding_tax: total,
    total_taxes: [],
    parent: {
      quote_details: null,
      subscription_details: { metadata: { transactionId: order.transactionId }, subscription: subscriptionId },
      type: 'subscription_details',
    },
  };
}

/** The order's subscription as GET /v1/subscriptions/:id?expand[]=latest_invoice answers it. */
export function subscriptionFor(order: TestOrder, state: SubscriptionState = {}): Json {
  const subscription = fixture<Json & { items: { data: Json[] } }>('subscription-active');
  const [item] = subscription.items.data;
  const id = state.subscriptionId ?? order.subscriptionId;
  const status = state.status ?? 'active';
  return {
    ...subscription,
    id,
    customer: order.customerId,
    status,
    canceled_at: status === 'canceled' ? 1767229200 : null,
    ended_at: status === 'canceled' ? 1767229200 : null,
    metadata: { transactionId: order.transactionId },
    items: { ...subscription.items, data: [{ ...item, id: order.subscriptionItemId, quantity: order.quantity, subscription: id }] },
    latest_invoice: invoiceFor(order, state),
  };
}

/** The order's PaymentIntent, succeeded, with its card's billing details (GET …?expand[]=payment_method). */
export function paymentIntentFor(order: TestOrder, billing = { name: 'Jane Doe', email: 'jane@example.com' }): Json {
  const intent = fixture<Json & { payment_method: Json & { billing_details: Json } }>('payment-intent-succeeded');
  return {
    ...intent,
    id: order.paymentIntentId,
    client_secret: order.clientSecret,
    customer: order.customerId,
    amount: monthlyTotalCents(order.quantity),
    amount_received: monthlyTotalCents(order.quantity),
    payment_method: { ...intent.payment_method, billing_details: { ...intent.payment_method.billing_details, ...billing } },
  };
}

/** A v1 snapshot event of `type` carrying `object` (Stripe docs, "The Event object"). */
export function stripeEvent(type: string, object: Json, id = `evt_${randomUUID().replace(/-/g, '')}`): Json {
  return {
    id,
    object: 'event',
    api_version: STRIPE_API_VERSION,
    created: Math.floor(Date.now() / 1000),
    data: { object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  };
}

interface DeliveryOptions {
  /** Sign with another secret (a forgery). */
  secret?: string;
  /** Sign at this Unix time, in seconds (a stale delivery). */
  timestamp?: number;
  /** Send this header instead of a computed one; null sends none. */
  signature?: string | null;
  contentType?: string;
}

/** POSTs `event` (or a raw string) to the webhook as Stripe does: the JSON body and its Stripe-Signature. */
export function deliver(server: TestServer, event: Json | string, options: DeliveryOptions = {}) {
  const payload = typeof event === 'string' ? event : JSON.stringify(event, null, 2);
  const signature =
    options.signature !== undefined
      ? options.signature
      : Stripe.webhooks.generateTestHeaderString({
          payload,
          secret: options.secret ?? TEST_WEBHOOK_SECRET,
          ...(options.timestamp !== undefined && { timestamp: options.timestamp }),
        });
  return server.app.inject({
    method: 'POST',
    url: WEBHOOK,
    headers: {
      'content-type': options.contentType ?? 'application/json; charset=utf-8',
      ...(signature !== null && { 'stripe-signature': signature }),
    },
    payload,
  });
}
