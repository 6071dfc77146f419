/**
 * POST /api/agreement/signed (docs/decisions/0063), signed as our webhooks are (server/security/webhookSignature.ts).
 * 503 without a secret; 401 a missing, wrong or stale signature; 404 no such seat holder on that paid order; 200 with
 * the recorded time, the same for a repeat.
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

const rawBodies = new WeakMap<FastifyRequest, string>();

export const agreementSignedRoute: FastifyPluginAsync<OrderServices> = async (app, { config, db }) => {
  // Its own JSON parser (encapsulated): the signature is over the exact bytes sent.
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
