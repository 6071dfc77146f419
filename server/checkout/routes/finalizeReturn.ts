/** POST /api/finalize-from-payment-intent: finalize after a 3-D Secure redirect return. */
import type { FastifyPluginAsync } from 'fastify';
import { ErrorResponse, FinalizeReturnRequest, FinalizeReturnResponse } from '../../../src/contract/checkout';
import { finalizeReturn } from '../finalizeReturn';
import { replyWith } from '../refusalReplies';
import type { OrderServices } from '../order';
import type { OutboxNudge } from './finalize';

const schema = {
  summary: 'Finalize after a 3-D Secure redirect return to /payment-success',
  body: FinalizeReturnRequest,
  response: { 200: FinalizeReturnResponse, '4xx': ErrorResponse },
};

export const finalizeReturnRoute: FastifyPluginAsync<OrderServices & OutboxNudge> = async (app, { nudgeOutbox, ...services }) => {
  app.post<{ Body: FinalizeReturnRequest; Reply: FinalizeReturnResponse }>(
    '/api/finalize-from-payment-intent',
    { schema },
    async (request) => {
      const finalized = replyWith(await finalizeReturn({ ...services, log: request.log }, request.body));
      if (finalized.signInLinkEmailed) nudgeOutbox();
      return finalized;
    },
  );
};
