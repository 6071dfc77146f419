/**
 * The location step (docs/decisions/0071): before anything is charged, where the location owes tax the unpaid
 * subscription is replaced by one taxed for it, for the buyer to confirm the new total.
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

type Located = { kind: 'quoted'; quote: TaxQuote } | { kind: 'refused'; refusal: LocationErrorResponse };

/** Amounts in cents. Refused locations change nothing. Refusals as changeSeats's. */
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
  if (!current && !(await isReplacedSubscriptionOf(context, order, input.subscriptionId))) refuse('unknown_checkout');
  assertOpen(order);
  if (!current) refuse('checkout_changed');
  // Under the seat change's lease, so the decision is never made on a subscription or address being replaced.
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
