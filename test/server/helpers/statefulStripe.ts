/**
 * A stateful Stripe API double: an HTTP server on 127.0.0.1 that keeps products, prices, Customer Portal
 * configurations, customers, payment methods, subscriptions, invoices, PaymentIntents, charges, refunds and
 * events, and answers the requests the Stripe adapter (server/payments/stripe/provider.ts) and `npm run stripe:setup`
 * (server/payments/stripe/setup.ts) send, as Stripe does (Stripe API reference, API 2026-10-28.endive):
 *
 * - Expansion: an expandable field is an id (`latest_invoice`, `payment_method`), and an includable one
 *   (`confirmation_secret`, `payments`, a Price's `tiers`) is absent, unless the request's `expand[]` names it;
 *   expanding anything else is refused 400, as Stripe does ("Expanding responses").
 * - Idempotency ("Idempotent requests"): only a successful (2xx) answer is kept under its Idempotency-Key and
 *   replayed for the same parameters; the same key with other parameters after a success is 400
 *   `idempotency_error`. A refused (4xx) request is not kept: the same key may be used again.
 * - Parameters: each endpoint accepts the parameters the app sends, in Stripe's bracket notation; any other is
 *   refused 400 `parameter_unknown`.
 * - Prices: a subscription's invoices are priced from its Price's tiers (graduated or volume, `flat_amount`
 *   too), never from the app's pricing rule. The double starts with the catalogue and portal configuration made
 *   by the app's own setup (`ensureStripeCatalogue`, `ensurePortalConfiguration`) unless `setup: false`.
 * - Subscriptions are created in flexible billing mode: `incomplete` with an open first invoice; one still
 *   incomplete 23 hours later (the double's clock, `advanceClock`) is `incomplete_expired` and its invoice void.
 *   A portal cancellation sets `cancel_at` to the period's end and leaves `cancel_at_period_end` false.
 * - Payments happen through test controls (`pay`, `authenticate`, `renew`, `retry`), since the browser
 *   confirms with Stripe.js. The payment method charged for a renewal is the invoice's subscription's
 *   `default_payment_method`, else the customer's `invoice_settings.default_payment_method` ("Subscription
 *   object": the subscription's default overrides the customer's).
 * - Refunds: POST /v1/refunds on a charge or a PaymentIntent, at most what is left unrefunded, else 400; listed
 *   by PaymentIntent or charge, newest first; `failRefund` makes one fail later (`refund.failed`). A charge under a
 *   chargeback (open or lost) is not refunded: 400 `charge_disputed`.
 * - Disputes: `dispute` opens one on a payment (as test card 4000 0000 0000 0259 does), `closeDispute` decides it;
 *   GET /v1/disputes/:id (with `charge` expandable) reads it, with each change's `charge.dispute.*` event; the
 *   charge says `disputed`, and GET /v1/disputes?payment_intent= lists them.
 * - Seat changes ("Prorations", "Pending updates"): `proration_behavior: 'always_invoice'` invoices the proration at
 *   once (`billing_reason: 'subscription_update'`), by the seconds left in the period, each line rounded; a positive
 *   one is charged to the payment method in effect. With `payment_behavior: 'pending_if_incomplete'` a declined
 *   charge leaves the quantity as it was and records `pending_update` (23 hours), applied when that invoice is paid,
 *   dropped when it is voided or expires (`customer.subscription.pending_update_expired`). A negative proration is
 *   the customer's credit `balance`, taken off the next invoice. `invoices/create_preview` previews the same
 *   invoice; `invoices/:id/pay` charges an open invoice now (402 `card_declined` when the card declines).
 * - Stripe Tax ("Collect taxes for recurring payments"; "The Invoice object"): a subscription or preview with
 *   `automatic_tax.enabled` whose customer's address places it (US: by the ZIP's first three digits) in a state of
 *   `taxRegistrations` (default DEFAULT_TAX_REGISTRATIONS: HI 4.712 %, AZ 0) gets each invoice line's exclusive tax
 *   (the Price's `tax_behavior: 'exclusive'`), rounded half up per line (src/domain/tax.ts `taxCents`); a proration's
 *   credit line carries its tax negated. `total_taxes` aggregates it (one entry, `taxability_reason`
 *   'standard_rated', 'not_subject_to_tax' at rate 0, 'not_collecting' where not registered, with 0);
 *   `total_excluding_tax` and `subtotal` are the lines before tax, `total` with it, and `amount_due` is `total` less
 *   the customer's credit balance. A negative total (a seat decrease) goes, tax and all, to the customer's
 *   `balance`, which the next invoices take after tax (`starting_balance`, `ending_balance`). `customers.update`
 *   with `tax.validate_location: 'immediately'` refuses an address it cannot place, 400
 *   `customer_tax_location_invalid`, and saves nothing; `expand[]=tax` answers `tax.automatic_tax` ('supported',
 *   'not_collecting', 'unrecognized_location') and `tax.location`. Without `automatic_tax` an invoice has no tax and
 *   `total_taxes` is empty.
 * - Events: every change a webhook would report is recorded as a Stripe event (`events`), with
 *   `previous_attributes` for updates, for a test to deliver to the webhook route.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createStripeClient, STRIPE_API_VERSION } from '../../../server/payments/stripe/client';
import { DEFAULT_PRICE_LOOKUP_KEY } from '../../../server/payments/stripe/catalogue';
import { ensurePortalConfiguration, ensureStripeCatalogue } from '../../../server/payments/stripe/setup';
import { DEFAULT_TAX_REGISTRATIONS, taxCents, type TaxRegistration } from '../../../src/domain/tax';
import { TEST_SECRET_KEY } from './stripeDouble';

type Json = Record<string, unknown>;

interface Tier {
  up_to: number | null;
  unit_amount: number | null;
  flat_amount: number | null;
}
interface Price {
  id: string;
  product: string;
  currency: string;
  active: boolean;
  lookup_key: string | null;
  billing_scheme: string;
  tiers_mode: string | null;
  tiers: Tier[];
  unit_amount: number | null;
  recurring: { interval: string; interval_count: number; usage_type: string };
  nickname: string | null;
  /** Stripe's `tax_behavior`: 'unspecified' unless the Price was created with one. */
  tax_behavior: string;
  metadata: Record<string, string>;
}
interface Customer {
  id: string;
  email: string | null;
  name: string | null;
  default_payment_method: string | null;
  /** Credit (negative) or debt in cents, taken into the next invoice (a decrease's proration leaves credit). */
  balance: number;
  metadata: Record<string, string>;
  /** The buyer's location as the checkout sets it (country and postal code only); null until set. */
  address: { country: string; postal_code: string | null } | null;
}
interface PaymentMethod {
  id: string;
  customer: string | null;
  /** A card that declines every charge from now on (expired, stolen, insufficient funds). */
  declines: boolean;
  billing_details: { name: string | null; email: string | null };
}
/** An invoice line's amount before tax and its exclusive tax, in cents (a credit line is negative in both). */
interface Line {
  amount: number;
  tax: number;
}
interface Invoice {
  id: string;
  subscription: string;
  customer: string;
  status: 'open' | 'paid' | 'void';
  billing_reason: 'subscription_create' | 'subscription_cycle' | 'subscription_update';
  /** Its lines; the sums are `total_excluding_tax` and `total_taxes`, their sum `total` (negative for a credit). */
  lines: Line[];
  /** Where Stripe Tax placed the customer and at what rate, or null when the invoice is not taxed. */
  taxation: Taxation | null;
  /** The customer's balance before and after this invoice (negative: credit). */
  starting_balance: number;
  ending_balance: number;
  /** `total` less the credit taken from the customer's balance, never below 0: what is charged. */
  amount_due: number;
  amount_paid: number;
  payment_intent: string;
  metadata: Record<string, string>;
  attempt_count: number;
  /** Seconds since the epoch, on the double's clock. */
  created: number;
}
interface PaymentIntent {
  id: string;
  client_secret: string;
  amount: number;
  amount_received: number;
  customer: string;
  status: 'requires_payment_method' | 'requires_action' | 'succeeded' | 'canceled';
  payment_method: string | null;
  latest_charge: string | null;
}
interface Charge {
  id: string;
  payment_intent: string;
  customer: string;
  amount: number;
  amount_refunded: number;
  /** The dispute opened on it, if any (a charge is disputed once); the API shows only `disputed`. */
  dispute: string | null;
}
/** A dispute of a charge (Stripe API reference, "The Dispute object"). */
interface Dispute {
  id: string;
  charge: string;
  payment_intent: string;
  amount: number;
  reason: string;
  status: 'warning_needs_response' | 'needs_response' | 'under_review' | 'won' | 'lost';
  /** Unix seconds; 0 when the bank takes no evidence. */
  due_by: number;
  created: number;
}
interface Subscription {
  id: string;
  customer: string;
  status: 'incomplete' | 'incomplete_expired' | 'active' | 'past_due' | 'canceled' | 'unpaid' | 'paused';
  price: string;
  quantity: number;
  item: string;
  latest_invoice: string;
  created: number;
  current_period_start: number;
  current_period_end: number;
  cancel_at: number | null;
  cancel_at_period_end: boolean;
  /** What the buyer gave in the portal when cancelling (`cancellation_details`). */
  cancellation_details: { comment: string | null; feedback: string | null };
  default_payment_method: string | null;
  /** A seat change waiting for its proration invoice (`invoice`) to be paid; null when none. */
  pending_update: { quantity: number; invoice: string; expires_at: number } | null;
  save_default_payment_method: boolean;
  automatic_tax: boolean;
  metadata: Record<string, string>;
}
interface Answer {
  status: number;
  body: unknown;
}
/** Stripe Tax's reasons the double gives: registered and taxed, registered at rate 0, not registered there. */
type TaxabilityReason = 'standard_rated' | 'not_subject_to_tax' | 'not_collecting';
/** Where Stripe Tax placed a customer and the rate it charges there, in millionths. */
interface Taxation {
  state: string | null;
  rateMillionths: number;
  reason: TaxabilityReason;
}

