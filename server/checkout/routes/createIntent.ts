/**
 * POST /api/create-anon-subscription-intent (spec §7 call 1). The referrer comes from the referral cookie, not the
 * body's affiliate_id (docs/decisions/0017-referral-attribution.md).
 */
import type { FastifyPluginAsync } from 'fastify';
import { CreateIntentRequest, ErrorResponse, SubscriptionSession } from '../../../src/contract/checkout';
import { PRODUCT_ID } from '../../../src/domain/product';
import { HttpError } from '../../http/httpError';
import { openCheckout } from '../openCheckout';
import { CHECKOUT_ERRORS, replyWith } from '../refusalReplies';
import type { OrderServices } from '../order';
import type { ReferralLinks } from '../../referrals';

export const createIntentRoute: FastifyPluginAsync<OrderServices & { referrals: ReferralLinks }> = async (
  app,
  { referrals, ...services },
) => {
  const schema = {
    summary: 'Call 1 (spec §7): open a checkout, an unpaid subscription for `quantity` seats',
    body: CreateIntentRequest(services.config.MAX_SEATS),
    response: { 200: SubscriptionSession, '4xx': ErrorResponse },
  };
  app.post<{ Body: CreateIntentRequest; Reply: SubscriptionSession }>(
    '/api/create-anon-subscription-intent',
    // Each checkout is a fresh payment intent to try cards on: an address opens a bounded number per hour.
    { schema, config: { rateLimit: { max: services.config.CHECKOUTS_PER_HOUR, timeWindow: '1 hour' } } },
    async (request) => {
      const { productId, quantity, affiliate_id, affiliate_source } = request.body;
      if (productId !== PRODUCT_ID) throw new HttpError(400, CHECKOUT_ERRORS.unknownProduct);
      const attributed = await referrals.attributed(request);
      if (attributed && attributed.shortLabel !== affiliate_id) {
        request.log.info(
          { referrer: attributed.slug, affiliateId: affiliate_id },
          "affiliate_id differs from the referral cookie's referrer",
        );
      }
      const opened = await openCheckout(
        { ...services, log: request.log },
        {
          quantity,
          affiliateId: affiliate_id,
          affiliateSource: affiliate_source,
          referrer: attributed ? { id: attributed.id, slug: attributed.slug } : null,
        },
      );
      return replyWith(opened);
    },
  );
};
