/**
 * The location step (docs/decisions/0071): on submit, before anything is charged, the page sends where the buyer
 * is (the card form's country and ZIP). The customer's address is set and the provider places it for tax; where
 * it owes tax, the unpaid subscription is replaced by one taxed for it (the seat change's replace path,
 * ./changeSeats.ts, under the seat change's lease from placing to deciding), and the page shows the tax and the new monthly total for the buyer to confirm. Where it owes
 * none, the session stays as it is (or, if it was taxed for an earlier location, is replaced by an untaxed one).
 */
import type { LocationErrorResponse, TaxQuote } from '../../src/contract/checkout';
import { monthlyTotalCents } from '../../src/domain/pricing';
import { normalizeTaxLocation, TAX_LOCATION_MESSAGES, taxLocationRefusal, type TaxLocation } from '../../src/domain/tax';
import { and, eq } from 'drizzle-orm';
import { orders } from '../db/schema';
import { assertOpen, isReplacedSubscriptionOf, replaceLeased, underSeatChangeLease } from './changeSeats';
import { findOrder, type Order, type OrderContext } from './order';
import { outcomeOf, refuse, type Outcome } from './outcome';
import { callProvider } from './providerCall';

interface LocateInput extends TaxLocation {
  transactionId: string;
  subscriptionId: string;
  subscriptionItemId: string;
}

/** The location step's answer: the quote, or the location refused with the card form's field to say it at. */
type Located = { kind: 'quoted'; quote: TaxQuote } | { kind: 'refused'; refusal: LocationErrorResponse };

/**
 * Places the buyer and answers the checkout's session and monthly amounts for the location, in cents. Refused
 * locations (a country not sold to, a ZIP that is not one, one the provider cannot place) change nothing.
 * Refusals: 'unknown_checkout' (ids not the order's current ones), 'order_paid', 'order_cancelled',
 * 'checkout_changed', 'seats_being_updated', 'provider_unavailable'.
 */
export function locateBuyer(context: OrderContext, input: LocateInput): Promise<Outcome<Located>> {
  return outcomeOf(() => locateOrRefuse(context, input));
}

async function locateOrRefuse(context: OrderContext, input: LocateInput): Promise<Located> {
  const { db, provider, log } = context;
  const refusal = taxLocationRefusal(input);
  if (refusal) return { kind: 'refused', refusal: { error: refusal.message, field: refusal.field } };
  const location = normalizeTaxLocation(input);
  const order = await findOrder(db, input.transactionId);
  if (!order) refuse('unknown_checkout');
  const current = order.subscriptionId === input.subscriptionId && order.subscriptionItemId === input.subscriptionItemId;
  // As a seat change's: a subscription the order had before a replacement is 'checkout_changed', any other unknown.
  if (!current && !(await isReplacedSubscriptionOf(context, order, input.subscriptionId))) refuse('unknown_checkout');
  assertOpen(order);
  if (!current) refuse('checkout_changed');
  // Placed, previewed and decided under the seat change's lease: a seat change (or another location) meanwhile is
  // refused, so the decision is never made on seats or a subscription that are being replaced, nor on an address
  // another request just set.
  return underSeatChangeLease(context, order, async (leased, attempt): Promise<Located> => {
    const key = `${leased.transactionId}:location:${leased.revision}:${location.country}:${location.postalCode}`;
    const placement = await callProvider(log, 'set customer location', () =>
      provider.setCustomerLocation(leased.customerId, location, key),
    );
    if (placement.kind === 'not_placeable') {
      return { kind: 'refused', refusal: { error: TAX_LOCATION_MESSAGES.notPlaceable, field: 'postalCode' } };
    }
    const preview = await callProvider(log, 'preview tax', () => provider.previewTax(leased.customerId, leased.quantity));
    const owesTax = preview.taxCents > 0;
    const tax = { state: placement.state, ...location };
    const taxedAsQuoted = leased.taxState === placement.state && leased.taxCents === preview.taxCents;
    if (owesTax ? taxedAsQuoted : leased.taxState === null)
      return { kind: 'quoted', quote: quoteOf(await recordLocation(context, leased, attempt, location)) };
    const moved = await replaceLeased(context, leased, attempt, { quantity: leased.quantity, automaticTax: owesTax, tax });
    return { kind: 'quoted', quote: quoteOf(moved) };
  });
}

/**
 * Writes the location on the order when it needs no new subscription, while `attempt` holds the seat change's
 * lease; answers the order as it now is.
 */
async function recordLocation({ db }: OrderContext, order: Order, attempt: string, location: TaxLocation): Promise<Order> {
  const [updated] = await db
    .update(orders)
    .set({ taxCountry: location.country, taxPostalCode: location.postalCode, updatedAt: new Date() })
    .where(
      and(
        eq(orders.transactionId, order.transactionId),
        eq(orders.subscriptionId, order.subscriptionId),
        eq(orders.status, 'open'),
        eq(orders.seatChangeAttempt, attempt),
      ),
    )
    .returning();
  if (!updated) refuse('checkout_changed');
  return updated;
}

function quoteOf(order: Order): TaxQuote {
  return {
    clientSecret: order.clientSecret,
    subscriptionId: order.subscriptionId,
    subscriptionItemId: order.subscriptionItemId,
    subtotalCents: monthlyTotalCents(order.quantity),
    taxCents: order.taxCents,
    taxState: order.taxCents > 0 ? order.taxState : null,
  };
}
