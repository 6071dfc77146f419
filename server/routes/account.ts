/**
 * The buyer's manage page API, /api/account/* (issue: after the purchase). A link by email (POST
 * /api/account/link: rate-limited, the same answer whether or not the email has a subscription) opens a session:
 * the page POSTs the link's token (a mail scanner's GET uses nothing), and gets a server-side session (httpOnly,
 * SameSite=Strict cookie for /api/account; an hour idle, ACCOUNT_SESSION_MAX_HOURS at most; server/sessions/).
 * Then: the subscription, new login credentials, cancel at period end and undo, seats, card, each a step of server/account/manageSubscription.ts through the provider interface. A
 * provider with a hosted portal (Stripe) also opens it on the matching flow (POST /api/account/portal).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import {
  AccountLinkRequest,
  AccountLinkResponse,
  AccountSessionRequest,
  AccountSessionResponse,
  AccountView,
  CancelRequest,
  CardRequest,
  NewCredentials,
  PortalRequest,
  SeatsRequest,
} from '../../src/contract/account';
import { ErrorResponse } from '../../src/contract/checkout';
import { pickBaseAddress } from '../../src/domain/baseAddress';
import { issueAgreementHandoff, requestAccountLink, useAccountLink } from '../account/accountLinks';
import {
  accountView,
  cancelAtPeriodEnd,
  changeSeats,
  issueNewPassword,
  replaceCard,
  undoCancellation,
  type ManageResult,
} from '../account/manageSubscription';
import { HttpError } from '../http/httpError';
import { findOrder, isPaidOrder, type Order, type OrderServices } from '../orders/order';
import { buyerSessionRules, endBuyerSessions, sessionKeeper } from '../sessions/sessions';

const LINK_SENT = 'If that email has a subscription, a link to manage it is on its way. It works once, for a limited time.';
const SIGN_IN_AGAIN = 'Your session has ended. Please ask for a new link.';

/** The status and message of each refused manage-page change. */
function replyTo(result: ManageResult): Order {
  if (result.ok) return result.order;
  switch (result.refusal) {
    case 'ended':
      throw new HttpError(409, 'This subscription has ended.');
    case 'not_paid_up':
      throw new HttpError(409, 'Seats can be changed while the subscription is active and paid up.');
    case 'card_declined':
      throw new HttpError(402, result.message ?? 'Your card was declined.');
    case 'card_invalid':
      throw new HttpError(400, result.message ?? 'Please check your card.');
  }
}

interface AccountOptions extends OrderServices {
  /** Sends the outbox now (a link mail should not wait for the next run). */
  nudgeOutbox(): void;
}

