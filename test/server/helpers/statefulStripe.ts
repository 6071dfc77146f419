/**
 * A stateful Stripe API double: an HTTP server on 127.0.0.1 that keeps customers, subscriptions, their first
 * invoices and PaymentIntents, and answers the requests the Stripe adapter (server/payments/stripe.ts) sends, as
 * Stripe does where it matters to the checkout (Stripe API reference, "Idempotent requests", "Cancel a
 * subscription", "Void an invoice"):
 *
 * - an Idempotency-Key seen before replays the first answer when the parameters are the same, and is refused
 *   400 `idempotency_error` when they differ;
 * - DELETE /v1/subscriptions/:id cancels any subscription, a paid (active) one too; a canceled one is 404
 *   `resource_missing`;
 * - POST /v1/invoices/:id/void voids an open invoice and cancels its PaymentIntent, and refuses a paid one;
 * - a subscription is created `incomplete` with an open first invoice priced by the graduated tiers (seat 1
 *   $500, seat 2 $0, seats 3+ $500 each), whose confirmation secret is its PaymentIntent's client secret.
 *
 * Payments happen through test controls (`pay`), not the API: the browser confirms with Stripe.js, which this
 * double does not serve. It does not reproduce Stripe's other objects, events, pagination or errors.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { monthlyTotalCents } from '../../../src/domain/pricing';

type Json = Record<string, unknown>;

interface Customer {
  id: string;
  email: string | null;
  name: string | null;
  metadata: Record<string, string>;
}
interface Invoice {
  id: string;
  subscription: string;
  customer: string;
  status: 'open' | 'paid' | 'void';
  amount_due: number;
  amount_paid: number;
  payment_intent: string;
  metadata: Record<string, string>;
}
interface PaymentIntent {
  id: string;
  client_secret: string;
  status: 'requires_payment_method' | 'succeeded' | 'canceled';
  billing: { name: string; email: string } | null;
}
interface Subscription {
  id: string;
  customer: string;
  status: 'incomplete' | 'active' | 'canceled';
  quantity: number;
  item: string;
  invoice: string;
  metadata: Record<string, string>;
}

const PRICE_ID = 'price_double_monthly';
const newId = (prefix: string) => `${prefix}_${randomBytes(8).toString('hex')}`;

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function stripeError(status: number, type: string, message: string, code?: string) {
  return { status, body: { error: { type, message, ...(code ? { code } : {}) } } };
}

/** Starts the double on a free port; `url` goes to STRIPE_API_BASE. */
export async function startStatefulStripe() {
  const customers = new Map<string, Customer>();
  const subscriptions = new Map<string, Subscription>();
  const invoices = new Map<string, Invoice>();
  const intents = new Map<string, PaymentIntent>();
  const idempotency = new Map<string, { fingerprint: string; status: number; body: unknown }>();
  const failures: Array<{ method: string; path: RegExp; status: number; body: unknown }> = [];
  const hooks: Array<{ method: string; path: RegExp; run: () => void | Promise<void> }> = [];
  const log: string[] = [];

  const invoiceJson = (invoice: Invoice): Json => ({
    id: invoice.id,
    object: 'invoice',
    customer: invoice.customer,
    status: invoice.status,
    currency: 'usd',
    amount_due: invoice.amount_due,
    amount_paid: invoice.amount_paid,
    confirmation_secret: { client_secret: intents.get(invoice.payment_intent)!.client_secret, type: 'payment_intent' },
    payments: { object: 'list', data: [{ id: `inpay_${invoice.id}`, is_default: true, payment: { type: 'payment_intent', payment_intent: invoice.payment_intent } }] },
    parent: { type: 'subscription_details', subscription_details: { subscription: invoice.subscription, metadata: invoice.metadata } },
  });
  const subscriptionJson = (subscription: Subscription, expandInvoice: boolean): Json => ({
    id: subscription.id,
    object: 'subscription',
    customer: subscription.customer,
    status: subscription.status,
    metadata: subscription.metadata,
    items: { object: 'list', data: [{ id: subscription.item, object: 'subscription_item', quantity: subscription.quantity, price: { id: PRICE_ID } }] },
    latest_invoice: expandInvoice ? invoiceJson(invoices.get(subscription.invoice)!) : subscription.invoice,
  });
  const missing = (what: string, id: string) => stripeError(404, 'invalid_request_error', `No such ${what}: '${id}'`, 'resource_missing');

  function handle(method: string, path: string, params: URLSearchParams): { status: number; body: unknown } {
    const expand = params.getAll('expand[0]').concat(params.getAll('expand[1]'));
    let match: RegExpExecArray | null;
    if (method === 'GET' && path === '/v1/prices') {
      return { status: 200, body: { object: 'list', data: [{ id: PRICE_ID, object: 'price', active: true, lookup_keys: params.get('lookup_keys[0]') }], has_more: false } };
    }
    if (method === 'POST' && path === '/v1/customers') {
      const customer: Customer = { id: newId('cus'), email: null, name: null, metadata: Object.fromEntries([...params].filter(([k]) => k.startsWith('metadata[')).map(([k, v]) => [k.slice(9, -1), v])) };
      customers.set(customer.id, customer);
      return { status: 200, body: { id: customer.id, object: 'customer', metadata: customer.metadata } };
    }
    if (method === 'POST' && (match = /^\/v1\/customers\/([^/]+)$/.exec(path))) {
      const customer = customers.get(match[1]!);
      if (!customer) return missing('customer', match[1]!);
      customer.email = params.get('email') ?? customer.email;
      customer.name = params.get('name') ?? customer.name;
      return { status: 200, body: { id: customer.id, object: 'customer', email: customer.email, name: customer.name } };
    }
    if (method === 'POST' && path === '/v1/subscriptions') {
      const customerId = params.get('customer') ?? '';
      if (!customers.has(customerId)) return missing('customer', customerId);
      const quantity = Number(params.get('items[0][quantity]'));
      const metadata = { transactionId: params.get('metadata[transactionId]') ?? '' };
      const intent: PaymentIntent = { id: newId('pi'), client_secret: '', status: 'requires_payment_method', billing: null };
      intent.client_secret = `${intent.id}_secret_${randomBytes(8).toString('hex')}`;
      const subscription: Subscription = { id: newId('sub'), customer: customerId, status: 'incomplete', quantity, item: newId('si'), invoice: newId('in'), metadata };
      const invoice: Invoice = { id: subscription.invoice, subscription: subscription.id, customer: customerId, status: 'open', amount_due: monthlyTotalCents(quantity), amount_paid: 0, payment_intent: intent.id, metadata };
      intents.set(intent.id, intent);
      subscriptions.set(subscription.id, subscription);
      invoices.set(invoice.id, invoice);
      return { status: 200, body: subscriptionJson(subscription, true) };
    }
    if ((match = /^\/v1\/subscriptions\/([^/]+)$/.exec(path))) {
      const subscription = subscriptions.get(match[1]!);
      if (!subscription || (method === 'DELETE' && subscription.status === 'canceled')) return missing('subscription', match[1]!);
      if (method === 'DELETE') {
        // As at Stripe: a paid subscription is cancelled too; its open invoice (if any) stays as it is.
        subscription.status = 'canceled';
        return { status: 200, body: subscriptionJson(subscription, false) };
      }
      return { status: 200, body: subscriptionJson(subscription, expand.includes('latest_invoice')) };
    }
    if ((match = /^\/v1\/invoices\/([^/]+)(\/void)?$/.exec(path))) {
      const invoice = invoices.get(match[1]!);
      if (!invoice) return missing('invoice', match[1]!);
      if (method === 'POST' && match[2]) {
        if (invoice.status !== 'open') {
          return stripeError(400, 'invalid_request_error', `You can only void open invoices. This invoice is ${invoice.status}.`);
        }
        invoice.status = 'void';
        intents.get(invoice.payment_intent)!.status = 'canceled';
      }
      return { status: 200, body: invoiceJson(invoice) };
    }
    if (method === 'GET' && (match = /^\/v1\/payment_intents\/([^/]+)$/.exec(path))) {
      const intent = intents.get(match[1]!);
      if (!intent) return missing('payment_intent', match[1]!);
      const paymentMethod = intent.billing ? { id: 'pm_double', object: 'payment_method', billing_details: intent.billing } : null;
      return { status: 200, body: { id: intent.id, object: 'payment_intent', status: intent.status, payment_method: paymentMethod } };
    }
    return stripeError(404, 'invalid_request_error', `Unrecognized request URL (${method}: ${path})`);
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
    let answer: { status: number; body: unknown };
    const failure = failures.find((candidate) => candidate.method === method && candidate.path.test(url.pathname));
    const key = request.headers['idempotency-key'];
    const fingerprint = `${method} ${url.pathname} ${[...params].sort().join('&')}`;
    const seen = typeof key === 'string' ? idempotency.get(key) : undefined;
    if (failure) {
      failures.splice(failures.indexOf(failure), 1);
      answer = failure;
    } else if (seen && seen.fingerprint !== fingerprint) {
      answer = stripeError(
        400,
        'idempotency_error',
        `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${String(key)}' if you meant to execute a different request.`,
      );
    } else if (seen) {
      answer = seen;
    } else {
      answer = handle(method, url.pathname, params);
      if (typeof key === 'string' && method === 'POST') idempotency.set(key, { fingerprint, ...answer });
    }
    response.writeHead(answer.status, { 'content-type': 'application/json', 'request-id': `req_double_${log.length}`, 'stripe-should-retry': 'false' });
    response.end(JSON.stringify(answer.body));
  };
  // A fault in the double is a bug in the test: its rejection stays unhandled, and vitest fails the run with it.
  const server = createServer((request, response) => void answerRequest(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    /** Every request, as `METHOD /path`. */
    log,
    subscription: (id: string) => subscriptions.get(id),
    invoiceOf: (subscriptionId: string) => invoices.get(subscriptions.get(subscriptionId)?.invoice ?? ''),
    customer: (id: string) => customers.get(id),
    /** All subscriptions of a transaction. */
    subscriptionsOf: (transactionId: string) => [...subscriptions.values()].filter((s) => s.metadata.transactionId === transactionId),
    /**
     * The buyer pays the PaymentIntent behind `clientSecret` (Stripe.js's confirmPayment with a card that
     * succeeds). Returns false, and changes nothing, when the intent cannot be paid (voided, canceled, paid).
     */
    pay(clientSecret: string, billing = { name: 'Jane Doe', email: 'jane@example.com' }): boolean {
      const intent = [...intents.values()].find((candidate) => candidate.client_secret === clientSecret);
      const invoice = intent && [...invoices.values()].find((candidate) => candidate.payment_intent === intent.id);
      if (!intent || !invoice || intent.status !== 'requires_payment_method' || invoice.status !== 'open') return false;
      intent.status = 'succeeded';
      intent.billing = billing;
      invoice.status = 'paid';
      invoice.amount_paid = invoice.amount_due;
      const subscription = subscriptions.get(invoice.subscription)!;
      if (subscription.status === 'incomplete') subscription.status = 'active';
      return true;
    },
    /** Cancels a subscription directly (the Dashboard, a retention rule). */
    cancel(subscriptionId: string) {
      const subscription = subscriptions.get(subscriptionId);
      if (subscription) subscription.status = 'canceled';
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
}

export type StatefulStripe = Awaited<ReturnType<typeof startStatefulStripe>>;
