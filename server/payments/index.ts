/** Stripe's webhook stays outside the API's rate limit: its raw body, its own limit. */
import type { FastifyInstance } from 'fastify';
import { countAgainstApiLimit } from '../http/apiLimit';
import type { ProviderRouteOptions } from './provider';

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

export { createPaymentProvider } from './createPaymentProvider';
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
