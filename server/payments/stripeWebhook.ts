/**
 * Stripe webhook events: verified by signature, then read into our PaymentEvent (provider.ts). Following
 * stripe-samples/accept-a-payment (style.md): the raw body is verified first, only an allow-list of types is
 * handled, and an object without our transactionId metadata is not ours.
 *
 * Shapes (API 2025-03-31.basil and later, so the pinned version too): an invoice names its subscription and a
 * snapshot of that subscription's metadata under `parent.subscription_details` (Stripe changelog, "Invoicing
 * resources now specify how they were generated"; `invoice.subscription` is gone). A subscription event carries
 * the subscription itself, with its `metadata`.
 */
import Stripe from 'stripe';
import type { PaymentEvent } from './provider';

/** The Stripe event types the webhook acts on, each mapped to our kind; any other type is acknowledged and ignored. */
export const HANDLED_STRIPE_EVENTS = {
  'invoice.paid': 'invoice_paid',
  'invoice.payment_failed': 'invoice_payment_failed',
  'customer.subscription.updated': 'subscription_updated',
  'customer.subscription.deleted': 'subscription_deleted',
} as const satisfies Record<string, PaymentEvent['kind']>;

/** The signature header is missing, does not match the secret, is older than the tolerance, or the body is not JSON. */
export class WebhookSignatureError extends Error {
  override readonly name = 'WebhookSignatureError';
}

/**
 * Verifies `rawBody` against the `Stripe-Signature` header with the endpoint's signing secret, allowing Stripe's
 * default 300 s between signing and now (stripe-node `webhooks.constructEvent`; Stripe docs, "Check the webhook
 * signatures"), and returns the event.
 * @throws WebhookSignatureError when the header is missing or repeated, or verification or parsing fails.
 */
export function verifyStripeEvent(
  rawBody: Buffer | undefined,
  signature: string | string[] | undefined,
  webhookSecret: string,
): Stripe.Event {
  if (typeof signature !== 'string' || signature === '') throw new WebhookSignatureError('Missing Stripe-Signature header');
  try {
    return Stripe.webhooks.constructEvent(rawBody ?? Buffer.alloc(0), signature, webhookSecret);
  } catch {
    throw new WebhookSignatureError('Invalid Stripe-Signature header');
  }
}

function idOf(value: string | { id: string } | null | undefined): string | null {
  if (!value) return null;
  return typeof value === 'string' ? value : value.id;
}

/** The subscription and our transactionId an event is about; null when the object is not one of ours. */
function subjectOf(event: Stripe.Event): { subscriptionId: string; transactionId: string } | null {
  let subscriptionId: string | null = null;
  let transactionId: string | undefined;
  if (event.type === 'invoice.paid' || event.type === 'invoice.payment_failed') {
    const details = event.data.object.parent?.subscription_details;
    subscriptionId = idOf(details?.subscription);
    transactionId = details?.metadata?.transactionId;
  } else if (event.type === 'customer.subscription.updated' || event.type === 'customer.subscription.deleted') {
    subscriptionId = event.data.object.id ?? null;
    transactionId = event.data.object.metadata?.transactionId;
  }
  return subscriptionId && transactionId ? { subscriptionId, transactionId } : null;
}

/**
 * Reads a verified event: `{ event }` for an allow-listed type about one of our subscriptions, else why it is
 * ignored ('unhandled_type', or 'not_ours' when the object has no subscription or no transactionId metadata).
 */
export function readStripeEvent(
  event: Stripe.Event,
): { event: PaymentEvent } | { ignored: 'unhandled_type' | 'not_ours' } {
  const kind = (HANDLED_STRIPE_EVENTS as Record<string, PaymentEvent['kind']>)[event.type];
  if (!kind) return { ignored: 'unhandled_type' };
  const subject = subjectOf(event);
  if (!subject) return { ignored: 'not_ours' };
  return { event: { eventId: event.id, kind, providerType: event.type, ...subject } };
}
