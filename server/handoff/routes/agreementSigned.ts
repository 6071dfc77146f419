/**
 * POST /api/agreement/signed: the agreement site reports that a person signed the training agreement
 * (docs/decisions/0063). It signs the raw body as we sign our webhooks to it, with the same shared secret
 * (SUCCESS_SITE_WEBHOOK_SECRET): `Checkout-Signature: t=<Unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`.
 * 503 when no secret is configured; 401 a missing or wrong signature, or one more than 300 s from our clock (a
 * replayed report); 404 no one with that email holds a seat on that paid order; 200 with the recorded time, the
 * same for a repeat. From then on the person's id token and userinfo say `agreement: "signed"`.
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { AgreementSignedRequest, AgreementSignedResponse } from '../../../src/contract/agreement';
import { ErrorResponse } from '../../../src/contract/checkout';
import { HttpError } from '../../http/httpError';
import { checkWebhookSignature } from '../../security/webhookSignature';
import type { OrderServices } from '../../checkout';
import { recordAgreementSigned } from '../recordAgreement';

const AGREEMENT_ERRORS = {
  notConfigured: 'Agreement reports are not configured.',
  missing: 'A Checkout-Signature header (t=<seconds>,v1=<HMAC-SHA256>) is required.',
  wrong: 'The Checkout-Signature does not match this body.',
  stale: 'The Checkout-Signature is more than 5 minutes old or ahead: sign each report when it is sent.',
  badJson: 'The request body must be JSON.',
  unknown: 'No one with this email holds a seat on this order.',
} as const;

const schema = {
  summary: 'The agreement site reports that a person signed the training agreement (signed like our webhooks)',
  security: [{ checkoutSignature: [] }],
  body: AgreementSignedRequest,
  response: { 200: AgreementSignedResponse, '4xx': ErrorResponse, '5xx': ErrorResponse },
};

/** The body as it arrived, kept for the signature (the parser below reads it as text). */
const rawBodies = new WeakMap<FastifyRequest, string>();

export const agreementSignedRoute: FastifyPluginAsync<OrderServices> = async (app, { config, db }) => {
  // This plugin's own JSON parser (Fastify encapsulates it): the signature is over the exact bytes sent.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = String(body);
    rawBodies.set(request, text);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new HttpError(400, AGREEMENT_ERRORS.badJson), undefined);
    }
  });

  app.post<{ Body: AgreementSignedRequest; Reply: AgreementSignedResponse }>(
    '/api/agreement/signed',
    {
      schema,
      // Before the body's shape is checked: a caller without the secret learns nothing about it.
      preValidation: async (request) => {
        const secret = config.SUCCESS_SITE_WEBHOOK_SECRET;
        if (!secret) throw new HttpError(503, AGREEMENT_ERRORS.notConfigured);
        const header = request.headers['checkout-signature'];
        const verdict = checkWebhookSignature(
          secret,
          Array.isArray(header) ? header[0] : header,
          rawBodies.get(request) ?? '',
          Math.floor(Date.now() / 1000),
        );
        if (verdict !== 'valid') {
          request.log.warn({ reason: verdict }, 'Refused an agreement report');
          throw new HttpError(401, AGREEMENT_ERRORS[verdict]);
        }
      },
    },
    async (request) => {
      const recorded = await recordAgreementSigned(db, request.body);
      if (!recorded) throw new HttpError(404, AGREEMENT_ERRORS.unknown);
      request.log.info({ transactionId: recorded.transactionId, seatNumber: recorded.seatNumber }, 'Training agreement signed');
      return recorded;
    },
  );
};
