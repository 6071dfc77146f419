/**
 * GET /api/config: what the browser may know about this server's set-up (src/contract/checkout.ts PublicConfig).
 * The checkout page asks for it once per load with `?page=/`: that request is the funnel's 'page_view', keyed by
 * the visitor's referrer (a page view needs the page's script to run, so crawlers of the HTML count for nothing).
 */
import type { FastifyPluginAsync } from 'fastify';
import { Type } from 'typebox';
import { PublicConfig } from '../../../src/contract/checkout';
import { PAGE_PATHS } from '../../../src/domain/pagePaths';
import { paymentProviderName } from '../../config';
import { recordFunnelEventSafely } from '../../funnel/funnelEvents';
import type { OrderServices } from '../../checkout/order';
import type { ReferralLinks } from '../../referrals/referralLinks';

const ConfigQuery = Type.Object({ page: Type.Optional(Type.String({ maxLength: 2048 })) });

export const publicConfigRoute: FastifyPluginAsync<OrderServices & { referrals: ReferralLinks }> = async (
  app,
  { config, db, referrals },
) => {
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
      if (request.query.page === PAGE_PATHS.checkout) {
        const attributed = await referrals.attributed(request);
        await recordFunnelEventSafely(db, { type: 'page_view', referrerId: attributed?.id }, request.log);
      }
      return publicConfig;
    },
  );
};
