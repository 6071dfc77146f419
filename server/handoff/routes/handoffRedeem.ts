/**
 * POST /api/handoff/redeem with HANDOFF_API_KEY as a bearer key (architecture.md): 401 wrong key, 503 none
 * configured, 410 an unknown, expired, revoked or used token. With OIDC on, a one-time login hint too
 * (docs/decisions/0034).
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { HttpError } from '../../http/httpError';
import { ErrorResponse } from '../../../src/contract/checkout';
import { HandoffRedeemRequest, HandoffRedemption } from '../../../src/contract/handoff';
import type { OrderServices } from '../../checkout';
import { redeemHandoff } from '../redeemHandoff';
import { secretsMatch } from '../../security/secretCompare';
import { findPersonById, issueLoginHint, maySignIn } from '../../signIn';

const HANDOFF_ERRORS = {
  notConfigured: 'Hand-off redemption is not configured.',
  badKey: 'A valid API key is required.',
  unusable: 'This hand-off token is invalid, expired or already used.',
} as const;

const schema = {
  summary: 'The success site trades a hand-off token for the paid order, once',
  security: [{ handoffApiKey: [] }],
  body: HandoffRedeemRequest,
  response: { 200: HandoffRedemption, '4xx': ErrorResponse, '5xx': ErrorResponse },
};

export const handoffRedeemRoute: FastifyPluginAsync<OrderServices> = async (app, { config, db }) => {
  /** After the rate limit, before the body is read: a caller without the key learns nothing about its shape. */
  const requireApiKey = async (request: FastifyRequest) => {
    const expected = config.HANDOFF_API_KEY;
    if (!expected) throw new HttpError(503, HANDOFF_ERRORS.notConfigured);
    const match = /^Bearer (.+)$/.exec(request.headers.authorization ?? '');
    if (!match?.[1] || !secretsMatch(match[1], expected)) throw new HttpError(401, HANDOFF_ERRORS.badKey);
  };

  app.post<{ Body: HandoffRedeemRequest; Reply: HandoffRedemption }>(
    '/api/handoff/redeem',
    {
      schema,
      preParsing: async (request, _reply, payload) => {
        await requireApiKey(request);
        return payload;
      },
    },
    async (request) => {
      const redeemed = await redeemHandoff(db, request.body.token);
      if (!redeemed) throw new HttpError(410, HANDOFF_ERRORS.unusable);
      const { redemption, personId } = redeemed;
      request.log.info({ transactionId: redemption.transactionId }, 'Hand-off token redeemed');
      if (!config.OIDC_CLIENT_ID) return redemption;
      const person = await findPersonById(db, personId);
      if (!person || !maySignIn(person)) return redemption;
      return { ...redemption, loginHint: await issueLoginHint(db, person.personId) };
    },
  );
};