export async function accountRoutes(app: FastifyInstance, services: AccountOptions): Promise<void> {
  const { db, config, provider } = services;
  const error4xx = { '4xx': ErrorResponse, '5xx': ErrorResponse };

  const buyerSessions = sessionKeeper(db, config, buyerSessionRules(config));

  /** The signed-in buyer's order, or a 401. */
  async function sessionOrder(request: FastifyRequest): Promise<Order> {
    const session = await buyerSessions.current(request);
    const order = session ? await findOrder(db, session.subject) : undefined;
    if (!order || order.status === 'open') throw new HttpError(401, SIGN_IN_AGAIN);
    return order;
  }

  const view = (request: FastifyRequest, order: Order) => accountView({ ...services, log: request.log }, order);
  const context = (request: FastifyRequest) => ({ ...services, log: request.log });
  /** Where the provider's own pages return the buyer: the manage page at PUBLIC_URL, else this request's site. */
  const manageUrl = (request: FastifyRequest) => new URL('/account', config.PUBLIC_URL ?? `${request.protocol}://${request.host}`).toString();

  const requireHeld = (order: Order) => {
    if (!isPaidOrder(order)) throw new HttpError(409, 'This subscription has ended.');
  };

  app.post<{ Body: AccountLinkRequest }>(
    '/api/account/link',
    {
      schema: { summary: 'Manage page: email a link to it', body: AccountLinkRequest, response: { 202: AccountLinkResponse, ...error4xx } },
      config: { rateLimit: { max: config.ACCOUNT_LINKS_PER_15_MINUTES, timeWindow: '15 minutes' } },
    },
    async (request, reply) => {
      if (await requestAccountLink(db, request.body.email)) services.nudgeOutbox();
      return reply.code(202).send({ message: LINK_SENT });
    },
  );

  app.post<{ Body: AccountSessionRequest }>(
    '/api/account/session',
    { schema: { summary: 'Manage page: open a session with a link’s token', body: AccountSessionRequest, response: { 200: AccountSessionResponse, ...error4xx } } },
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
      return { account: await view(request, order), agreementUrl };
    },
  );

  app.get('/api/account', { schema: { summary: 'Manage page: the subscription', response: { 200: AccountView, ...error4xx } } }, async (request) =>
    view(request, await sessionOrder(request)),
  );

  app.post('/api/account/sign-out', { schema: { summary: 'Manage page: end the session', response: { 204: Type.Null() } } }, async (request, reply) => {
    await buyerSessions.close(request, reply);
    return reply.code(204).send();
  });

  app.post(
    '/api/account/credentials',
    { schema: { summary: 'Manage page: new login credentials (the old password stops working)', response: { 200: NewCredentials, ...error4xx } } },
    async (request) => {
      const order = await sessionOrder(request);
      requireHeld(order);
      const issued = await issueNewPassword(db, order.transactionId);
      if (!issued) throw new HttpError(409, 'This order has no login yet.');
      // The old password's sessions end with it (other devices sign in again); this one goes on.
      const current = await buyerSessions.current(request);
      await endBuyerSessions(db, order.transactionId, { except: current?.idHash });
      request.log.info({ transactionId: order.transactionId }, 'New login credentials issued from the manage page');
      return issued;
    },
  );

  app.post<{ Body: CancelRequest }>(
    '/api/account/cancel',
    { schema: { summary: 'Manage page: cancel at the end of the paid period', body: CancelRequest, response: { 200: AccountView, ...error4xx } } },
    async (request) => {
      const order = await sessionOrder(request);
      const updated = replyTo(await cancelAtPeriodEnd(context(request), order, request.body.reason));
      services.nudgeOutbox();
      return view(request, updated);
    },
  );

  app.post('/api/account/resume', { schema: { summary: 'Manage page: undo a cancellation', response: { 200: AccountView, ...error4xx } } }, async (request) => {
    const order = await sessionOrder(request);
    const updated = replyTo(await undoCancellation(context(request), order));
    services.nudgeOutbox();
    return view(request, updated);
  });

  app.post<{ Body: SeatsRequest }>(
    '/api/account/seats',
    { schema: { summary: 'Manage page: change seats (prorated at the next charge)', body: SeatsRequest(config.MAX_SEATS), response: { 200: AccountView, ...error4xx } } },
    async (request) => {
      const order = await sessionOrder(request);
      const updated = replyTo(await changeSeats(context(request), order, request.body.quantity));
      services.nudgeOutbox();
      return view(request, updated);
    },
  );

  app.post<{ Body: CardRequest }>(
    '/api/account/card',
    { schema: { summary: 'Manage page: a new card (an unpaid renewal is charged at once)', body: CardRequest, response: { 200: AccountView, ...error4xx } } },
    async (request) => {
      const order = await sessionOrder(request);
      const replaced = await replaceCard(context(request), order, { card: request.body.card, returnUrl: manageUrl(request) });
      if (replaced.ok && 'redirect' in replaced) throw new HttpError(409, 'This subscription’s card is changed on the payment provider’s page.');
      const updated = replyTo(replaced);
      services.nudgeOutbox();
      return view(request, updated);
    },
  );

  app.post<{ Body: PortalRequest }>(
    '/api/account/portal',
    { schema: { summary: 'Manage page (a provider with a hosted portal): a portal session on one flow', body: PortalRequest, response: { 200: Type.Object({ url: Type.String() }), ...error4xx } } },
    async (request) => {
      const order = await sessionOrder(request);
      if (!provider.createPortalSession) throw new HttpError(409, 'This page manages the subscription itself.');
      const url = await provider.createPortalSession({
        customerId: order.customerId,
        subscriptionId: order.subscriptionId,
        flow: request.body.flow,
        returnUrl: manageUrl(request),
        idempotencyKey: `${order.transactionId}:portal:${crypto.randomUUID()}`,
      });
      return { url };
    },
  );
}
