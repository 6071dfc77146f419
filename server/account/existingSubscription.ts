/**
 * The checkout's notice before a second purchase (docs/decisions/0031): does `email` already have an
 * active subscription? Answered only from what the asking browser already holds: the manage page's session, or
 * the ids of the purchase it finalized (src/api/pendingPayment.ts). An email alone is never looked up, so the
 * answer tells a stranger nothing the checkout did not (the same `false`, after the same work, whether or not the
 * email has bought).
 */
import type { Database } from '../db/client';
import { findOrder, isPaidOrder, type Order } from '../checkout';

/** The ids of a purchase this browser finalized: both must match one order. */
interface PurchaseProof {
  transactionId: string;
  customerId: string;
}

const sameEmail = (a: string | null, b: string) => !!a && a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * True when an order this browser proves it holds (`signedIn`, the manage page's session order, or `purchase`)
 * is the buyer's at `email` and is paid or past due (not cancelled, not open).
 */
export async function provenActiveSubscription(
  db: Database,
  email: string,
  { signedIn, purchase }: { signedIn: Order | null; purchase?: PurchaseProof },
): Promise<boolean> {
  const proven: Order[] = signedIn ? [signedIn] : [];
  if (purchase) {
    const order = await findOrder(db, purchase.transactionId);
    if (order && order.customerId === purchase.customerId) proven.push(order);
  }
  return proven.some((order) => sameEmail(order.email, email) && isPaidOrder(order));
}
