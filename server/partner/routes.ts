/**
 * The referrer's page API, /api/partner/*: a single-use sign-in link by mail (the same answer for any email), a
 * session (server/sessions/, kind 'referrer'), their page, their ledger. No route takes another referrer's id.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { ErrorResponse } from '../../src/contract/checkout';
import { PartnerLinkRequest, PartnerQuery, PartnerSessionProbe, PartnerSessionRequest, PartnerView } from '../../src/contract/commissions';
import { csvHeaders } from '../http/csv';
import { requestPartnerLink, usePartnerLink } from '../commissions';
import { partnerLedgerCsv, partnerView } from './partnerView';
import { HttpError } from '../http/httpError';
import type { OrderServices } from '../checkout';
import { referrerSessionRules, sessionKeeper } from '../sessions/sessions';
import { periodChecked } from '../admin';

const LINK_SENT = 'If that email belongs to a referrer, a sign-in link is on its way. It works once, for a limited time.';
const SIGN_IN = 'Please sign in with the link we email you.';
const errors = { '4xx': ErrorResponse };

export async function partnerRoutes(
  app: FastifyInstance,
  { db, config, provider, nudgeOutbox }: OrderServices & { nudgeOutbox: () => void },
): Promise<void> {
  const sessions = sessionKeeper(db, config, referrerSessionRules(config));
  const clock = provider.clock;
  const site = (request: FastifyRequest) => (config.PUBLIC_URL ?? `${request.protocol}://${request.host}`).replace(/\/+$/, '');
  const signedIn = async (request: FastifyRequest) => {
    const session = await sessions.current(request);
    if (!session) throw new HttpError(401, SIGN_IN);
    return session.subject;
  };

  app.post<{ Body: PartnerLinkRequest }>(
    '/api/partner/link',
    {
      schema: {
        summary: 'Partner page: email a sign-in link',
        body: PartnerLinkRequest,
        response: { 202: Type.Object({ message: Type.String() }), ...errors },
      },
      config: { rateLimit: { max: config.ACCOUNT_LINKS_PER_15_MINUTES, timeWindow: '15 minutes' } },
    },
    async (request, reply) => {
      await requestPartnerLink(db, request.body.email);
      nudgeOutbox();
      return reply.code(202).send({ message: LINK_SENT });
    },
  );

  app.post<{ Body: PartnerSessionRequest }>(
    '/api/partner/session',
    {
      schema: {
        summary: 'Partner page: open a session with a link’s token',
        body: PartnerSessionRequest,
        response: { 204: Type.Null(), ...errors },
      },
    },
    async (request, reply) => {
      const referrerId = await usePartnerLink(db, request.body.token);
      if (!referrerId) throw new HttpError(401, 'This link has expired or was already used. Please ask for a new one.');
      await sessions.open(request, reply, referrerId);
      return reply.code(204).send();
    },
  );

  app.get(
    '/api/partner/session',
    {
      schema: {
        summary: 'Partner page: does this browser hold a session? (200 either way, so a visitor’s page logs no error)',
        response: { 200: PartnerSessionProbe },
      },
    },
    async (request): Promise<PartnerSessionProbe> => ({ signedIn: (await sessions.current(request)) !== null }),
  );

  app.get<{ Querystring: PartnerQuery }>(
    '/api/partner',
    {
      schema: {
        summary: 'Partner page: the signed-in referrer’s link, funnel, commission and payouts',
        querystring: PartnerQuery,
        response: { 200: PartnerView, ...errors },
      },
    },
    async (request) => {
      const view = await periodChecked(async () =>
        partnerView(db, clock, await signedIn(request), { site: site(request), query: request.query }),
      );
      if (!view) throw new HttpError(401, SIGN_IN);
      return view;
    },
  );

  app.get(
    '/api/partner/ledger.csv',
    { schema: { summary: 'Partner page: the signed-in referrer’s ledger as CSV' } },
    async (request, reply) => {
      const csv = await partnerLedgerCsv(db, clock, await signedIn(request));
      return reply.headers(csvHeaders('commissions.csv')).send(csv);
    },
  );

  app.post(
    '/api/partner/sign-out',
    { schema: { summary: 'Partner page: end the session', response: { 204: Type.Null() } } },
    async (request, reply) => {
      await sessions.close(request, reply);
      return reply.code(204).send();
    },
  );
}
