/** POST /api/locate-anon-subscription (docs/decisions/0071): a refused location is 422 with the card form's field. */
import type { FastifyPluginAsync } from 'fastify';
import { ErrorResponse, LocateRequest, LocationErrorResponse, TaxQuote } from '../../../src/contract/checkout';
import { PRODUCT_ID } from '../../../src/domain/product';
import { HttpError } from '../../http/httpError';
import { locateBuyer } from '../locateBuyer';
import { CHECKOUT_ERRORS, replyWith } from '../refusalReplies';
import type { OrderServices } from '../order';

export const locateRoute: FastifyPluginAsync<OrderServices> = async (app, services) => {
  const schema = {
    summary:
      "Send the buyer's location before paying: the checkout's tax and monthly total for it (a taxed one replaces the unpaid subscription)",
    body: LocateRequest,
    response: { 200: TaxQuote, 422: LocationErrorResponse, '4xx': ErrorResponse },
  };
  app.post<{ Body: LocateRequest; Reply: TaxQuote | LocationErrorResponse }>(
    '/api/locate-anon-subscription',
    { schema },
    async (request, reply) => {
      const { productId, ...location } = request.body;
      if (productId !== PRODUCT_ID) throw new HttpError(400, CHECKOUT_ERRORS.unknownProduct);
      const located = replyWith(await locateBuyer({ ...services, log: request.log }, location));
      if (located.kind === 'refused') return reply.code(422).send(located.refusal);
      return located.quote;
    },
  );
};