/** How long an incomplete subscription waits for its first payment (Stripe docs, "Subscription statuses"). */
const INCOMPLETE_WINDOW_SECONDS = 23 * 60 * 60;
const MONTH_SECONDS = 30 * 24 * 60 * 60;

const newId = (prefix: string) => `${prefix}_${randomBytes(8).toString('hex')}`;

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function stripeError(status: number, type: string, message: string, extra: { code?: string; param?: string } = {}): Answer {
  return { status, body: { error: { type, message, ...extra } } };
}

/**
 * Where Stripe Tax places a US ZIP, by its first three digits, for the states the tests use (USPS ZIP prefixes:
 * HI 967–968, AZ 850–865); another valid ZIP is placed in the US with its state unknown to the double.
 */
const US_STATE_BY_ZIP_PREFIX: [number, number, string][] = [
  [967, 968, 'HI'],
  [850, 865, 'AZ'],
];

/**
 * The customer's `tax.location` once its address is set (Stripe API, "The Customer object": tax.location), or null
 * when Stripe Tax cannot place it: a US address needs a five-digit ZIP the USPS issues (not 000–004).
 */
function taxLocationOf(address: { country: string; postal_code: string | null }): { country: string; state: string | null } | null {
  if (address.country === '') return null;
  if (address.country !== 'US') return { country: address.country, state: null };
  const zip = /^(\d{5})(-\d{4})?$/.exec(address.postal_code ?? '');
  if (!zip) return null;
  const prefix = Number(zip[1]!.slice(0, 3));
  if (prefix <= 4) return null;
  const state = US_STATE_BY_ZIP_PREFIX.find(([from, to]) => prefix >= from && prefix <= to)?.[2] ?? null;
  return { country: 'US', state };
}

/**
 * Each line's exclusive tax at `rateMillionths`: rounded half up per line (decision 0072, src/domain/tax.ts), a
 * credit line's the negative of the tax on its size, so a credit gives back what a charge of it would carry.
 */
function taxedLines(amounts: number[], rateMillionths: number): Line[] {
  return amounts.map((amount) => ({ amount, tax: Math.sign(amount) * taxCents(Math.abs(amount), rateMillionths) }));
}

const sumOf = (lines: Line[], field: keyof Line) => lines.reduce((total, line) => total + line[field], 0);

const missing = (what: string, id: string) =>
  stripeError(404, 'invalid_request_error', `No such ${what}: '${id}'`, { code: 'resource_missing', param: 'id' });

/**
 * The parameters each endpoint accepts, as bracket paths with list indices written `[]` and metadata keys `[*]`
 * (what stripe-node sends for the app's calls; Stripe API reference of each endpoint).
 */
const PORTAL_FLOW = [
  'flow_data[type]',
  'flow_data[subscription_cancel][subscription]',
  'flow_data[subscription_update][subscription]',
  'flow_data[after_completion][type]',
  'flow_data[after_completion][redirect][return_url]',
];
const ALLOWED_PARAMS: Array<[method: string, path: RegExp, params: string[]]> = [
  ['GET', /^\/v1\/prices$/, ['lookup_keys[]', 'active', 'limit', 'expand[]']],
  [
    'POST',
    /^\/v1\/prices$/,
    [
      'product',
      'currency',
      'recurring[interval]',
      'recurring[usage_type]',
      'billing_scheme',
      'tiers_mode',
      'tiers[][up_to]',
      'tiers[][unit_amount]',
      'tiers[][flat_amount]',
      'unit_amount',
      'lookup_key',
      'transfer_lookup_key',
      'nickname',
      'tax_behavior',
      'metadata[*]',
    ],
  ],
  ['GET', /^\/v1\/products\/[^/]+$/, []],
  ['POST', /^\/v1\/products$/, ['id', 'name', 'tax_code', 'metadata[*]']],
  ['GET', /^\/v1\/billing_portal\/configurations$/, ['active', 'limit']],
  [
    'POST',
    /^\/v1\/billing_portal\/configurations$/,
    [
      'business_profile[headline]',
      'default_return_url',
      'metadata[*]',
      'features[subscription_cancel][enabled]',
      'features[subscription_cancel][mode]',
      'features[subscription_cancel][proration_behavior]',
      'features[subscription_cancel][cancellation_reason][enabled]',
      'features[subscription_cancel][cancellation_reason][options][]',
      'features[subscription_update][enabled]',
      'features[subscription_update][default_allowed_updates][]',
      'features[subscription_update][proration_behavior]',
      'features[subscription_update][products][][product]',
      'features[subscription_update][products][][prices][]',
      'features[subscription_update][products][][adjustable_quantity][enabled]',
      'features[subscription_update][products][][adjustable_quantity][minimum]',
      'features[subscription_update][products][][adjustable_quantity][maximum]',
      'features[payment_method_update][enabled]',
      'features[invoice_history][enabled]',
    ],
  ],
  ['POST', /^\/v1\/billing_portal\/sessions$/, ['customer', 'configuration', 'return_url', ...PORTAL_FLOW]],
  ['POST', /^\/v1\/customers$/, ['metadata[*]', 'email', 'name']],
  ['GET', /^\/v1\/customers\/[^/]+$/, ['expand[]']],
  [
    'POST',
    /^\/v1\/customers\/[^/]+$/,
    ['email', 'name', 'metadata[*]', 'address[country]', 'address[postal_code]', 'tax[validate_location]', 'expand[]'],
  ],
  [
    'POST',
    /^\/v1\/subscriptions$/,
    [
      'customer',
      'items[][price]',
      'items[][quantity]',
      'payment_behavior',
      'payment_settings[save_default_payment_method]',
      'payment_settings[payment_method_types][]',
      'automatic_tax[enabled]',
      'metadata[*]',
      'expand[]',
    ],
  ],
  ['GET', /^\/v1\/subscriptions$/, ['customer', 'status', 'limit']],
  ['GET', /^\/v1\/subscriptions\/[^/]+$/, ['expand[]']],
  [
    'POST',
    /^\/v1\/subscriptions\/[^/]+$/,
    [
      'default_payment_method',
      'cancel_at',
      'cancel_at_period_end',
      'items[][id]',
      'items[][quantity]',
      'proration_behavior',
      'proration_date',
      'payment_behavior',
      'expand[]',
    ],
  ],
  ['DELETE', /^\/v1\/subscriptions\/[^/]+$/, []],
  ['GET', /^\/v1\/invoices$/, ['subscription', 'status', 'limit', 'expand[]']],
  ['GET', /^\/v1\/invoices\/[^/]+$/, ['expand[]']],
  ['POST', /^\/v1\/invoices\/[^/]+\/void$/, []],
  ['POST', /^\/v1\/invoices\/[^/]+\/pay$/, []],
  [
    'POST',
    /^\/v1\/invoices\/create_preview$/,
    [
      'customer',
      'subscription',
      'automatic_tax[enabled]',
      'subscription_details[items][][id]',
      'subscription_details[items][][price]',
      'subscription_details[items][][quantity]',
      'subscription_details[proration_behavior]',
      'subscription_details[proration_date]',
    ],
  ],
  ['POST', /^\/v1\/billing_portal\/configurations\/[^/]+$/, ['features[subscription_update][proration_behavior]']],
  ['GET', /^\/v1\/payment_intents\/[^/]+$/, ['expand[]']],
  ['POST', /^\/v1\/refunds$/, ['charge', 'payment_intent', 'amount', 'reason', 'metadata[*]']],
  ['GET', /^\/v1\/refunds$/, ['charge', 'payment_intent', 'limit']],
  ['GET', /^\/v1\/disputes$/, ['payment_intent', 'charge', 'limit']],
  ['GET', /^\/v1\/disputes\/[^/]+$/, ['expand[]']],
];

/** The first parameter `params` holds that the endpoint does not accept, or null. */
function unknownParameter(method: string, path: string, params: URLSearchParams): string | null {
  const allowed = ALLOWED_PARAMS.find(([m, p]) => m === method && p.test(path))?.[2];
  if (!allowed) return null;
  for (const key of params.keys()) {
    const shape = key.replace(/\[\d+\]/g, '[]').replace(/^metadata\[[^\]]+\]$/, 'metadata[*]');
    if (!allowed.includes(shape)) return key;
  }
  return null;
}

