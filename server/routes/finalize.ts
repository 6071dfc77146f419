/** POST /api/finalize-anon-subscription: call 3 of spec §7 (logic in server/orders/finalizeCheckout.ts). */
import type { FastifyPluginAsync } from 'fastify';
import type { FinalizeRequest, FinalizeResponse } from '../../src/api/types';
import { EMAIL_PATTERN } from '../../src/domain/validation';
import { CHECKOUT_ERRORS, HttpError } from '../http/httpError';
import { closedObject, idString, text } from '../http/schemaParts';
import { finalizeCheckout } from '../orders/finalizeCheckout';
import { replyWith } from '../http/refusalReplies';
import type { OrderServices } from '../orders/orderContext';

const body = closedObject({
  subscriptionId: idString,
  customerId: idString,
  transactionId: idString,
  email: text(1, 254),
  name: text(1, 200),
});

export const finalizeRoute: FastifyPluginAsync<OrderServices> = async (app, services) => {
  app.post<{ Body: FinalizeRequest; Reply: FinalizeResponse }>(
    '/api/finalize-anon-subscription',
    { schema: { body } },
    async (request) => {
      const email = request.body.email.trim();
      const name = request.body.name.trim();
      if (!EMAIL_PATTERN.test(email)) throw new HttpError(400, CHECKOUT_ERRORS.emailInvalid);
      if (!name) throw new HttpError(400, CHECKOUT_ERRORS.nameRequired);
      return replyWith(await finalizeCheckout({ ...services, log: request.log }, { ...request.body, email, name }));
    },
  );
};
