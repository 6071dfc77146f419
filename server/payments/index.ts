/**
 * The running provider's own routes: the sandbox's card form and clock under the API's rate limit, Stripe's webhook
 * outside it (its raw body, its own limit). Which provider runs is the provider's business (./provider.ts).
 */
import type { FastifyInstance } from 'fastify';
import { countAgainstApiLimit } from '../http/apiLimit';
import type { ProviderRouteOptions } from './provider';

/** Registers the provider's routes, if it has any. */
export async function paymentsPlugin(app: FastifyInstance, options: ProviderRouteOptions): Promise<void> {
  const { routes, webhookRoutes } = options.provider;
  if (routes) {
    await app.register(async (api) => {
      countAgainstApiLimit(api);
      await api.register(routes, options);
    });
  }
  if (webhookRoutes) await app.register(webhookRoutes, options);
}

export type {
  CreatedSubscription,
  OperationResult,
  PaymentBuyer,
  PaymentEvent,
  PaymentEventRunner,
  PaymentProvider,
  ProviderDispute,
  RefundedPayment,
  SeatChangePreview,
  SubscriptionPayment,
} from './provider';
