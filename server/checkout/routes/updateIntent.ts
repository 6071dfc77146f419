/** POST /api/update-anon-subscription-intent: call 2 of spec §7 (logic in server/checkout/changeSeats.ts). */
import type { FastifyPluginAsync } from 'fastify';
import { ErrorResponse, UpdateIntentRequest, UpdateIntentResponse } from '../../../src/contract/checkout';
import { PRODUCT_ID } from '../../../src/domain/product';
import { HttpError } from '../../http/httpError';
import { changeSeats } from '../changeSeats';
import { CHECKOUT_ERRORS, replyWith } from '../refusalReplies';
import type { OrderServices } from '../order';

export const updateIntentRoute: FastifyPluginAsync<OrderServices> = async (app, services) => {
  const schema = {
    summary: 'Call 2 (spec §7): change the seats of an unpaid checkout (replaces its unpaid subscription)',
    body: UpdateIntentRequest(services.config.MAX_SEATS),
    response: { 200: UpdateIntentResponse, '4xx': ErrorResponse },
  };
  app.post<{ Body: UpdateIntentRequest; Reply: UpdateIntentResponse }>(
    '/api/update-anon-subscription-intent',
    { schema },
    async (request) => {
      const { productId, ...change } = request.body;
      if (productId !== PRODUCT_ID) throw new HttpError(400, CHECKOUT_ERRORS.unknownProduct);
      return replyWith(await changeSeats({ ...services, log: request.log }, change));
    },
  );
};
