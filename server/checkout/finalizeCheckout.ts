/**
 * Call 3 (spec §7; spec §6 "generated credentials"): checks the payment with the provider, completes the order
 * and hands the buyer credentials, once and only to the order's buyer (docs/decisions/0026, 0008); after that, a
 * sign-in link is mailed instead.
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
  email: string;
  name: string;
}

/** Refuses 'unknown_checkout', 'payment_incomplete', 'buyer_mismatch', 'order_cancelled', 'checkout_changed', 'provider_unavailable'. */
export function finalizeCheckout(context: OrderContext, input: FinalizeInput): Promise<Outcome<FinalizeResponse>> {
  return outcomeOf(() => finalizeOrRefuse(context, input));
}

/** The redirect return passes the `paymentBuyer` it already matched the email against. */
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
  // completeOrder checks the order's buyer again under its lock.
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
 * Amounts in cents: the total before tax (Stripe `total_excluding_tax`) must be the server's price, the tax the
 * one the page showed (docs/decisions/0071). Says nothing about whether the subscription still runs.
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

/** Also `active`: a cancelled subscription was paid once and would never renew. completeOrder re-checks under the lock. */
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
