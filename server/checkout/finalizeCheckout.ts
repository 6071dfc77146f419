/**
 * Call 3 (spec §7, finalize-anon-subscription; spec §6 "generated credentials"): after the card payment, checks
 * with the provider that the subscription is active and its first invoice paid in full for the order's seats,
 * completes the order (./completeOrder.ts, which re-checks under the order's lock) and hands the buyer a password
 * and a hand-off token. Credentials are handed out once, to the checkout that paid
 * (docs/decisions/0026-credentials-handed-out-once.md): only to the order's buyer (the body's email must be the
 * one the payment recorded), and a repeat answers the same password and token only while the first token is live
 * (docs/decisions/0008). After that the order's success is answered without credentials, and a sign-in link to
 * /account is mailed to the buyer.
 */
import type { FinalizeResponse } from '../../src/contract/checkout';
import { monthlyTotalCents } from '../../src/domain/pricing';
import { PRODUCT_NAME } from '../../src/domain/product';
import type { SubscriptionPayment } from '../payments';
import { newHandoffToken } from '../security/handoffToken';
import { generatePassword, hashPassword } from '../security/password';
import { completeOrder, type VerifiedPayment } from './completeOrder';
import { findOrder, type Order, type OrderContext } from './order';
import { outcomeOf, refuse, type Outcome } from './outcome';
import { callProvider } from './providerCall';
import { recordBuyerOnCustomer } from './recordBuyer';
import { buyerOfOrder, sameEmail, type Buyer } from './paymentBuyer';

interface FinalizeInput {
  transactionId: string;
  subscriptionId: string;
  customerId: string;
  /** Trimmed and matching EMAIL_PATTERN (checked by the route). */
  email: string;
  /** Trimmed, 1–200 characters (checked by the route). */
  name: string;
}

/**
 * Finalizes the checkout and answers `{ success: true, token, loginDetails, signInLinkEmailed: false }`, or after
 * the first hand-off window `{ success: true, token: null, loginDetails: null, signInLinkEmailed: true }` with the
 * sign-in link mail queued. Refusals: 'unknown_checkout' (no order with these ids); 'payment_incomplete' (nothing
 * written); 'buyer_mismatch' (the email is not the buyer's; nothing written); 'order_cancelled';
 * 'checkout_changed' (moved since the payment was checked); 'provider_unavailable'.
 */
export function finalizeCheckout(context: OrderContext, input: FinalizeInput): Promise<Outcome<FinalizeResponse>> {
  return outcomeOf(() => finalizeOrRefuse(context, input));
}

/**
 * finalizeCheckout's steps; refuses inside an outcomeOf. The redirect return passes `paymentBuyer`, the buyer it
 * already read from the payment and matched the email against; otherwise it is read here.
 */
export async function finalizeOrRefuse(context: OrderContext, input: FinalizeInput, paymentBuyer?: Buyer): Promise<FinalizeResponse> {
  const { config, db, provider, log, cipher } = context;
  const order = await findOrder(db, input.transactionId);
  if (!order || order.subscriptionId !== input.subscriptionId || order.customerId !== input.customerId) {
    refuse('unknown_checkout');
  }
  const payment = await callProvider(log, 'retrieve subscription payment', () =>
    provider.retrieveSubscriptionPayment(order.subscriptionId),
  );
  const verified = verifiedPayment(order, payment);
  if (!verified) refuse('payment_incomplete');
  // The buyer is who the payment recorded (the order's details, else the card confirmation's billing details);
  // completeOrder checks the order's again under its lock. Without either, the first finalize names the buyer.
  const buyer = paymentBuyer ?? (await callProvider(log, 'retrieve payment buyer', () => buyerOfOrder(context, order)));
  if (buyer && !sameEmail(buyer.email, input.email)) refuse('buyer_mismatch');

  const password = generatePassword();
  const handoff = newHandoffToken();
  const result = await completeOrder(db, {
    transactionId: order.transactionId,
    verified,
    buyer: { email: input.email, name: input.name },
    listeners: context.listeners,
    clock: provider.clock,
    issue: {
      credentials: {
        password,
        passwordHash: await hashPassword(password),
        token: handoff.token,
        tokenHash: handoff.tokenHash,
        ttlMinutes: config.HANDOFF_TTL_MINUTES,
      },
      cipher,
    },
  });
  switch (result.kind) {
    case 'unknown':
      return refuse('unknown_checkout');
    case 'cancelled':
      return refuse('order_cancelled');
    case 'changed':
      return refuse('checkout_changed');
    case 'buyer_mismatch':
      return refuse('buyer_mismatch');
  }
  const { credentials } = result;
  log.info(
    { transactionId: order.transactionId, accountCreated: result.accountCreated, credentialsAnswered: credentials !== null },
    'Checkout finalized',
  );
  await recordBuyerOnCustomer(context, order, result.account);
  if (!credentials) {
    await db.transaction((tx) => context.listeners.announce(tx, 'signInLinkWanted', { transactionId: order.transactionId }));
    return { success: true, token: null, loginDetails: null, signInLinkEmailed: true };
  }
  return {
    success: true,
    token: credentials.token,
    loginDetails: { email: result.account.email, password: credentials.password, productPurchased: PRODUCT_NAME },
    signInLinkEmailed: false,
  };
}

/**
 * True when `payment` is this order's subscription and its first invoice is paid: state 'paid' in 'usd', for the
 * order's seat count, its total before tax (Stripe `total_excluding_tax`) equal to monthlyTotalCents(order.quantity)
 * (the server is the price authority), its tax equal to the tax the page showed (the order's `taxCents`), and the
 * amount paid the two together (docs/decisions/0071). Says nothing about whether the subscription is still running.
 */
export function isFirstInvoicePaid(order: Order, payment: SubscriptionPayment | null): boolean {
  const invoice = payment?.firstInvoice;
  return (
    !!payment &&
    !!invoice &&
    payment.subscriptionId === order.subscriptionId &&
    payment.customerId === order.customerId &&
    payment.quantity === order.quantity &&
    invoice.state === 'paid' &&
    invoice.currency === 'usd' &&
    invoice.totalExcludingTaxCents === monthlyTotalCents(order.quantity) &&
    invoice.taxCents === order.taxCents &&
    invoice.amountPaidCents === monthlyTotalCents(order.quantity) + order.taxCents
  );
}

/**
 * What finalize and payment events require before completing an order: the first invoice paid in full
 * (isFirstInvoicePaid) and the subscription `active` (a cancelled one was paid once and would never renew).
 * Returns what was verified, for completeOrder to re-check under the order's lock; null when not paid in full.
 */
export function verifiedPayment(order: Order, payment: SubscriptionPayment | null): VerifiedPayment | null {
  const invoice = payment?.firstInvoice;
  if (!payment || !invoice || payment.state !== 'active' || !isFirstInvoicePaid(order, payment)) return null;
  return {
    subscriptionId: payment.subscriptionId,
    quantity: payment.quantity,
    amountCents: invoice.totalExcludingTaxCents,
    taxCents: invoice.taxCents,
    invoiceId: invoice.invoiceId,
  };
}