/** The `expand[]` paths of a request, in order. */
function expandsOf(params: URLSearchParams): string[] {
  return [...params].filter(([key]) => /^expand\[\d+\]$/.test(key)).map(([, value]) => value);
}

/** True when `field` (a path such as `latest_invoice`) is expanded, itself or through a path below it. */
function expanded(expand: string[], field: string): boolean {
  return expand.some((path) => path === field || path.startsWith(`${field}.`));
}

/** The expand paths below `field`, relative to it: `latest_invoice.payments` → `payments`. */
function below(expand: string[], field: string): string[] {
  return expand.filter((path) => path.startsWith(`${field}.`)).map((path) => path.slice(field.length + 1));
}

/** Stripe's charge for `quantity` units under tiers: graduated sums each unit at its tier, volume prices all at one. */
function tieredAmount(price: Price, quantity: number): number {
  if (price.billing_scheme !== 'tiered') return (price.unit_amount ?? 0) * quantity;
  if (price.tiers_mode === 'volume') {
    const tier = price.tiers.find((t) => t.up_to === null || quantity <= t.up_to)!;
    return (tier.unit_amount ?? 0) * quantity + (tier.flat_amount ?? 0);
  }
  let total = 0;
  let from = 0;
  for (const tier of price.tiers) {
    const to = tier.up_to ?? Number.POSITIVE_INFINITY;
    if (quantity > from) total += (Math.min(quantity, to) - from) * (tier.unit_amount ?? 0) + (tier.flat_amount ?? 0);
    if (quantity <= to) break;
    from = to;
  }
  return total;
}

/** Options of the double. */
interface StatefulStripeOptions {
  /** Run the app's `npm run stripe:setup` logic against it first (catalogue and portal); default true. */
  setup?: boolean;
  /** MAX_SEATS given to the portal configuration when set up. */
  maxSeats?: number;
  /**
   * The states the business is registered in with Stripe Tax and their rates in millionths (the Dashboard's
   * registrations); default DEFAULT_TAX_REGISTRATIONS, Hawaii 4.712 % and Arizona 0 (decision 0070).
   */
  taxRegistrations?: readonly TaxRegistration[];
}

