/**
 * An order's status as the owner reads it in the console: one rule for the words, the filters and the
 * server's query (server/admin/reports.ts mirrors `orderStanding` in SQL; test/unit/orderStatus.test.ts).
 *
 * - open: the checkout was opened and never paid → "Not paid"
 * - active: paid, nothing scheduled → "Active"
 * - cancelling: paid, a cancellation is scheduled (shown at once, not only when it takes effect) → "Cancels on Dec 24, 2026"
 * - past_due: a renewal is unpaid → "Past due since Nov 24, 2026"
 * - cancelled: the subscription ended → "Cancelled"
 * - refunded: the subscription ended with money given back (a console refund ends it) → "Refunded"
 * - disputed: a dispute (chargeback) of a payment is open, whatever else holds: the owner must answer it by its
 *   evidence deadline → "Disputed: evidence due Dec 3, 2026"
 */

/** What the console calls an order's state; also the values of the orders filter. */
export const ORDER_STANDINGS = ['open', 'active', 'cancelling', 'past_due', 'cancelled', 'refunded', 'disputed'] as const;
export type OrderStanding = (typeof ORDER_STANDINGS)[number];

/** The filter's label of each standing. */
export const STANDING_LABELS: Record<OrderStanding, string> = {
  open: 'Not paid',
  active: 'Active',
  cancelling: 'Cancels at period end',
  past_due: 'Past due',
  cancelled: 'Cancelled',
  refunded: 'Refunded',
  disputed: 'Disputed',
};

/** The facts of an order the standing is read from (times ISO 8601, money in cents). */
interface OrderStatusFacts {
  /** The stored status: 'open', 'paid', 'past_due' or 'cancelled'. */
  status: string;
  cancelAt: string | null;
  pastDueSince: string | null;
  refundedCents: number;
  /** A dispute of one of its payments is open. */
  disputed?: boolean;
  /** The earliest evidence deadline of its open disputes, ISO 8601; null when none is asked. */
  disputeDueBy?: string | null;
}

/** The standing of an order (see the file's comment for the rule). */
export function orderStanding(order: OrderStatusFacts): OrderStanding {
  if (order.disputed && order.status !== 'open') return 'disputed';
  switch (order.status) {
    case 'open':
      return 'open';
    case 'past_due':
      return 'past_due';
    case 'cancelled':
      return order.refundedCents > 0 ? 'refunded' : 'cancelled';
    default:
      return order.cancelAt ? 'cancelling' : 'active';
  }
}

/** A day as the console writes it: "Dec 24, 2026" (UTC, the day the server's dates are counted in). */
export function consoleDay(iso: string): string {
  return new Date(iso).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
}

/** The order's status in words: "Active", "Cancels on Dec 24, 2026", "Past due since Nov 24, 2026", "Cancelled", "Refunded". */
export function orderStatusWords(order: OrderStatusFacts): string {
  const standing = orderStanding(order);
  if (standing === 'cancelling' && order.cancelAt) return `Cancels on ${consoleDay(order.cancelAt)}`;
  if (standing === 'past_due' && order.pastDueSince) return `Past due since ${consoleDay(order.pastDueSince)}`;
  if (standing === 'disputed' && order.disputeDueBy) return `Disputed: evidence due ${consoleDay(order.disputeDueBy)}`;
  return STANDING_LABELS[standing];
}
