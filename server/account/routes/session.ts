/**
 * The manage page's session: a single-use link by mail (the same answer whatever the email); the page POSTs its
 * token, so a mail scanner's GET uses nothing; GET /api/account/session answers 200 either way; /subscription-check
 * tells the checkout about an email this browser proves it holds (docs/decisions/0031).
 */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import {
  AccountProbeResponse,
  AccountLinkRequest,
  AccountLinkResponse,
  AccountSessionRequest,
  AccountSessionResponse,
  AccountView,
  SubscriptionCheckRequest,
  SubscriptionCheckResponse,
} from '../../../src/contract/account';
import { ErrorResponse } from '../../../src/contract/checkout';
import { pickBaseAddress } from '../../../src/domain/baseAddress';
import { issueAgreementHandoff, requestAccountLink, useAccountLink } from '../accountLinks';
import { provenActiveSubscription } from '../existingSubscription';
import { accountView } from '../manageSubscription';
import { HttpError } from '../../http/httpError';
import { findOrder, isPaidOrder } from '../../checkout';
import { SIGN_IN_AGAIN } from '../../sessions/sessions';
import type { AccountRouteOptions } from './options';

const LINK_SENT = 'If that email has a subscription, a link to manage it is on its way. It works once, for a limited time.';
const errors = { '4xx': ErrorResponse, '5xx': ErrorResponse };

export async function accountSessionRoutes(
  app: FastifyInstance,
  { buyerSessions, sessionOrder, signedInOrder, nudgeOutbox, ...services }: AccountRouteOptions,
): Promise<void> {
  const { db, config } = services;

  app.post<{ Body: AccountLinkRequest }>(
    '/api/account/link',
    {
      schema: { summary: 'Manage page: email a link to it', body: AccountLinkRequest, response: { 202: AccountLinkResponse, ...errors } },
      config: { rateLimit: { max: config.ACCOUNT_LINKS_PER_15_MINUTES, timeWindow: '15 minutes' } },
    },
    async (request, reply) => {
      await requestAccountLink(db, request.body.email);
      nudgeOutbox();
      return reply.code(202).send({ message: LINK_SENT });
    },
  );

  app.post<{ Body: AccountSessionRequest }>(
    '/api/account/session',
    {
      schema: {
        summary: 'Manage page: open a session with a link’s token',
        body: AccountSessionRequest,
        response: { 200: AccountSessionResponse, ...errors },
      },
    },
    async (request, reply) => {
      const link = await useAccountLink(db, request.body.token);
      if (!link) throw new HttpError(401, 'This link has expired or was already used. Please ask for a new one.');
      const order = await findOrder(db, link.transactionId);
      if (!order) throw new HttpError(401, SIGN_IN_AGAIN);
      await buyerSessions.open(request, reply, order.transactionId);
      let agreementUrl: string | null = null;
      if (link.purpose === 'agreement' && isPaidOrder(order)) {
        const token = await issueAgreementHandoff(db, order.transactionId, config.HANDOFF_TTL_MINUTES);
        const base = pickBaseAddress(request.hostname, { local: config.SUCCESS_SITE_LOCAL_URL, production: config.SUCCESS_SITE_URL });
        agreementUrl = `${base}/?token=${encodeURIComponent(token)}`;
      }
      return { account: await accountView({ ...services, log: request.log }, order), agreementUrl };
    },
  );

  app.get(
    '/api/account/session',
    {
      schema: {
        summary: 'Manage page: the signed-in subscription, or null without a session',
        response: { 200: AccountProbeResponse, ...errors },
      },
    },
    async (request): Promise<AccountProbeResponse> => {
      const order = await signedInOrder(request);
      return { account: order ? await accountView({ ...services, log: request.log }, order) : null };
    },
  );

  app.post<{ Body: SubscriptionCheckRequest }>(
    '/api/account/subscription-check',
    {
      schema: {
        summary: 'Checkout: does an email this browser holds already have an active subscription?',
        body: SubscriptionCheckRequest,
        response: { 200: SubscriptionCheckResponse, ...errors },
      },
      // Asked as the buyer types: limited like opening a checkout.
      config: { rateLimit: { max: config.CHECKOUTS_PER_HOUR, timeWindow: '1 hour' } },
    },
    async (request): Promise<SubscriptionCheckResponse> => ({
      activeSubscription: await provenActiveSubscription(db, request.body.email, {
        signedIn: await signedInOrder(request),
        purchase: request.body.purchase,
      }),
    }),
  );

  app.get(
    '/api/account',
    { schema: { summary: 'Manage page: the subscription', response: { 200: AccountView, ...errors } } },
    async (request) => accountView({ ...services, log: request.log }, await sessionOrder(request)),
  );

  app.post(
    '/api/account/sign-out',
    { schema: { summary: 'Manage page: end the session', response: { 204: Type.Null() } } },
    async (request, reply) => {
      await buyerSessions.close(request, reply);
      return reply.code(204).send();
    },
  );
}
