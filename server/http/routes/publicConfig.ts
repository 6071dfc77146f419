/**
 * GET /api/config (src/contract/checkout.ts PublicConfig). The checkout page asks once per load with `?page=/`: that
 * is the funnel's 'page_view', so crawlers of the HTML count for nothing.
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { PublicConfig } from '../../../src/contract/checkout';
import { PAGE_PATHS } from '../../../src/domain/pagePaths';
import { paymentProviderName, type Config } from '../../config';

const ConfigQuery = Type.Object({ page: Type.Optional(Type.String({ maxLength: 2048 })) });

interface PublicConfigOptions {
  config: Config;
  recordPageView: (request: FastifyRequest) => Promise<void>;
}

export const publicConfigRoute: FastifyPluginAsync<PublicConfigOptions> = async (app, { config, recordPageView }) => {
  const publicConfig: PublicConfig = {
    paymentProvider: paymentProviderName(config),
    stripePublishableKey: paymentProviderName(config) === 'stripe' ? (config.STRIPE_PUBLISHABLE_KEY ?? null) : null,
    successSite: { local: config.SUCCESS_SITE_LOCAL_URL, production: config.SUCCESS_SITE_URL },
    trainingPlatformUrl: config.TRAINING_PLATFORM_URL ?? null,
  };
  app.get<{ Querystring: { page?: string }; Reply: PublicConfig }>(
    '/api/config',
    {
      schema: {
        summary: 'Payment provider, publishable key, success-site addresses and where people sign in',
        querystring: ConfigQuery,
        response: { 200: PublicConfig },
      },
    },
    async (request) => {
      if (request.query.page === PAGE_PATHS.checkout) await recordPageView(request);
      return publicConfig;
    },
  );
};
