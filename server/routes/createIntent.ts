/** POST /api/create-anon-subscription-intent: call 1 of spec §7 (logic in server/orders/openCheckout.ts). */
import type { FastifyPluginAsync } from 'fastify';
import type { CreateIntentRequest, SubscriptionSession } from '../../src/api/types';
import { MIN_SEATS } from '../../src/domain/pricing';
import { PRODUCT_ID } from '../../src/domain/product';
import { CHECKOUT_ERRORS, HttpError } from '../http/httpError';
import { closedObject, idString } from '../http/schemaParts';
import { openCheckout } from '../orders/openCheckout';
import type { OrderServices } from '../orders/orderContext';

export const createIntentRoute: FastifyPluginAsync<OrderServices> = async (app, services) => {
  const body = closedObject({
    productId: idString,
    quantity: { type: 'integer', minimum: MIN_SEATS, maximum: services.config.MAX_SEATS },
    affiliate_id: { type: 'string', minLength: 1, maxLength: 64 },
    affiliate_source: { type: 'string', maxLength: 2048 },
  });
  app.post<{ Body: CreateIntentRequest; Reply: SubscriptionSession }>(
    '/api/create-anon-subscription-intent',
    { schema: { body } },
    async (request) => {
      const { productId, quantity, affiliate_id, affiliate_source } = request.body;
      if (productId !== PRODUCT_ID) throw new HttpError(400, CHECKOUT_ERRORS.unknownProduct);
      return openCheckout(
        { ...services, log: request.log },
        { quantity, affiliateId: affiliate_id, affiliateSource: affiliate_source },
      );
    },
  );
};
