/** POST /api/update-anon-subscription-intent: call 2 of spec §7 (logic in server/orders/changeSeats.ts). */
import type { FastifyPluginAsync } from 'fastify';
import type { UpdateIntentRequest, UpdateIntentResponse } from '../../src/api/types';
import { MIN_SEATS } from '../../src/domain/pricing';
import { PRODUCT_ID } from '../../src/domain/product';
import { CHECKOUT_ERRORS, HttpError } from '../http/httpError';
import { closedObject, idString } from '../http/schemaParts';
import { changeSeats } from '../orders/changeSeats';
import { replyWith } from '../http/refusalReplies';
import type { OrderServices } from '../orders/orderContext';

export const updateIntentRoute: FastifyPluginAsync<OrderServices> = async (app, services) => {
  const body = closedObject({
    subscriptionId: idString,
    subscriptionItemId: idString,
    quantity: { type: 'integer', minimum: MIN_SEATS, maximum: services.config.MAX_SEATS },
    transactionId: idString,
    productId: idString,
  });
  app.post<{ Body: UpdateIntentRequest; Reply: UpdateIntentResponse }>(
    '/api/update-anon-subscription-intent',
    { schema: { body } },
    async (request) => {
      const { productId, ...change } = request.body;
      if (productId !== PRODUCT_ID) throw new HttpError(400, CHECKOUT_ERRORS.unknownProduct);
      return replyWith(await changeSeats({ ...services, log: request.log }, change));
    },
  );
};
