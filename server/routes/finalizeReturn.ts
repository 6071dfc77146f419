/**
 * POST /api/finalize-from-payment-intent: the payment-success page finalizes after a 3-D Secure redirect
 * return, from the address's `payment_intent` and `payment_intent_client_secret` and the buyer's email (logic in
 * server/orders/finalizeReturn.ts). Answers FinalizeReturnResponse, or `{ error }` with 400 for a malformed body.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { FinalizeReturnRequest, FinalizeReturnResponse } from '../../src/api/types';
import { closedObject, idString, text } from '../http/schemaParts';
import { finalizeReturn } from '../orders/finalizeReturn';
import { replyWith } from '../http/refusalReplies';
import type { OrderServices } from '../orders/orderContext';

const body = closedObject({
  paymentIntentId: idString,
  clientSecret: idString,
  email: text(1, 254),
});

export const finalizeReturnRoute: FastifyPluginAsync<OrderServices> = async (app, services) => {
  app.post<{ Body: FinalizeReturnRequest; Reply: FinalizeReturnResponse }>(
    '/api/finalize-from-payment-intent',
    { schema: { body } },
    async (request) => replyWith(await finalizeReturn({ ...services, log: request.log }, request.body)),
  );
};
