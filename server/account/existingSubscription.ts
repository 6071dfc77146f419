/**
 * The checkout's notice before a second purchase (docs/decisions/0031), answered only from what the browser holds
 * (the session, or the ids of the purchase it finalized): an email alone is never looked up, so a stranger learns
 * nothing.
 */
import type { Database } from '../db/client';
import { findOrder, isPaidOrder, type Order } from '../checkout';

/** Both must match one order. */
interface PurchaseProof {
  transactionId: string;
  customerId: string;
}

const sameEmail = (a: string | null, b: string) => !!a && a.trim().toLowerCase() === b.trim().toLowerCase();

/** Paid or past due. */
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
