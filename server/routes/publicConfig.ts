/** GET /api/config: what the browser may know about this server's set-up (src/contract/checkout.ts PublicConfig). */
import type { FastifyPluginAsync } from 'fastify';
import { PublicConfig } from '../../src/contract/checkout';
import { paymentProviderName } from '../config';
import type { OrderServices } from '../orders/order';

export const publicConfigRoute: FastifyPluginAsync<OrderServices> = async (app, { config }) => {
  const publicConfig: PublicConfig = {
    paymentProvider: paymentProviderName(config),
    stripePublishableKey: paymentProviderName(config) === 'stripe' ? (config.STRIPE_PUBLISHABLE_KEY ?? null) : null,
    successSite: { local: config.SUCCESS_SITE_LOCAL_URL, production: config.SUCCESS_SITE_URL },
  };
  app.get<{ Reply: PublicConfig }>(
    '/api/config',
    { schema: { summary: 'Payment provider, publishable key and success-site addresses', response: { 200: PublicConfig } } },
    async () => publicConfig,
  );
};
