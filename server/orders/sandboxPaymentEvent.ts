/**
 * The sandbox's equivalent of Stripe's `invoice.paid` webhook (architecture.md, "The server owns an order's
 * completion"): when a sandbox confirmation (or authentication) is accepted, the same internal payment event runs
 * through the same code path (applyPaymentEvent → completeOrder), so the order is paid and its account exists
 * before the browser hears "succeeded", and a tab closed right after the charge loses nothing. The event id is
 * the PaymentIntent's, so a repeated confirmation is processed once.
 */
import type { PaidIntent } from '../payments/sandboxIntents';
import { applyPaymentEvent } from './applyPaymentEvent';
import type { OrderContext } from './order';

/**
 * Applies the payment event of `paid`. Never throws: the payment is taken whatever happens here, so a failure is
 * logged and left to the reconciliation sweep (./reconcileOrders.ts).
 */
export async function raiseSandboxPayment(context: OrderContext, paid: PaidIntent): Promise<void> {
  try {
    const applied = await applyPaymentEvent(context, {
      eventId: `sandbox:${paid.paymentIntentId}:paid`,
      kind: 'invoice_paid',
      providerType: 'sandbox.invoice.paid',
      subscriptionId: paid.subscriptionId,
      transactionId: paid.transactionId,
    });
    if (!applied.ok) throw new Error(`Refused: ${applied.refusal}`);
  } catch (error) {
    context.log.error({ err: error, transactionId: paid.transactionId }, 'Sandbox payment event failed; the sweep completes the order');
  }
}
