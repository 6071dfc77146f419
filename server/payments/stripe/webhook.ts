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
import type { PaymentEvent } from '../provider';

/** The Stripe event types the webhook acts on, each mapped to our kind; any other type is acknowledged and ignored. */
const HANDLED_STRIPE_EVENTS = {
  'invoice.paid': 'invoice_paid',
  'invoice.payment_failed': 'invoice_payment_failed',
  // A renewal whose card asks for authentication (3-D Secure) is unpaid like a failed one: the same mail, past due.
  'invoice.payment_action_required': 'invoice_payment_failed',
  'customer.subscription.updated': 'subscription_updated',
  'customer.subscription.deleted': 'subscription_deleted',
} as const satisfies Record<string, PaymentEvent['kind']>;

/**
 * The event after which the subscriptions' payment method is brought in line with the customer's default: the
 * Customer Portal's card update sets the customer's `invoice_settings.default_payment_method` (stripe.ts,
 * `syncDefaultPaymentMethod`). Not a PaymentEvent: the order does not change.
 */
const DEFAULT_PAYMENT_METHOD_EVENT = 'customer.updated';

/**
 * A refund, from our console (refunds.create) or from Stripe's Dashboard: the charge names its customer and
 * PaymentIntent but not our transactionId, so the order is found by its customer (one per checkout).
 */
const REFUND_EVENT = 'charge.refunded';

/**
 * A dispute (chargeback) opened, changed, closed, or its funds withdrawn or reinstated (Stripe docs, "Disputes"):
 * each is read the same way, by re-fetching the dispute (events arrive out of order).
 */
const DISPUTE_EVENTS = [
  'charge.dispute.created',
  'charge.dispute.updated',
  'charge.dispute.closed',
  'charge.dispute.funds_withdrawn',
  'charge.dispute.funds_reinstated',
];

/**
 * A refund that failed after it was made (the card closed): `refund.failed`, or `charge.refund.updated` with the
 * refund's status `failed`. The charge's refunded amount goes down by it; its payment is read again.
 */
const REFUND_UPDATE_EVENTS = ['refund.failed', 'charge.refund.updated'];

/** Every event type the webhook endpoint subscribes to (`npm run stripe:setup`). */
export const STRIPE_WEBHOOK_EVENTS: string[] = [
  ...Object.keys(HANDLED_STRIPE_EVENTS),
  DEFAULT_PAYMENT_METHOD_EVENT,
  REFUND_EVENT,
  ...DISPUTE_EVENTS,
  ...REFUND_UPDATE_EVENTS,
];

/** Stripe's dispute ids (`du_…`, and `dp_…` for some payment methods); anything else is never sent to Stripe. */
const DISPUTE_ID = /^(du|dp)_[A-Za-z0-9]{1,250}$/;

/** A `charge.dispute.*` event's dispute id; null for any other event or a dispute without a Stripe-shaped id. */
export function readDisputeEvent(event: Stripe.Event): { disputeId: string } | null {
  if (!DISPUTE_EVENTS.includes(event.type)) return null;
  const disputeId = idOf(recordOf(recordOf(event.data)?.object)?.id);
  return disputeId && DISPUTE_ID.test(disputeId) ? { disputeId } : null;
}

/**
 * A failed refund's PaymentIntent: `refund.failed`, or `charge.refund.updated` whose refund is now `failed`
 * (other updates change no money); null otherwise.
 */
export function readFailedRefund(event: Stripe.Event): { paymentIntentId: string } | null {
  if (!REFUND_UPDATE_EVENTS.includes(event.type)) return null;
  const refund = recordOf(recordOf(event.data)?.object);
  if (refund?.status !== 'failed') return null;
  const paymentIntentId = idOf(refund.payment_intent);
  return paymentIntentId ? { paymentIntentId } : null;
}

/** A `charge.refunded` event's customer and PaymentIntent; null for any other event or a charge without them. */
export function readRefundedCharge(event: Stripe.Event): { customerId: string; paymentIntentId: string } | null {
  if (event.type !== REFUND_EVENT) return null;
  const charge = recordOf(recordOf(event.data)?.object);
  const customerId = idOf(charge?.customer);
  const paymentIntentId = idOf(charge?.payment_intent);
  return customerId && paymentIntentId ? { customerId, paymentIntentId } : null;
}

/** The signature header is missing, does not match the secret, is older than the tolerance, or the body is not JSON. */
export class WebhookSignatureError extends Error {
  override readonly name = 'WebhookSignatureError';
}

/** A signed body that is not an event: not an object, or without a plain `id`, a plain `type` or a `data.object`. */
export class MalformedWebhookEventError extends Error {
  override readonly name = 'MalformedWebhookEventError';
}

/** Stripe's ids are short; anything longer is not one (and could not be a key of webhook_events' index). */
const MAX_ID_LENGTH = 255;

/**
 * An id or event type we may read, log and store: 1 to MAX_ID_LENGTH characters, no control character
 * (PostgreSQL refuses NUL in text) and no lone surrogate (not valid Unicode).
 */
function isPlainId(value: unknown): value is string {
  return typeof value === 'string' && value.length <= MAX_ID_LENGTH && /^[^\p{Cc}\p{Cs}]+$/u.test(value);
}

/**
 * Checks the shape every later step relies on: an object whose `id` and `type` are plain ids (isPlainId), whose
 * `data.object` is an object, and whose `api_version`, when present, is a string or null.
 * @throws MalformedWebhookEventError naming the first field that is not.
 */
