/**
 * Call 1 (spec §7): the provider's customer and subscription are created first, the order row last, so a provider
 * failure leaves nothing half-written. Amounts in cents, priced by the server.
 */
import { randomUUID } from 'node:crypto';
import type { SubscriptionSession } from '../../src/contract/checkout';
import { monthlyTotalCents } from '../../src/domain/pricing';
import { orders } from '../db/schema';
import { recordFunnelEvent } from '../funnel';
import type { OrderContext } from './order';
import { outcomeOf, type Outcome } from './outcome';
import { callProvider } from './providerCall';

interface OpenCheckoutInput {
  quantity: number;
  /** Spec §3, recorded as sent. */
  affiliateId: string;
  affiliateSource: string;
  referrer: { id: string; slug: string } | null;
}

/** Refuses 'provider_unavailable' (no order row is written). */
export function openCheckout(context: OrderContext, input: OpenCheckoutInput): Promise<Outcome<SubscriptionSession>> {
  return outcomeOf(() => open(context, input));
}

async function open(context: OrderContext, input: OpenCheckoutInput): Promise<SubscriptionSession> {
  const { db, provider, log } = context;
  const transactionId = randomUUID();
  const { customerId } = await callProvider(log, 'create customer', () =>
    provider.createCustomer({
      transactionId,
      affiliateId: input.affiliateId,
      affiliateSource: input.affiliateSource,
      referrer: input.referrer?.slug,
      idempotencyKey: `${transactionId}:customer`,
    }),
  );
  const subscription = await callProvider(log, 'create subscription', () =>
    provider.createSubscription({
      transactionId,
      customerId,
      quantity: input.quantity,
      referrer: input.referrer?.slug,
      idempotencyKey: `${transactionId}:subscription:0`,
    }),
  );
  try {
    await db.transaction(async (tx) => {
      await tx.insert(orders).values({
        transactionId,
        provider: provider.name,
        customerId,
        subscriptionId: subscription.subscriptionId,
        subscriptionItemId: subscription.subscriptionItemId,
        paymentIntentId: subscription.paymentIntentId,
        clientSecret: subscription.clientSecret,
        quantity: input.quantity,
        amountCents: monthlyTotalCents(input.quantity),
        affiliateId: input.affiliateId,
        affiliateSource: input.affiliateSource,
        referrerId: input.referrer?.id ?? null,
      });
      await recordFunnelEvent(tx, {
        type: 'checkout_opened',
        transactionId,
        referrerId: input.referrer?.id,
        detail: { seats: input.quantity },
      });
    });
  } catch (error) {
    // Without its order the subscription can never be finalized: cancel it so it cannot be paid.
    await provider
      .cancelUnpaidSubscription(subscription.subscriptionId, `${transactionId}:cancel:${subscription.subscriptionId}`)
      .catch((cancelError: unknown) => log.error({ err: cancelError }, 'Could not cancel an orphaned subscription'));
    throw error;
  }
  return {
    clientSecret: subscription.clientSecret,
    subscriptionId: subscription.subscriptionId,
    subscriptionItemId: subscription.subscriptionItemId,
    customerId,
    transactionId,
  };
}