/** Starts the double on a free port; `url` goes to STRIPE_API_BASE. */
export async function startStatefulStripe({
  setup = true,
  maxSeats = 100,
  taxRegistrations = DEFAULT_TAX_REGISTRATIONS,
}: StatefulStripeOptions = {}) {
  const products = new Map<string, Json>();
  const prices = new Map<string, Price>();
  const portalConfigurations = new Map<string, Json>();
  const portalSessions: Json[] = [];
  const customers = new Map<string, Customer>();
  const paymentMethods = new Map<string, PaymentMethod>();
  const subscriptions = new Map<string, Subscription>();
  const invoices = new Map<string, Invoice>();
  const intents = new Map<string, PaymentIntent>();
  const charges = new Map<string, Charge>();
  const refunds: Json[] = [];
  const disputes = new Map<string, Dispute>();
  const events: Json[] = [];
  const idempotency = new Map<string, { fingerprint: string } & Answer>();
  const failures: Array<{ method: string; path: RegExp } & Answer> = [];
  const hooks: Array<{ method: string; path: RegExp; run: () => void | Promise<void> }> = [];
  const log: string[] = [];
  let clockOffsetSeconds = 0;
  const now = () => Math.floor(Date.now() / 1000) + clockOffsetSeconds;

  // --- Rendering, as Stripe answers (expanded fields only when asked) ---

  const metadataOf = (params: URLSearchParams): Record<string, string> =>
    Object.fromEntries(
      [...params].flatMap(([key, value]) => {
        const name = /^metadata\[([^\]]+)\]$/.exec(key)?.[1];
        return name ? [[name, value]] : [];
      }),
    );
  const priceJson = (price: Price, expand: string[]): Json => ({
    id: price.id,
    object: 'price',
    active: price.active,
    billing_scheme: price.billing_scheme,
    currency: price.currency,
    lookup_key: price.lookup_key,
    metadata: price.metadata,
    nickname: price.nickname,
    tax_behavior: price.tax_behavior,
    product: price.product,
    recurring: price.recurring,
    tiers_mode: price.tiers_mode,
    type: 'recurring',
    unit_amount: price.unit_amount,
    // `tiers` is includable: present only when expanded (Prices API, "tiers").
    ...(expanded(expand, 'tiers') ? { tiers: price.tiers } : {}),
  });
  const paymentMethodJson = (method: PaymentMethod): Json => ({
    id: method.id,
    object: 'payment_method',
    type: 'card',
    customer: method.customer,
    billing_details: { address: null, phone: null, ...method.billing_details },
  });
  const customerJson = (customer: Customer): Json => ({
    id: customer.id,
    object: 'customer',
    email: customer.email,
    name: customer.name,
    invoice_settings: {
      custom_fields: null,
      default_payment_method: customer.default_payment_method,
      footer: null,
      rendering_options: null,
    },
    balance: customer.balance,
    metadata: customer.metadata,
    address: customer.address && { city: null, line1: null, line2: null, state: null, ...customer.address },
  });
  const paymentIntentJson = (intent: PaymentIntent, expand: string[]): Json => {
    const method = intent.payment_method ? paymentMethods.get(intent.payment_method)! : null;
    return {
      id: intent.id,
      object: 'payment_intent',
      amount: intent.amount,
      amount_received: intent.amount_received,
      currency: 'usd',
      customer: intent.customer,
      status: intent.status,
      latest_charge:
        intent.latest_charge && expanded(expand, 'latest_charge') ? chargeJson(charges.get(intent.latest_charge)!) : intent.latest_charge,
      next_action: intent.status === 'requires_action' ? { type: 'use_stripe_sdk', use_stripe_sdk: {} } : null,
      payment_method: method && expanded(expand, 'payment_method') ? paymentMethodJson(method) : (method?.id ?? null),
    };
  };
  const chargeJson = (charge: Charge): Json => ({
    id: charge.id,
    object: 'charge',
    amount: charge.amount,
    amount_refunded: charge.amount_refunded,
    refunded: charge.amount_refunded === charge.amount,
    customer: charge.customer,
    disputed: charge.dispute !== null,
    payment_intent: charge.payment_intent,
  });
  /**
   * Whether the charge can still be refunded under its dispute: an inquiry (`warning_*`) can; a chargeback cannot
   * (Stripe refuses with `charge_disputed`) until the business wins it and the money comes back.
   */
  const refundableUnder = (dispute: Dispute) => dispute.status.startsWith('warning_');
  const disputeJson = (dispute: Dispute, expand: string[]): Json => ({
    id: dispute.id,
    object: 'dispute',
    amount: dispute.amount,
    balance_transactions: [],
    charge: expanded(expand, 'charge') ? chargeJson(charges.get(dispute.charge)!) : dispute.charge,
    created: dispute.created,
    currency: 'usd',
    evidence_details: { due_by: dispute.due_by, has_evidence: false, past_due: false, submission_count: 0 },
    is_charge_refundable: refundableUnder(dispute),
    livemode: false,
    metadata: {},
    payment_intent: dispute.payment_intent,
    reason: dispute.reason,
    status: dispute.status,
  });
  const invoiceJson = (invoice: Invoice, expand: string[]): Json => {
    const intent = intents.get(invoice.payment_intent)!;
    const subscription = subscriptions.get(invoice.subscription)!;
    return {
      id: invoice.id,
      object: 'invoice',
      customer: invoice.customer,
      status: invoice.status,
      billing_reason: invoice.billing_reason,
      collection_method: 'charge_automatically',
      currency: 'usd',
      amount_due: invoice.amount_due,
      amount_paid: invoice.amount_paid,
      amount_remaining: invoice.amount_due - invoice.amount_paid,
      attempt_count: invoice.attempt_count,
      created: invoice.created,
      automatic_tax: automaticTaxJson(subscription.automatic_tax, invoice.taxation),
      starting_balance: invoice.starting_balance,
      ending_balance: invoice.ending_balance,
      ...totalsJson(invoice.lines, invoice.taxation),
      parent: { type: 'subscription_details', subscription_details: { subscription: invoice.subscription, metadata: invoice.metadata } },
      // Includable since API 2025-03-31.basil: absent unless expanded.
      ...(expanded(expand, 'confirmation_secret')
        ? { confirmation_secret: { client_secret: intent.client_secret, type: 'payment_intent' } }
        : {}),
      ...(expanded(expand, 'payments')
        ? {
            payments: {
              object: 'list',
              data: [
                {
                  id: `inpay_${invoice.id.slice(3)}`,
                  object: 'invoice_payment',
                  is_default: true,
                  status: intent.status === 'succeeded' ? 'paid' : 'open',
                  payment: { type: 'payment_intent', payment_intent: intent.id },
                },
              ],
              has_more: false,
            },
          }
        : {}),
    };
  };
  /** An invoice's `automatic_tax`: 'complete' once Stripe Tax placed the customer. */
  const automaticTaxJson = (enabled: boolean, taxation: Taxation | null): Json => ({
    enabled,
    liability: enabled ? { type: 'self' } : null,
    status: enabled ? (taxation ? 'complete' : 'requires_location_inputs') : null,
  });
  /**
   * An invoice's amounts from its lines (Stripe API, "The Invoice object"): `subtotal` and `total_excluding_tax`
   * before tax, `total` with it, and `total_taxes`, the lines' exclusive taxes aggregated by rate (one rate here);
   * empty when the invoice is not taxed.
   */
  const totalsJson = (lines: Line[], taxation: Taxation | null): Json => {
    const subtotal = sumOf(lines, 'amount');
    const tax = sumOf(lines, 'tax');
    return {
      subtotal,
      subtotal_excluding_tax: subtotal,
      total: subtotal + tax,
      total_excluding_tax: subtotal,
      total_taxes:
        taxation === null
          ? []
          : [
              {
                amount: tax,
                tax_behavior: 'exclusive',
                taxability_reason: taxation.reason,
                taxable_amount: subtotal,
                type: 'tax_rate_details',
                tax_rate_details: { tax_rate: `txr_double_${taxation.state ?? 'unregistered'}` },
              },
            ],
    };
  };
  const subscriptionJson = (subscription: Subscription, expand: string[]): Json => {
    const invoice = invoices.get(subscription.latest_invoice)!;
    return {
      id: subscription.id,
      object: 'subscription',
      billing_mode: { type: 'flexible', flexible: { proration_discounts: 'included' } },
      automatic_tax: { enabled: subscription.automatic_tax, liability: null },
      cancel_at: subscription.cancel_at,
      cancel_at_period_end: subscription.cancel_at_period_end,
      cancellation_details: { ...subscription.cancellation_details, reason: subscription.cancel_at ? 'cancellation_requested' : null },
      canceled_at: subscription.status === 'canceled' ? now() : null,
      created: subscription.created,
      customer: subscription.customer,
      default_payment_method: subscription.default_payment_method,
      pending_update: subscription.pending_update && {
        billing_cycle_anchor: null,
        expires_at: subscription.pending_update.expires_at,
        subscription_items: [
          {
            id: subscription.item,
            object: 'subscription_item',
            quantity: subscription.pending_update.quantity,
            price: priceJson(prices.get(subscription.price)!, []),
          },
        ],
        trial_end: null,
        trial_from_plan: null,
      },
      status: subscription.status,
      metadata: subscription.metadata,
      items: {
        object: 'list',
        data: [
          {
            id: subscription.item,
            object: 'subscription_item',
            quantity: subscription.quantity,
            current_period_start: subscription.current_period_start,
            current_period_end: subscription.current_period_end,
            price: priceJson(prices.get(subscription.price)!, []),
            subscription: subscription.id,
          },
        ],
        has_more: false,
      },
      latest_invoice: expanded(expand, 'latest_invoice') ? invoiceJson(invoice, below(expand, 'latest_invoice')) : invoice.id,
    };
  };

  function emit(type: string, object: Json, previousAttributes?: Json): void {
    events.push({
      id: newId('evt'),
      object: 'event',
      api_version: STRIPE_API_VERSION,
      created: now(),
      data: { object, ...(previousAttributes ? { previous_attributes: previousAttributes } : {}) },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    });
  }

  // --- State changes ---

  /** Incomplete subscriptions older than 23 h expire; their first invoice is voided (its intent canceled). */
  function expireIncomplete(): void {
    for (const subscription of subscriptions.values()) {
      if (subscription.pending_update && now() >= subscription.pending_update.expires_at) {
        subscription.pending_update = null;
        emit('customer.subscription.pending_update_expired', subscriptionJson(subscription, []));
      }
      if (subscription.status !== 'incomplete' || now() - subscription.created < INCOMPLETE_WINDOW_SECONDS) continue;
      subscription.status = 'incomplete_expired';
      const invoice = invoices.get(subscription.latest_invoice)!;
      if (invoice.status === 'open') {
        invoice.status = 'void';
        intents.get(invoice.payment_intent)!.status = 'canceled';
      }
      emit('customer.subscription.updated', subscriptionJson(subscription, []), { status: 'incomplete' });
    }
  }

  /**
   * Stripe Tax's treatment of a `customerId` invoice with `automatic_tax` on: the rate of the state the customer is
   * placed in (0 and 'not_collecting' where the business is not registered); null with automatic tax off or the
   * customer not placed (Stripe would not finalize it: `requires_location_inputs`).
   */
  function taxationOf(customerId: string, automaticTax: boolean): Taxation | null {
    const address = customers.get(customerId)?.address;
    const location = automaticTax && address ? taxLocationOf(address) : null;
    if (!location) return null;
    const registration = location.country === 'US' ? taxRegistrations.find((each) => each.state === location.state) : undefined;
    if (!registration) return { state: location.state, rateMillionths: 0, reason: 'not_collecting' };
    const { state, rateMillionths } = registration;
    return { state, rateMillionths, reason: rateMillionths > 0 ? 'standard_rated' : 'not_subject_to_tax' };
  }

  /** The lines of `amounts` (cents before tax) with their tax under `taxation` (none when null). */
  const linesOf = (amounts: number[], taxation: Taxation | null): Line[] =>
    taxation ? taxedLines(amounts, taxation.rateMillionths) : amounts.map((amount) => ({ amount, tax: 0 }));

  function newInvoice(
    subscription: Subscription,
    reason: Invoice['billing_reason'],
    amounts = [tieredAmount(prices.get(subscription.price)!, subscription.quantity)],
  ): Invoice {
    const taxation = taxationOf(subscription.customer, subscription.automatic_tax);
    const lines = linesOf(amounts, taxation);
    const total = sumOf(lines, 'amount') + sumOf(lines, 'tax');
    // The customer's balance comes off every invoice after the first, after tax; an invoice of a credit (a
    // decrease's proration, its tax with it) adds to it ("Customer credit balance").
    const customer = customers.get(subscription.customer)!;
    const startingBalance = customer.balance;
    const credit = reason === 'subscription_create' ? 0 : total < 0 ? total : Math.min(total, Math.max(0, -customer.balance));
    customer.balance += credit;
    const amount = Math.max(0, total - credit);
    const intent: PaymentIntent = {
      id: newId('pi'),
      client_secret: '',
      amount,
      amount_received: 0,
      customer: subscription.customer,
      status: 'requires_payment_method',
      payment_method: null,
      latest_charge: null,
    };
    intent.client_secret = `${intent.id}_secret_${randomBytes(8).toString('hex')}`;
    intents.set(intent.id, intent);
    const invoice: Invoice = {
      id: newId('in'),
      subscription: subscription.id,
      customer: subscription.customer,
      status: 'open',
      billing_reason: reason,
      lines,
      taxation,
      starting_balance: startingBalance,
      ending_balance: customer.balance,
      amount_due: amount,
      amount_paid: 0,
      payment_intent: intent.id,
      metadata: subscription.metadata,
      attempt_count: 0,
      created: now(),
    };
    invoices.set(invoice.id, invoice);
    subscription.latest_invoice = invoice.id;
    return invoice;
  }

  /** Charges the invoice's intent with `method`; the invoice is paid unless the card declines. */
  function charge(invoice: Invoice, method: PaymentMethod): boolean {
    const intent = intents.get(invoice.payment_intent)!;
    invoice.attempt_count += 1;
    intent.payment_method = method.id;
    if (method.declines) {
      intent.status = 'requires_payment_method';
      emit('invoice.payment_failed', invoiceJson(invoice, []));
      return false;
    }
    const paid: Charge = {
      id: newId('ch'),
      payment_intent: intent.id,
      customer: intent.customer,
      amount: intent.amount,
      amount_refunded: 0,
      dispute: null,
    };
    charges.set(paid.id, paid);
    intent.status = 'succeeded';
    intent.amount_received = intent.amount;
    intent.latest_charge = paid.id;
    invoice.status = 'paid';
    invoice.amount_paid = invoice.amount_due;
    const subscription = subscriptions.get(invoice.subscription)!;
    const before = subscription.status;
    if (subscription.save_default_payment_method) subscription.default_payment_method = method.id;
    if (subscription.status === 'incomplete' || subscription.status === 'past_due' || subscription.status === 'unpaid')
      subscription.status = 'active';
    emit('invoice.paid', invoiceJson(invoice, []));
    const previous: Json = before !== subscription.status ? { status: before } : {};
    if (subscription.pending_update?.invoice === invoice.id) {
      // "Pending updates": the change applies when its invoice is paid.
      previous.items = { data: [{ quantity: subscription.quantity }] };
      previous.pending_update = { subscription_items: [{ quantity: subscription.pending_update.quantity }] };
      subscription.quantity = subscription.pending_update.quantity;
      subscription.pending_update = null;
    }
    if (Object.keys(previous).length > 0) emit('customer.subscription.updated', subscriptionJson(subscription, []), previous);
    return true;
  }

  /** An invoice with nothing to charge is paid as it is finalized. */
  function payNothing(invoice: Invoice): void {
    const intent = intents.get(invoice.payment_intent)!;
    intent.status = 'succeeded';
    invoice.status = 'paid';
    emit('invoice.paid', invoiceJson(invoice, []));
  }

  /** The payment method a subscription's invoices are charged to: its own default, else its customer's. */
  function methodFor(subscription: Subscription): PaymentMethod | undefined {
    const methodId = subscription.default_payment_method ?? customers.get(subscription.customer)!.default_payment_method;
    return methodId ? paymentMethods.get(methodId) : undefined;
  }

  /**
   * Stripe's proration lines of moving `subscription` to `quantity` at `at` (seconds), in cents before tax: the new
   * quantity for the time left charged, the old one's unused time credited (negative), each rounded to the cent
   * ("Prorations"); each is taxed on its own.
   */
  function prorationOf(subscription: Subscription, quantity: number, at: number): number[] {
    const price = prices.get(subscription.price)!;
    const period = subscription.current_period_end - subscription.current_period_start;
    const left = Math.min(period, Math.max(0, subscription.current_period_end - at));
    const line = (units: number) => Math.round((tieredAmount(price, units) * left) / period);
    return [line(quantity), -line(subscription.quantity)];
  }

  /**
   * A seat change with `proration_behavior: 'always_invoice'`: the proration invoiced at once; a positive one
   * charged. Answers whether the quantity changes now (false: `pending_if_incomplete` and the charge failed).
   */
  function invoiceSeatChange(subscription: Subscription, quantity: number, at: number, pendingIfIncomplete: boolean): boolean {
    const invoice = newInvoice(subscription, 'subscription_update', prorationOf(subscription, quantity, at));
    if (invoice.amount_due === 0) {
      payNothing(invoice);
      return true;
    }
    if (pendingIfIncomplete) subscription.pending_update = { quantity, invoice: invoice.id, expires_at: now() + INCOMPLETE_WINDOW_SECONDS };
    const method = methodFor(subscription);
    const paid = method ? charge(invoice, method) : false;
    if (paid || !pendingIfIncomplete) {
      subscription.pending_update = null;
      return true;
    }
    return false;
  }

  function newPaymentMethod(
    customer: string | null,
    billing: { name: string | null; email: string | null },
    declines = false,
  ): PaymentMethod {
    const method: PaymentMethod = { id: newId('pm'), customer, declines, billing_details: billing };
    paymentMethods.set(method.id, method);
    return method;
  }

  // --- The API ---

  function handle(method: string, path: string, params: URLSearchParams): Answer {
    const expand = expandsOf(params);
    let match: RegExpExecArray | null;

    if (method === 'GET' && path === '/v1/prices') {
      const keys = [...params].filter(([key]) => key.startsWith('lookup_keys[')).map(([, value]) => value);
      const active = params.get('active');
      const data = [...prices.values()].filter(
        (price) =>
          (keys.length === 0 || (price.lookup_key !== null && keys.includes(price.lookup_key))) &&
          (active === null || String(price.active) === active),
      );
      return {
        status: 200,
        body: { object: 'list', data: data.map((price) => priceJson(price, below(expand, 'data'))), has_more: false, url: '/v1/prices' },
      };
    }
    if (method === 'POST' && path === '/v1/prices') {
      const lookupKey = params.get('lookup_key');
      const holder = lookupKey ? [...prices.values()].find((price) => price.lookup_key === lookupKey) : undefined;
      if (holder && params.get('transfer_lookup_key') !== 'true') {
        return stripeError(400, 'invalid_request_error', `A price (\`${holder.id}\`) already uses that lookup key.`, {
          param: 'lookup_key',
        });
      }
      if (holder) holder.lookup_key = null;
      const tiers: Tier[] = [];
      for (let i = 0; params.has(`tiers[${i}][up_to]`); i++) {
        const upTo = params.get(`tiers[${i}][up_to]`)!;
        const unit = params.get(`tiers[${i}][unit_amount]`);
        const flat = params.get(`tiers[${i}][flat_amount]`);
        tiers.push({
          up_to: upTo === 'inf' ? null : Number(upTo),
          unit_amount: unit === null ? null : Number(unit),
          flat_amount: flat === null ? null : Number(flat),
        });
      }
      const price: Price = {
        id: newId('price'),
        product: params.get('product') ?? '',
        currency: params.get('currency') ?? 'usd',
        active: true,
        lookup_key: lookupKey,
        billing_scheme: params.get('billing_scheme') ?? 'per_unit',
        tiers_mode: params.get('tiers_mode'),
        tiers,
        unit_amount: params.has('unit_amount') ? Number(params.get('unit_amount')) : null,
        recurring: {
          interval: params.get('recurring[interval]') ?? 'month',
          interval_count: 1,
          usage_type: params.get('recurring[usage_type]') ?? 'licensed',
        },
        nickname: params.get('nickname'),
        tax_behavior: params.get('tax_behavior') ?? 'unspecified',
        metadata: metadataOf(params),
      };
      if (!products.has(price.product)) return missing('product', price.product);
      prices.set(price.id, price);
      return { status: 200, body: priceJson(price, []) };
    }
    if (method === 'GET' && (match = /^\/v1\/products\/([^/]+)$/.exec(path))) {
      const product = products.get(match[1]!);
      return product ? { status: 200, body: product } : missing('product', match[1]!);
    }
    if (method === 'POST' && path === '/v1/products') {
      const id = params.get('id') ?? newId('prod');
      if (products.has(id))
        return stripeError(400, 'invalid_request_error', `Product already exists.`, { code: 'resource_already_exists', param: 'id' });
      const product = {
        id,
        object: 'product',
        active: true,
        name: params.get('name'),
        tax_code: params.get('tax_code'),
        metadata: metadataOf(params),
      };
      products.set(id, product);
      return { status: 200, body: product };
    }
    if (method === 'GET' && path === '/v1/billing_portal/configurations') {
      return { status: 200, body: { object: 'list', data: [...portalConfigurations.values()], has_more: false, url: path } };
    }
    if (method === 'POST' && path === '/v1/billing_portal/configurations') {
      const configuration: Json = { id: newId('bpc'), object: 'billing_portal.configuration', active: true, ...nested(params) };
      portalConfigurations.set(configuration.id as string, configuration);
      return { status: 200, body: configuration };
    }
    if (method === 'POST' && (match = /^\/v1\/billing_portal\/configurations\/([^/]+)$/.exec(path))) {
      const configuration = portalConfigurations.get(match[1]!);
      if (!configuration) return missing('billing_portal.configuration', match[1]!);
      const features = configuration.features as Record<string, Record<string, unknown>>;
      const wanted = params.get('features[subscription_update][proration_behavior]');
      if (wanted) features.subscription_update = { ...features.subscription_update, proration_behavior: wanted };
      return { status: 200, body: configuration };
    }
    if (method === 'POST' && path === '/v1/billing_portal/sessions') {
      const customerId = params.get('customer') ?? '';
      if (!customers.has(customerId)) return missing('customer', customerId);
      const configuration = params.get('configuration');
      if (configuration && !portalConfigurations.has(configuration)) return missing('billing_portal.configuration', configuration);
      const session = {
        id: newId('bps'),
        object: 'billing_portal.session',
        url: `https://billing.stripe.com/p/session/test_${randomBytes(6).toString('hex')}`,
        ...nested(params),
      };
      portalSessions.push(session);
      return { status: 200, body: session };
    }
    if (method === 'POST' && path === '/v1/customers') {
      const customer: Customer = {
        id: newId('cus'),
        email: params.get('email'),
        name: params.get('name'),
        default_payment_method: null,
        balance: 0,
        metadata: metadataOf(params),
        address: null,
      };
      customers.set(customer.id, customer);
      return { status: 200, body: customerJson(customer) };
    }
    if ((match = /^\/v1\/customers\/([^/]+)$/.exec(path))) {
      const customer = customers.get(match[1]!);
      if (!customer) return missing('customer', match[1]!);
      if (method === 'POST') {
        const address = params.has('address[country]')
          ? { country: params.get('address[country]') ?? '', postal_code: params.get('address[postal_code]') }
          : customer.address;
        // `tax[validate_location]: 'immediately'`: an address Stripe Tax cannot place is refused, nothing saved.
        if (params.get('tax[validate_location]') === 'immediately' && (!address || !taxLocationOf(address))) {
          return stripeError(400, 'invalid_request_error', "The customer's location isn't recognized.", {
            code: 'customer_tax_location_invalid',
            param: 'address',
          });
        }
        customer.email = params.get('email') ?? customer.email;
        customer.name = params.get('name') ?? customer.name;
        customer.metadata = { ...customer.metadata, ...metadataOf(params) };
        customer.address = address;
      }
      const body = customerJson(customer);
      if (!expandsOf(params).includes('tax')) return { status: 200, body };
      const location = customer.address ? taxLocationOf(customer.address) : null;
      const collecting = location && taxationOf(customer.id, true)?.reason !== 'not_collecting';
      return {
        status: 200,
        body: {
          ...body,
          tax: {
            automatic_tax: !location ? 'unrecognized_location' : collecting ? 'supported' : 'not_collecting',
            ip_address: null,
            location: location && { ...location, source: 'billing_address' },
          },
        },
      };
    }
    if (method === 'POST' && path === '/v1/subscriptions') {
      const customerId = params.get('customer') ?? '';
      if (!customers.has(customerId)) return missing('customer', customerId);
      const price = prices.get(params.get('items[0][price]') ?? '');
      if (!price || !price.active) return missing('price', params.get('items[0][price]') ?? '');
      const quantity = Number(params.get('items[0][quantity]') ?? '1');
      const created = now();
      const subscription: Subscription = {
        id: newId('sub'),
        customer: customerId,
        status: 'incomplete',
        price: price.id,
        quantity,
        item: newId('si'),
        latest_invoice: '',
        created,
        current_period_start: created,
        current_period_end: created + MONTH_SECONDS,
        cancel_at: null,
        cancel_at_period_end: false,
        cancellation_details: { comment: null, feedback: null },
        default_payment_method: null,
        pending_update: null,
        save_default_payment_method: params.get('payment_settings[save_default_payment_method]') === 'on_subscription',
        automatic_tax: params.get('automatic_tax[enabled]') === 'true',
        metadata: metadataOf(params),
      };
      subscriptions.set(subscription.id, subscription);
      newInvoice(subscription, 'subscription_create');
      emit('customer.subscription.created', subscriptionJson(subscription, []));
      return { status: 200, body: subscriptionJson(subscription, expand) };
    }
    if (method === 'GET' && path === '/v1/subscriptions') {
      const status = params.get('status');
      const data = [...subscriptions.values()].filter(
        (s) =>
          s.customer === params.get('customer') &&
          (status === 'all' || (status ? s.status === status : s.status !== 'canceled' && s.status !== 'incomplete_expired')),
      );
      return { status: 200, body: { object: 'list', data: data.map((s) => subscriptionJson(s, [])), has_more: false, url: path } };
    }
    if ((match = /^\/v1\/subscriptions\/([^/]+)$/.exec(path))) {
      const subscription = subscriptions.get(match[1]!);
      if (!subscription || (method === 'DELETE' && subscription.status === 'canceled')) return missing('subscription', match[1]!);
      if (method === 'DELETE') {
        // As at Stripe: a paid subscription is cancelled too; its open invoice (if any) stays as it is.
        subscription.status = 'canceled';
        emit('customer.subscription.deleted', subscriptionJson(subscription, []));
        return { status: 200, body: subscriptionJson(subscription, expand) };
      }
      if (method === 'POST') {
        const previous: Json = {};
        if (params.has('default_payment_method')) {
          const id = params.get('default_payment_method')!;
          if (id !== '' && paymentMethods.get(id)?.customer !== subscription.customer) return missing('payment_method', id);
          previous.default_payment_method = subscription.default_payment_method;
          subscription.default_payment_method = id === '' ? null : id;
        }
        if (params.has('cancel_at')) {
          previous.cancel_at = subscription.cancel_at;
          subscription.cancel_at = params.get('cancel_at') === '' ? null : Number(params.get('cancel_at'));
        }
        if (params.has('items[0][quantity]')) {
          if (params.get('items[0][id]') !== subscription.item) return missing('subscription_item', params.get('items[0][id]') ?? '');
          const quantity = Number(params.get('items[0][quantity]'));
          const at = params.has('proration_date') ? Number(params.get('proration_date')) : now();
          const before = subscription.quantity;
          const applies =
            params.get('proration_behavior') !== 'always_invoice' ||
            quantity === before ||
            invoiceSeatChange(subscription, quantity, at, params.get('payment_behavior') === 'pending_if_incomplete');
          if (applies && subscription.quantity !== quantity) {
            previous.items = { data: [{ quantity: before }] };
            subscription.quantity = quantity;
          }
        }
        if (params.has('cancel_at_period_end')) {
          previous.cancel_at_period_end = subscription.cancel_at_period_end;
          subscription.cancel_at_period_end = params.get('cancel_at_period_end') === 'true';
          subscription.cancel_at = subscription.cancel_at_period_end ? subscription.current_period_end : null;
        }
        emit('customer.subscription.updated', subscriptionJson(subscription, []), previous);
      }
      return { status: 200, body: subscriptionJson(subscription, expand) };
    }
    if (method === 'GET' && path === '/v1/invoices') {
      const status = params.get('status');
      const data = [...invoices.values()]
        .filter((invoice) => invoice.subscription === params.get('subscription') && (!status || invoice.status === status))
        .reverse()
        .slice(0, Number(params.get('limit') ?? 10));
      const itemExpand = expandsOf(params)
        .filter((field) => field.startsWith('data.'))
        .map((field) => field.slice(5));
      return {
        status: 200,
        body: { object: 'list', data: data.map((invoice) => invoiceJson(invoice, itemExpand)), has_more: false, url: path },
      };
    }
    if (method === 'POST' && path === '/v1/invoices/create_preview' && !params.has('subscription')) {
      // A new subscription's first invoice for a customer, taxed as it would be with `automatic_tax`.
      const customer = customers.get(params.get('customer') ?? '');
      if (!customer) return missing('customer', params.get('customer') ?? '');
      const price = prices.get(params.get('subscription_details[items][0][price]') ?? '');
      if (!price) return missing('price', params.get('subscription_details[items][0][price]') ?? '');
      const automaticTax = params.get('automatic_tax[enabled]') === 'true';
      const taxation = taxationOf(customer.id, automaticTax);
      const lines = linesOf([tieredAmount(price, Number(params.get('subscription_details[items][0][quantity]') ?? '1'))], taxation);
      const totals = totalsJson(lines, taxation);
      return {
        status: 200,
        body: {
          id: `upcoming_in_${randomBytes(6).toString('hex')}`,
          object: 'invoice',
          billing_reason: 'upcoming',
          customer: customer.id,
          currency: 'usd',
          ...totals,
          amount_due: Math.max(0, totals.total as number),
          status: 'draft',
          automatic_tax: automaticTaxJson(automaticTax, taxation),
        },
      };
    }
    if (method === 'POST' && path === '/v1/invoices/create_preview') {
      const subscription = subscriptions.get(params.get('subscription') ?? '');
      if (!subscription || subscription.customer !== params.get('customer'))
        return missing('subscription', params.get('subscription') ?? '');
      const quantity = Number(params.get('subscription_details[items][0][quantity]') ?? subscription.quantity);
      const at = params.has('subscription_details[proration_date]') ? Number(params.get('subscription_details[proration_date]')) : now();
      const always = params.get('subscription_details[proration_behavior]') === 'always_invoice';
      const amounts = always ? prorationOf(subscription, quantity, at) : [tieredAmount(prices.get(subscription.price)!, quantity)];
      // Taxed as the subscription's invoices are (its `automatic_tax`), each line on its own.
      const taxation = taxationOf(subscription.customer, subscription.automatic_tax);
      const totals = totalsJson(linesOf(amounts, taxation), taxation);
      // The customer's credit balance comes off what is due, as on the invoice itself.
      const balance = customers.get(subscription.customer)!.balance;
      return {
        status: 200,
        body: {
          id: `upcoming_in_${randomBytes(6).toString('hex')}`,
          object: 'invoice',
          billing_reason: always ? 'subscription_update' : 'upcoming',
          customer: subscription.customer,
          currency: 'usd',
          ...totals,
          starting_balance: balance,
          amount_due: Math.max(0, (totals.total as number) + Math.min(0, balance)),
          automatic_tax: automaticTaxJson(subscription.automatic_tax, taxation),
          status: 'draft',
          parent: {
            type: 'subscription_details',
            quote_details: null,
            subscription_details: {
              metadata: subscription.metadata,
              subscription: subscription.id,
              ...(always ? { subscription_proration_date: at } : {}),
            },
          },
        },
      };
    }
    if (method === 'POST' && (match = /^\/v1\/invoices\/([^/]+)\/pay$/.exec(path))) {
      const invoice = invoices.get(match[1]!);
      if (!invoice) return missing('invoice', match[1]!);
      if (invoice.status !== 'open')
        return stripeError(400, 'invalid_request_error', `Invoice is already ${invoice.status}.`, { code: 'invoice_not_open' });
      const method = methodFor(subscriptions.get(invoice.subscription)!);
      if (!method)
        return stripeError(400, 'invalid_request_error', 'This customer has no attached payment source or default payment method.', {
          code: 'invoice_no_customer_line_items',
        });
      if (!charge(invoice, method)) return stripeError(402, 'card_error', 'Your card was declined.', { code: 'card_declined' });
      return { status: 200, body: invoiceJson(invoice, expand) };
    }
    if ((match = /^\/v1\/invoices\/([^/]+)(\/void)?$/.exec(path))) {
      const invoice = invoices.get(match[1]!);
      if (!invoice) return missing('invoice', match[1]!);
      if (method === 'POST' && match[2]) {
        if (invoice.status !== 'open') {
          return stripeError(400, 'invalid_request_error', `You can only void open invoices. This invoice is ${invoice.status}.`, {
            code: 'invoice_not_editable',
          });
        }
        invoice.status = 'void';
        intents.get(invoice.payment_intent)!.status = 'canceled';
        emit('invoice.voided', invoiceJson(invoice, []));
        const subscription = subscriptions.get(invoice.subscription)!;
        if (subscription.pending_update?.invoice === invoice.id) {
          // Voiding the invoice a pending update waits on discards the update.
          const pending = subscription.pending_update;
          subscription.pending_update = null;
          emit('customer.subscription.updated', subscriptionJson(subscription, []), {
            pending_update: { expires_at: pending.expires_at, subscription_items: [{ quantity: pending.quantity }] },
          });
        }
      }
      return { status: 200, body: invoiceJson(invoice, expand) };
    }
    if (method === 'GET' && (match = /^\/v1\/payment_intents\/([^/]+)$/.exec(path))) {
      const intent = intents.get(match[1]!);
      if (!intent) return missing('payment_intent', match[1]!);
      return { status: 200, body: paymentIntentJson(intent, expand) };
    }
    if (method === 'GET' && path === '/v1/invoice_payments') {
      // "List all payments for an invoice", here by the payment (`payment[payment_intent]`), its invoice expandable.
      const intentId = params.get('payment[payment_intent]');
      const invoiceExpand = expandsOf(params).includes('data.invoice');
      const data = [...invoices.values()]
        .filter((invoice) => invoice.payment_intent === intentId)
        .map((invoice) => ({
          id: `inpay_${invoice.id.slice(3)}`,
          object: 'invoice_payment',
          invoice: invoiceExpand ? invoiceJson(invoice, []) : invoice.id,
          is_default: true,
          status: intents.get(invoice.payment_intent)?.status === 'succeeded' ? 'paid' : 'open',
          payment: { type: 'payment_intent', payment_intent: invoice.payment_intent },
        }));
      return { status: 200, body: { object: 'list', data, has_more: false, url: path } };
    }
    if (method === 'GET' && path === '/v1/refunds') {
      const intentId = params.get('payment_intent');
      const chargeId = params.get('charge');
      const data = refunds
        .filter((refund) => (!intentId || refund.payment_intent === intentId) && (!chargeId || refund.charge === chargeId))
        .reverse()
        .slice(0, Number(params.get('limit') ?? 10));
      return { status: 200, body: { object: 'list', data, has_more: false, url: path } };
    }
    if (method === 'GET' && path === '/v1/disputes') {
      const data = [...disputes.values()]
        .filter(
          (dispute) =>
            (!params.has('payment_intent') || dispute.payment_intent === params.get('payment_intent')) &&
            (!params.has('charge') || dispute.charge === params.get('charge')),
        )
        .reverse()
        .map((dispute) => disputeJson(dispute, []));
      return { status: 200, body: { object: 'list', url: '/v1/disputes', has_more: false, data } };
    }
    if (method === 'GET' && (match = /^\/v1\/disputes\/([^/]+)$/.exec(path))) {
      const dispute = disputes.get(match[1]!);
      if (!dispute) return missing('dispute', match[1]!);
      return { status: 200, body: disputeJson(dispute, expand) };
    }
    if (method === 'POST' && path === '/v1/refunds') {
      const chargeId = params.get('charge');
      const intentId = params.get('payment_intent');
      if (!chargeId === !intentId) return stripeError(400, 'invalid_request_error', 'You must pass either a charge or a payment_intent.');
      const refunded = chargeId ? charges.get(chargeId) : charges.get(intents.get(intentId!)?.latest_charge ?? '');
      if (!refunded)
        return chargeId
          ? missing('charge', chargeId)
          : stripeError(400, 'invalid_request_error', `This PaymentIntent (${intentId}) does not have a successful charge to refund.`, {
              param: 'payment_intent',
            });
      const dispute = refunded.dispute ? disputes.get(refunded.dispute)! : null;
      if (dispute && !refundableUnder(dispute) && dispute.status !== 'won')
        return stripeError(400, 'invalid_request_error', `Charge ${refunded.id} has been charged back; cannot issue a refund.`, {
          code: 'charge_disputed',
        });
      const left = refunded.amount - refunded.amount_refunded;
      if (left === 0)
        return stripeError(400, 'invalid_request_error', `Charge ${refunded.id} has already been refunded.`, {
          code: 'charge_already_refunded',
        });
      const amount = params.has('amount') ? Number(params.get('amount')) : left;
      if (!Number.isInteger(amount) || amount < 1)
        return stripeError(400, 'invalid_request_error', 'Invalid positive integer', {
          code: 'parameter_invalid_integer',
          param: 'amount',
        });
      if (amount > left) {
        return stripeError(
          400,
          'invalid_request_error',
          `Refund amount ($${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge ($${(left / 100).toFixed(2)})`,
          { param: 'amount' },
        );
      }
      refunded.amount_refunded += amount;
      const refund = {
        id: newId('re'),
        object: 'refund',
        amount,
        charge: refunded.id,
        payment_intent: refunded.payment_intent,
        currency: 'usd',
        status: 'succeeded',
        reason: params.get('reason'),
        metadata: metadataOf(params),
        failure_reason: null as string | null,
        created: now(),
      };
      refunds.push(refund);
      emit('charge.refunded', chargeJson(refunded));
      return { status: 200, body: refund };
    }
    return stripeError(404, 'invalid_request_error', `Unrecognized request URL (${method}: ${path})`);
  }

  /** The expand paths each endpoint can expand (Stripe refuses any other: "This property cannot be expanded"). */
  function unexpandable(method: string, path: string, params: URLSearchParams): string | null {
    const allowed =
      path === '/v1/prices'
        ? ['data.tiers']
        : /^\/v1\/subscriptions(\/[^/]+)?$/.test(path)
          ? ['latest_invoice', 'latest_invoice.confirmation_secret', 'latest_invoice.payments', 'default_payment_method']
          : /^\/v1\/invoices\/[^/]+$/.test(path)
            ? ['confirmation_secret', 'payments']
            : path === '/v1/invoices'
              ? ['data.payments']
              : /^\/v1\/payment_intents\/[^/]+$/.test(path)
                ? ['payment_method', 'latest_charge']
                : /^\/v1\/disputes\/[^/]+$/.test(path)
                  ? ['charge']
                  : /^\/v1\/customers\/[^/]+$/.test(path)
                    ? ['tax']
                    : path === '/v1/invoice_payments'
                      ? ['data.invoice']
                      : [];
    return expandsOf(params).find((field) => !allowed.includes(field)) ?? null;
  }

  function answer(method: string, path: string, params: URLSearchParams, key: string | undefined): Answer {
    const fingerprint = `${method} ${path} ${[...params].sort().join('&')}`;
    const seen = key !== undefined ? idempotency.get(key) : undefined;
    if (seen && seen.fingerprint !== fingerprint) {
      return stripeError(
        400,
        'idempotency_error',
        `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
      );
    }
    if (seen) return seen;
    const unknown = unknownParameter(method, path, params);
    if (unknown)
      return stripeError(400, 'invalid_request_error', `Received unknown parameter: ${unknown}`, {
        code: 'parameter_unknown',
        param: unknown,
      });
    const notExpandable = unexpandable(method, path, params);
    if (notExpandable)
      return stripeError(400, 'invalid_request_error', `This property cannot be expanded (${notExpandable}).`, { param: 'expand' });
    expireIncomplete();
    const result = handle(method, path, params);
    // Stripe keeps the answer of a request that ran; this double keeps successful ones only.
    if (key !== undefined && method === 'POST' && result.status >= 200 && result.status < 300)
      idempotency.set(key, { fingerprint, ...result });
    return result;
  }

  const answerRequest = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://double');
    const method = request.method ?? 'GET';
    const raw = await readBody(request);
    const params = new URLSearchParams(method === 'POST' ? raw : url.search);
    log.push(`${method} ${url.pathname}`);
    for (const hook of hooks.filter((candidate) => candidate.method === method && candidate.path.test(url.pathname))) {
      hooks.splice(hooks.indexOf(hook), 1);
      await hook.run();
    }
    const failure = failures.find((candidate) => candidate.method === method && candidate.path.test(url.pathname));
    if (failure) failures.splice(failures.indexOf(failure), 1);
    const key = request.headers['idempotency-key'];
    const result = failure ?? answer(method, url.pathname, params, typeof key === 'string' ? key : undefined);
    response.writeHead(result.status, {
      'content-type': 'application/json',
      'request-id': `req_double_${log.length}`,
      'stripe-should-retry': 'false',
    });
    response.end(JSON.stringify(result.body));
  };
  // A fault in the double is a bug in the test: its rejection stays unhandled, and vitest fails the run with it.
  const server = createServer((request, response) => void answerRequest(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;

  /** The invoice whose intent has `clientSecret`, if it can still be paid. */
  function payable(clientSecret: string): Invoice | undefined {
    expireIncomplete();
    const intent = [...intents.values()].find((candidate) => candidate.client_secret === clientSecret);
    const invoice = intent && [...invoices.values()].find((candidate) => candidate.payment_intent === intent.id);
    if (!intent || !invoice || invoice.status !== 'open' || intent.status === 'succeeded' || intent.status === 'canceled') return undefined;
    return invoice;
  }

  const double = {
    url,
    /** Every request, as `METHOD /path`. */
    log,
    /** Every event, oldest first, as Stripe would deliver it (API version pinned by the server). */
    events,
    refunds,
    portalSessions,
    /** The portal configurations, as created (nested objects, form values as strings). */
    portalConfigurations: () => [...portalConfigurations.values()],
    subscription: (id: string) => subscriptions.get(id),
    invoiceOf: (subscriptionId: string) => invoices.get(subscriptions.get(subscriptionId)?.latest_invoice ?? ''),
    intentOf: (subscriptionId: string) =>
      intents.get(invoices.get(subscriptions.get(subscriptionId)?.latest_invoice ?? '')?.payment_intent ?? ''),
    customer: (id: string) => customers.get(id),
    disputeOf: (id: string) => disputes.get(id),
    paymentMethod: (id: string) => paymentMethods.get(id),
    /** All subscriptions of a transaction. */
    subscriptionsOf: (transactionId: string) => [...subscriptions.values()].filter((s) => s.metadata.transactionId === transactionId),
    /** The latest event of `type`, or undefined. */
    lastEvent: (type: string) => events.filter((event) => event.type === type).at(-1),
    /** Moves the double's clock forward (incomplete subscriptions expire after 23 h). */
    advanceClock(seconds: number) {
      clockOffsetSeconds += seconds;
      expireIncomplete();
    },
    /**
     * The buyer pays the PaymentIntent behind `clientSecret` (Stripe.js's confirmPayment). With
     * `{ authentication: true }` the card asks for 3-D Secure first: the intent stays `requires_action` until
     * `authenticate`. Returns false, and changes nothing, when the intent cannot be paid (voided, canceled, paid).
     */
    pay(
      clientSecret: string,
      billing = { name: 'Jane Doe', email: 'jane@example.com' },
      options: { authentication?: boolean; declines?: boolean } = {},
    ): boolean {
      const invoice = payable(clientSecret);
      if (!invoice) return false;
      const method = newPaymentMethod(invoice.customer, billing, options.declines);
      const intent = intents.get(invoice.payment_intent)!;
      if (options.authentication) {
        intent.status = 'requires_action';
        intent.payment_method = method.id;
        return true;
      }
      return charge(invoice, method);
    },
    /** The buyer completes 3-D Secure on an intent in `requires_action`; false when there is none to complete. */
    authenticate(clientSecret: string): boolean {
      const invoice = payable(clientSecret);
      const intent = invoice && intents.get(invoice.payment_intent);
      if (!invoice || intent?.status !== 'requires_action') return false;
      return charge(invoice, paymentMethods.get(intent.payment_method!)!);
    },
    /** The card from now on declines every charge (expired, stolen). */
    declineFromNow(paymentMethodId: string) {
      paymentMethods.get(paymentMethodId)!.declines = true;
    },
    /**
     * A new period begins: a renewal invoice for the subscription's seats, charged at once to the subscription's
     * default payment method, else the customer's. A decline makes the subscription `past_due`. Returns the invoice.
     */
    renew(subscriptionId: string): Invoice {
      const subscription = subscriptions.get(subscriptionId)!;
      subscription.current_period_start = subscription.current_period_end;
      subscription.current_period_end += MONTH_SECONDS;
      const invoice = newInvoice(subscription, 'subscription_cycle');
      double.retry(invoice.id);
      return invoice;
    },
    /** Stripe retries an open invoice (Smart Retries) with the payment method in effect now; true when paid. */
    retry(invoiceId: string): boolean {
      const invoice = invoices.get(invoiceId)!;
      const subscription = subscriptions.get(invoice.subscription)!;
      const method = methodFor(subscription);
      const paid = method ? charge(invoice, method) : false;
      if (!paid && subscription.status === 'active') {
        subscription.status = 'past_due';
        emit('customer.subscription.updated', subscriptionJson(subscription, []), { status: 'active' });
      }
      return paid;
    },
    /**
     * The Customer Portal's cancellation at period end in flexible billing mode: `cancel_at` becomes the period's
     * end, `cancel_at_period_end` stays false.
     */
    portalCancel(subscriptionId: string, details: { comment: string | null; feedback: string | null } = { comment: null, feedback: null }) {
      const subscription = subscriptions.get(subscriptionId)!;
      subscription.cancel_at = subscription.current_period_end;
      subscription.cancellation_details = details;
      emit('customer.subscription.updated', subscriptionJson(subscription, []), { cancel_at: null });
    },
    /**
     * The Customer Portal's payment-method update: a new card attached to the customer and made the customer's
     * `invoice_settings.default_payment_method` (the subscription's own default, if any, is left as it is).
     * Returns the new payment method's id.
     */
    portalUpdateCard(customerId: string, billing = { name: 'Jane Doe', email: 'jane@example.com' }): string {
      const customer = customers.get(customerId)!;
      const method = newPaymentMethod(customerId, billing);
      emit('payment_method.attached', paymentMethodJson(method));
      const previous = customer.default_payment_method;
      customer.default_payment_method = method.id;
      emit('customer.updated', customerJson(customer), { invoice_settings: { default_payment_method: previous } });
      return method.id;
    },
    /** Sets a subscription's status directly (the Dashboard, dunning settings ending in `unpaid` or `paused`). */
    setStatus(subscriptionId: string, status: Subscription['status']) {
      const subscription = subscriptions.get(subscriptionId)!;
      const before = subscription.status;
      subscription.status = status;
      emit(status === 'canceled' ? 'customer.subscription.deleted' : 'customer.subscription.updated', subscriptionJson(subscription, []), {
        status: before,
      });
    },
    /**
     * The buyer's bank disputes the payment of `paymentIntentId` (Stripe's test card 4000 0000 0000 0259): a
     * dispute of the whole charge opens (`needs_response`, evidence due in 7 days), and its amount is withdrawn:
     * `charge.dispute.created`, then `charge.dispute.funds_withdrawn` (Stripe docs, "Disputes"). Returns its id.
     */
    dispute(paymentIntentId: string, reason = 'fraudulent'): string {
      const intent = intents.get(paymentIntentId)!;
      const charged = charges.get(intent.latest_charge!)!;
      const dispute: Dispute = {
        id: newId('du'),
        charge: charged.id,
        payment_intent: intent.id,
        amount: charged.amount,
        reason,
        status: 'needs_response',
        due_by: now() + 7 * 24 * 60 * 60,
        created: now(),
      };
      disputes.set(dispute.id, dispute);
      charged.dispute = dispute.id;
      emit('charge.dispute.created', disputeJson(dispute, []));
      emit('charge.dispute.funds_withdrawn', disputeJson(dispute, []));
      return dispute.id;
    },
    /**
     * The bank decides: `charge.dispute.closed`, and when won `charge.dispute.funds_reinstated` (the amount comes
     * back). Submitting evidence first moves it to `under_review` (`charge.dispute.updated`).
     */
    closeDispute(disputeId: string, outcome: 'won' | 'lost') {
      const dispute = disputes.get(disputeId)!;
      dispute.status = 'under_review';
      emit('charge.dispute.updated', disputeJson(dispute, []), { status: 'needs_response' });
      dispute.status = outcome;
      emit('charge.dispute.closed', disputeJson(dispute, []));
      if (outcome === 'won') emit('charge.dispute.funds_reinstated', disputeJson(dispute, []));
    },
    /**
     * A refund fails after it was made (the card closed; Stripe docs, "Refunds": failed refunds): its status
     * becomes `failed`, the amount returns to the balance and no longer counts as refunded on the charge;
     * `charge.refund.updated` and `refund.failed` are sent.
     */
    failRefund(refundId: string) {
      const refund = refunds.find((each) => each.id === refundId)!;
      const charged = charges.get(refund.charge as string)!;
      refund.status = 'failed';
      refund.failure_reason = 'expired_or_canceled_card';
      charged.amount_refunded -= refund.amount as number;
      emit('charge.refund.updated', { ...refund }, { status: 'succeeded' });
      emit('refund.failed', { ...refund });
    },
    /** Cancels a subscription directly (the Dashboard, a retention rule). */
    cancel(subscriptionId: string) {
      if (subscriptions.has(subscriptionId)) double.setStatus(subscriptionId, 'canceled');
    },
    /** The next request matching `method` and `path` is answered `status` with `body` instead. */
    failNext(method: string, path: RegExp, status = 500, body: unknown = { error: { type: 'api_error', message: 'Injected failure' } }) {
      failures.push({ method, path, status, body });
    },
    /** Runs `run` when the next request matching arrives, before it is answered (a race at that point). */
    onNext(method: string, path: RegExp, run: () => void | Promise<void>) {
      hooks.push({ method, path, run });
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };

  if (setup) {
    const client = createStripeClient({ secretKey: TEST_SECRET_KEY, apiBase: url });
    const catalogue = await ensureStripeCatalogue(client, DEFAULT_PRICE_LOOKUP_KEY);
    await ensurePortalConfiguration(client, { productId: catalogue.productId, priceId: catalogue.priceId, maxSeats });
    log.length = 0;
  }
  return double;
}

/** Stripe's bracket notation as nested objects: `a[b][0]=x` → `{ a: { b: ['x'] } }`; values stay strings. */
function nested(params: URLSearchParams): Json {
  const root: Json = {};
  for (const [key, value] of params) {
    const parts = key.replace(/\]/g, '').split('[');
    let node: Record<string, unknown> = root;
    parts.forEach((part, i) => {
      const last = i === parts.length - 1;
      const nextIsIndex = !last && /^\d+$/.test(parts[i + 1]!);
      if (last) node[part] = value;
      else node = (node[part] ??= nextIsIndex ? [] : {}) as Record<string, unknown>;
    });
  }
  return root;
}

export type StatefulStripe = Awaited<ReturnType<typeof startStatefulStripe>>;