function assertEventShape(event: unknown): asserts event is Stripe.Event {
  const record = recordOf(event);
  if (!record) throw new MalformedWebhookEventError('The event is not an object');
  if (!isPlainId(record.id)) throw new MalformedWebhookEventError('The event id is not a plain id');
  if (!isPlainId(record.type)) throw new MalformedWebhookEventError('The event type is not a plain id');
  if (!recordOf(recordOf(record.data)?.object)) throw new MalformedWebhookEventError('The event has no data.object');
  const version = record.api_version;
  if (version !== undefined && version !== null && typeof version !== 'string') {
    throw new MalformedWebhookEventError('The event api_version is not a string');
  }
}

/**
 * Verifies `rawBody` against the `Stripe-Signature` header with the endpoint's signing secret, allowing Stripe's
 * default 300 s between signing and now (stripe-node `webhooks.constructEvent`; Stripe docs, "Check the webhook
 * signatures"), and returns the event once its shape is checked (assertEventShape).
 * @throws WebhookSignatureError when the header is missing or repeated, or verification or parsing fails.
 * @throws MalformedWebhookEventError when the signed body is not an event we can read.
 */
export function verifyStripeEvent(
  rawBody: Buffer | undefined,
  signature: string | string[] | undefined,
  webhookSecret: string,
  now: number = Date.now(),
): Stripe.Event {
  if (typeof signature !== 'string' || signature === '') throw new WebhookSignatureError('Missing Stripe-Signature header');
  let event: Stripe.Event;
  try {
    event = Stripe.webhooks.constructEvent(rawBody ?? Buffer.alloc(0), signature, webhookSecret);
  } catch {
    throw new WebhookSignatureError('Invalid Stripe-Signature header');
  }
  // constructEvent bounds the signature's age only; a timestamp from the future is as suspect as a stale one.
  const signedAt = Number(/(?:^|,)t=(\d+)/.exec(signature)?.[1]);
  if (!Number.isFinite(signedAt) || signedAt - Math.floor(now / 1000) > SIGNATURE_TOLERANCE_SECONDS) {
    throw new WebhookSignatureError('Stripe-Signature timestamp is in the future');
  }
  assertEventShape(event);
  return event;
}

/** Stripe's default tolerance between signing and verifying, in seconds, applied both ways. */
const SIGNATURE_TOLERANCE_SECONDS = 300;

type UnknownRecord = Record<string, unknown>;

function recordOf(value: unknown): UnknownRecord | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as UnknownRecord) : null;
}

/** An id given as a string or as an expanded object with a string `id`, if a plain one (isPlainId); null otherwise. */
function idOf(value: unknown): string | null {
  if (isPlainId(value)) return value;
  const id = recordOf(value)?.id;
  return isPlainId(id) ? id : null;
}

function transactionIdIn(metadata: unknown): string | null {
  const value = recordOf(metadata)?.transactionId;
  return isPlainId(value) ? value : null;
}

/**
 * The subscription and our transactionId an event is about; null when the object is not one of ours or not the
 * shape we read. Invoices carry them under `parent.subscription_details` since API 2025-03-31.basil, and at the
 * top level (`subscription`, `subscription_details.metadata`) before: both are read, so an endpoint still on an
 * older API version does not silently ignore every payment.
 */
function subjectOf(event: Stripe.Event): { subscriptionId: string; transactionId: string } | null {
  const object = recordOf(recordOf(event.data)?.object);
  if (!object) return null;
  let subscriptionId: string | null = null;
  let transactionId: string | null = null;
  if (event.type === 'invoice.paid' || event.type === 'invoice.payment_failed' || event.type === 'invoice.payment_action_required') {
    const details = recordOf(recordOf(object.parent)?.subscription_details);
    const legacyDetails = recordOf(object.subscription_details);
    subscriptionId = idOf(details?.subscription) ?? idOf(object.subscription);
    transactionId = transactionIdIn(details?.metadata) ?? transactionIdIn(legacyDetails?.metadata);
  } else if (event.type === 'customer.subscription.updated' || event.type === 'customer.subscription.deleted') {
    subscriptionId = idOf(object.id);
    transactionId = transactionIdIn(object.metadata);
  }
  return subscriptionId && transactionId ? { subscriptionId, transactionId } : null;
}

/**
 * Reads a verified event: `{ event }` for an allow-listed type about one of our subscriptions, else why it is
 * ignored ('unhandled_type', or 'not_ours' when the object is missing, malformed, has no subscription or no
 * transactionId metadata). Never throws for a signed event, so Stripe is never answered 500 for its shape.
 */
export function readStripeEvent(event: Stripe.Event): { event: PaymentEvent } | { ignored: 'unhandled_type' | 'not_ours' } {
  const kind = Object.hasOwn(HANDLED_STRIPE_EVENTS, event.type)
    ? (HANDLED_STRIPE_EVENTS as Record<string, PaymentEvent['kind']>)[event.type]
    : undefined;
  if (!kind) return { ignored: 'unhandled_type' };
  const subject = subjectOf(event);
  if (!subject) return { ignored: 'not_ours' };
  return { event: { eventId: event.id, kind, providerType: event.type, ...subject } };
}

/**
 * The customer whose default payment method an event changed: a `customer.updated` about one of our customers
 * (transactionId metadata) whose `previous_attributes.invoice_settings` names `default_payment_method`; null for
 * any other event.
 */
export function readDefaultPaymentMethodChange(event: Stripe.Event): { customerId: string } | null {
  if (event.type !== DEFAULT_PAYMENT_METHOD_EVENT) return null;
  const data = recordOf(event.data);
  const customer = recordOf(data?.object);
  const previous = recordOf(recordOf(data?.previous_attributes)?.invoice_settings);
  const customerId = idOf(customer?.id);
  if (!customerId || !transactionIdIn(customer?.metadata) || !previous || !('default_payment_method' in previous)) return null;
  return { customerId };
}
