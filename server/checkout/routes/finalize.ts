/** POST /api/finalize-anon-subscription: call 3 of spec §7 (logic in server/checkout/finalizeCheckout.ts). */
import type { FastifyPluginAsync } from 'fastify';
import { ErrorResponse, FinalizeRequest, FinalizeResponse } from '../../../src/contract/checkout';
import { EMAIL_PATTERN } from '../../../src/domain/validation';
import { HttpError } from '../../http/httpError';
import { finalizeCheckout } from '../finalizeCheckout';
import { CHECKOUT_ERRORS, replyWith } from '../refusalReplies';
import type { OrderServices } from '../order';

const schema = {
  summary:
    'Call 3 (spec §7): check the payment, create the account once, answer credentials and a hand-off token once (after that window, a sign-in link is mailed)',
  body: FinalizeRequest,
  response: { 200: FinalizeResponse, '4xx': ErrorResponse },
};

export interface OutboxNudge {
  nudgeOutbox: () => void;
}

export const finalizeRoute: FastifyPluginAsync<OrderServices & OutboxNudge> = async (app, { nudgeOutbox, ...services }) => {
  app.post<{ Body: FinalizeRequest; Reply: FinalizeResponse }>('/api/finalize-anon-subscription', { schema }, async (request) => {
    const email = request.body.email.trim();
    const name = request.body.name.trim();
    if (!EMAIL_PATTERN.test(email)) throw new HttpError(400, CHECKOUT_ERRORS.emailInvalid);
    if (!name) throw new HttpError(400, CHECKOUT_ERRORS.nameRequired);
    const finalized = replyWith(await finalizeCheckout({ ...services, log: request.log }, { ...request.body, email, name }));
    if (finalized.signInLinkEmailed) nudgeOutbox();
    return finalized;
  });
};
