/** An order's funnel events in the owner's words ("events shown in words, not raw values"). */
import type { FunnelEventRow } from '../../contract/admin';
import { consoleDay } from '../../domain/orderStatus';
import { formatDollars } from '../../domain/pricing';

const seats = (count: unknown) => `${String(count)} ${count === 1 ? 'seat' : 'seats'}`;
const money = (cents: unknown) => (typeof cents === 'number' ? formatDollars(cents) : '');

/** Why a subscription ended (server/checkout/subscriptionLifecycle.ts EndReason). */
const ENDINGS: Record<string, string> = {
  cancelled_at_period_end: 'at the end of the paid period, as the buyer asked',
  unpaid: 'after unpaid renewals',
  refunded: 'with a refund',
  deleted: 'cancelled now',
};

/** The sandbox's and Stripe's decline codes the checkout sees most, in words. */
const DECLINES: Record<string, string> = {
  card_declined: 'the card was declined',
  insufficient_funds: 'insufficient funds',
  authentication_failed: 'authentication failed',
  expired_card: 'the card has expired',
  incorrect_cvc: 'the security code was wrong',
};

/** What `event` means: "Paid for 3 seats: $1,000.00/month", "Payment failed: insufficient funds", … */
export function eventWords({ type, detail }: FunnelEventRow): string {
  const d = detail ?? {};
  switch (type) {
    case 'page_view':
      return 'Viewed the offer';
    case 'checkout_opened':
      return d.seats === undefined ? 'Opened the checkout' : `Opened the checkout with ${seats(d.seats)}`;
    case 'seats_changed':
      return `Seats changed from ${String(d.from)} to ${String(d.to)}`;
    case 'payment_submitted':
      return 'Submitted the card';
    case 'payment_failed':
      if (typeof d.declineCode === 'string') return `Payment failed: ${DECLINES[d.declineCode] ?? d.declineCode.replace(/_/g, ' ')}`;
      if (d.invoice !== undefined) return 'A renewal payment failed: the order is past due';
      return 'Payment failed';
    case 'paid':
      return d.amountCents === undefined ? 'Paid' : `Paid for ${seats(d.seats)}: ${money(d.amountCents)}/month`;
    case 'renewal_paid':
      return `Renewal paid: ${money(d.amountCents)}`;
    case 'proration_paid':
      return `Seats added: ${money(d.amountCents)} charged now`;
    case 'handoff_redeemed':
      return 'Went on to sign the training agreement';
    case 'cancel_scheduled': {
      const on = typeof d.cancelAt === 'string' ? ` for ${consoleDay(d.cancelAt)}` : '';
      return typeof d.reason === 'string' ? `Cancellation scheduled${on}. Reason: “${d.reason}”` : `Cancellation scheduled${on}`;
    }
    case 'cancel_undone':
      return 'Cancellation undone: the subscription continues';
    case 'cancelled':
      return typeof d.reason === 'string' ? `Subscription ended ${ENDINGS[d.reason] ?? d.reason.replace(/_/g, ' ')}` : 'Subscription ended';
    case 'refunded':
      return `Refunded ${money(d.amountCents)}`;
    default:
      return type.replace(/_/g, ' ');
  }
}
