/** As stripe-samples/accept-a-payment (style.md): raw body first, an allow-list of types, only objects of ours. */
import Stripe from 'stripe';
import type { PaymentEvent } from '../provider';

/** Any other type is acknowledged and ignored. */
const HANDLED_STRIPE_EVENTS = {
  'invoice.paid': 'invoice_paid',
  'invoice.payment_failed': 'invoice_payment_failed',
  // A renewal asking for 3-D Secure is unpaid like a failed one.
  'invoice.payment_action_required': 'invoice_payment_failed',
  'customer.subscription.updated': 'subscription_updated',
  'customer.subscription.deleted': 'subscription_deleted',
} as const satisfies Record<string, PaymentEvent['kind']>;

/** The Customer Portal's card update: the subscriptions follow the customer's default; the order does not change. */
const DEFAULT_PAYMENT_METHOD_EVENT = 'customer.updated';

/** The charge names its customer, not our transactionId: the order is found by its customer (one per checkout). */
const REFUND_EVENT = 'charge.refunded';

/** Stripe docs, "Disputes": each is read by re-fetching the dispute (events arrive out of order). */
const DISPUTE_EVENTS = [
  'charge.dispute.created',
  'charge.dispute.updated',
  'charge.dispute.closed',
  'charge.dispute.funds_withdrawn',
  'charge.dispute.funds_reinstated',
];

/** The card closed after the refund: the charge's refunded amount goes down; its payment is read again. */
const REFUND_UPDATE_EVENTS = ['refund.failed', 'charge.refund.updated'];

/** `npm run stripe:setup` */
export const STRIPE_WEBHOOK_EVENTS: string[] = [
  ...Object.keys(HANDLED_STRIPE_EVENTS),
  DEFAULT_PAYMENT_METHOD_EVENT,
  REFUND_EVENT,
  ...DISPUTE_EVENTS,
  ...REFUND_UPDATE_EVENTS,
];

/** `du_…`, and `dp_…` for some payment methods; anything else is never sent to Stripe. */
const DISPUTE_ID = /^(du|dp)_[A-Za-z0-9]{1,250}$/;

export function readDisputeEvent(event: Stripe.Event): { disputeId: string } | null {
  if (!DISPUTE_EVENTS.includes(event.type)) return null;
  const disputeId = idOf(recordOf(recordOf(event.data)?.object)?.id);
  return disputeId && DISPUTE_ID.test(disputeId) ? { disputeId } : null;
}

/** Other updates change no money. */
export function readFailedRefund(event: Stripe.Event): { paymentIntentId: string } | null {
  if (!REFUND_UPDATE_EVENTS.includes(event.type)) return null;
  const refund = recordOf(recordOf(event.data)?.object);
  if (refund?.status !== 'failed') return null;
  const paymentIntentId = idOf(refund.payment_intent);
  return paymentIntentId ? { paymentIntentId } : null;
}

export function readRefundedCharge(event: Stripe.Event): { customerId: string; paymentIntentId: string } | null {
  if (event.type !== REFUND_EVENT) return null;
  const charge = recordOf(recordOf(event.data)?.object);
  const customerId = idOf(charge?.customer);
  const paymentIntentId = idOf(charge?.payment_intent);
  return customerId && paymentIntentId ? { customerId, paymentIntentId } : null;
}

export class WebhookSignatureError extends Error {
  override readonly name = 'WebhookSignatureError';
}

export class MalformedWebhookEventError extends Error {
  override readonly name = 'MalformedWebhookEventError';
}

/** Anything longer is no Stripe id, and could not be a key of webhook_events' index. */
const MAX_ID_LENGTH = 255;

/** No control character (PostgreSQL refuses NUL) and no lone surrogate. */
function isPlainId(value: unknown): value is string {
  return typeof value === 'string' && value.length <= MAX_ID_LENGTH && /^[^\p{Cc}\p{Cs}]+$/u.test(value);
}

/** @throws MalformedWebhookEventError naming the first field that is not what every later step relies on. */
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
 * Stripe's default 300 s tolerance (Stripe docs, "Check the webhook signatures"). @throws WebhookSignatureError when
 * the header is missing, repeated or wrong; MalformedWebhookEventError when the body is no event we can read.
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
  // constructEvent bounds the age only; a timestamp from the future is as suspect.
  const signedAt = Number(/(?:^|,)t=(\d+)/.exec(signature)?.[1]);
  if (!Number.isFinite(signedAt) || signedAt - Math.floor(now / 1000) > SIGNATURE_TOLERANCE_SECONDS) {
    throw new WebhookSignatureError('Stripe-Signature timestamp is in the future');
  }
  assertEventShape(event);
  return event;
}

/** Seconds, both ways. */
const SIGNATURE_TOLERANCE_SECONDS = 300;

type UnknownRecord = Record<string, unknown>;

function recordOf(value: unknown): UnknownRecord | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as UnknownRecord) : null;
}

function idOf(value: unknown): string | null {
  if (isPlainId(value)) return value;
  const id = recordOf(value)?.id;
  return isPlainId(id) ? id : null;
}

function transactionIdIn(metadata: unknown): string | null {
  const value = recordOf(metadata)?.transactionId;
  return isPlainId(value) ? value : null;
}

/** Both where 2025-03-31.basil puts them and where older versions did, so an older endpoint ignores no payment. */
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

/** Never throws for a signed event, so Stripe is never answered 500 for its shape. */
export function readStripeEvent(event: Stripe.Event): { event: PaymentEvent } | { ignored: 'unhandled_type' | 'not_ours' } {
  const kind = Object.hasOwn(HANDLED_STRIPE_EVENTS, event.type)
    ? (HANDLED_STRIPE_EVENTS as Record<string, PaymentEvent['kind']>)[event.type]
    : undefined;
  if (!kind) return { ignored: 'unhandled_type' };
  const subject = subjectOf(event);
  if (!subject) return { ignored: 'not_ours' };
  return { event: { eventId: event.id, kind, providerType: event.type, ...subject } };
}

/** A `customer.updated` whose `previous_attributes.invoice_settings` names `default_payment_method`. */
export function readDefaultPaymentMethodChange(event: Stripe.Event): { customerId: string } | null {
  if (event.type !== DEFAULT_PAYMENT_METHOD_EVENT) return null;
  const data = recordOf(event.data);
  const customer = recordOf(data?.object);
  const previous = recordOf(recordOf(data?.previous_attributes)?.invoice_settings);
  const customerId = idOf(customer?.id);
  if (!customerId || !transactionIdIn(customer?.metadata) || !previous || !('default_payment_method' in previous)) return null;
  return { customerId };
}
