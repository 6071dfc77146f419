/** The buyer's changes on /account, each a step of ../manageSubscription.ts, answered with the page's view. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import {
  AccountView,
  CancelRequest,
  CardRequest,
  RefundAskRequest,
  NewCredentials,
  PortalRequest,
  SeatChangePreview,
  SeatsRequest,
} from '../../../src/contract/account';
import { ErrorResponse } from '../../../src/contract/checkout';
import { REFUND_GUARANTEE_DAYS } from '../../../src/domain/refunds';
import {
  accountView,
  askForRefund,
  cancelAtPeriodEnd,
  changeSeats,
  issueNewPassword,
  previewSeats,
  replaceCard,
  undoCancellation,
  type ManageResult,
  type RefundAskOutcome,
} from '../manageSubscription';
import { HttpError } from '../../http/httpError';
import { isPaidOrder, type Order } from '../../checkout';
import { endBuyerSessions } from '../../sessions/sessions';
import { endPersonSignIns } from '../../signIn';
import { findBuyerOfOrder } from '../../signIn';
import type { AccountRouteOptions } from './options';

const error4xx = { '4xx': ErrorResponse, '5xx': ErrorResponse };

function replyTo(result: ManageResult): Order {
  if (result.ok) return result.order;
  switch (result.refusal) {
    case 'ended':
      throw new HttpError(409, 'This subscription has ended.');
    case 'not_paid_up':
      throw new HttpError(409, 'Seats can be changed while the subscription is active and paid up.');
    case 'seats_in_use':
      throw new HttpError(409, result.message ?? 'More people use seats than that.');
    case 'card_declined':
      throw new HttpError(402, result.message ?? 'Your card was declined.');
    case 'card_invalid':
      throw new HttpError(400, result.message ?? 'Please check your card.');
    case 'seats_payment_declined':
      throw new HttpError(402, SEATS_DECLINED);
    case 'seats_quote_expired':
      throw new HttpError(409, 'The amount shown is out of date: nothing was changed. Please review the seat change again.');
  }
}

/** docs/decisions/0068 */
const REFUND_ASK_REFUSED: Record<Exclude<RefundAskOutcome, { ok: true }>['refusal'], string> = {
  ended: 'This subscription has ended, so there is no refund to ask for here.',
  window_closed: `The ${REFUND_GUARANTEE_DAYS}-day money-back guarantee has ended for this subscription, so a refund cannot be asked for here.`,
  nothing_refundable: 'Everything you paid has already been refunded.',
  unreadable: 'We could not read your payments just now, so nothing was asked. Please try again in a minute.',
};

/** docs/decisions/0045 */
const SEATS_DECLINED =
  'Your card was declined, so your seats were not changed and nothing was charged. Please put on a new card and try again.';

export async function accountSubscriptionRoutes(
  app: FastifyInstance,
  { buyerSessions, sessionOrder, nudgeOutbox, ...services }: AccountRouteOptions,
): Promise<void> {
  const { db, config, provider } = services;
  const view = (request: FastifyRequest, order: Order) => accountView({ ...services, log: request.log }, order);
  const context = (request: FastifyRequest) => ({ ...services, log: request.log });
  /** The manage page at PUBLIC_URL, else this request's site. */
  const manageUrl = (request: FastifyRequest) =>
    new URL('/account', config.PUBLIC_URL ?? `${request.protocol}://${request.host}`).toString();

  app.post(
    '/api/account/credentials',
    {
      schema: {
        summary: 'Manage page: new login credentials (the old password stops working)',
        response: { 200: NewCredentials, ...error4xx },
      },
    },
    async (request) => {
      const order = await sessionOrder(request);
      if (!isPaidOrder(order)) throw new HttpError(409, 'This subscription has ended.');
      const issued = await issueNewPassword(db, order.transactionId);
      if (!issued) throw new HttpError(409, 'This order has no login yet.');
      // Other devices sign in again; this one goes on.
      const current = await buyerSessions.current(request);
      await endBuyerSessions(db, order.transactionId, { except: current?.idHash });
      const buyer = await findBuyerOfOrder(db, order.transactionId);
      if (buyer) await endPersonSignIns(db, buyer.personId);
      request.log.info({ transactionId: order.transactionId }, 'New login credentials issued from the manage page');
      return issued;
    },
  );

  app.post<{ Body: CancelRequest }>(
    '/api/account/cancel',
    {
      schema: {
        summary: 'Manage page: cancel at the end of the paid period',
        body: CancelRequest,
        response: { 200: AccountView, ...error4xx },
      },
    },
    async (request) => {
      const order = await sessionOrder(request);
      const updated = replyTo(await cancelAtPeriodEnd(context(request), order, request.body.reason));
      nudgeOutbox();
      return view(request, updated);
    },
  );

  app.post<{ Body: RefundAskRequest }>(
    '/api/account/refund-request',
    {
      schema: {
        summary: 'Manage page: ask for the 30-day guarantee’s refund (cancels at the end of the period; the owner refunds)',
        body: RefundAskRequest,
        response: { 200: AccountView, ...error4xx },
      },
    },
    async (request) => {
      const order = await sessionOrder(request);
      const asked = await askForRefund(context(request), order, request.body.reason);
      if (!asked.ok) throw new HttpError(asked.refusal === 'unreadable' ? 503 : 409, REFUND_ASK_REFUSED[asked.refusal]);
      nudgeOutbox();
      return view(request, asked.order);
    },
  );

  app.post(
    '/api/account/resume',
    { schema: { summary: 'Manage page: undo a cancellation', response: { 200: AccountView, ...error4xx } } },
    async (request) => {
      const order = await sessionOrder(request);
      const updated = replyTo(await undoCancellation(context(request), order));
      nudgeOutbox();
      return view(request, updated);
    },
  );

  app.post<{ Body: SeatsRequest }>(
    '/api/account/seats',
    {
      schema: {
        summary: 'Manage page: change seats (more seats charged at once for the rest of the period; fewer credited)',
        body: SeatsRequest(config.MAX_SEATS),
        response: { 200: AccountView, ...error4xx },
      },
    },
    async (request) => {
      const order = await sessionOrder(request);
      const updated = replyTo(await changeSeats(context(request), order, request.body.quantity, request.body.prorationDate));
      nudgeOutbox();
      return view(request, updated);
    },
  );

  app.post<{ Body: SeatsRequest }>(
    '/api/account/seats/preview',
    {
      schema: {
        summary: 'Manage page: what a seat change would cost now, before the buyer confirms it',
        body: SeatsRequest(config.MAX_SEATS),
        response: { 200: SeatChangePreview, ...error4xx },
      },
    },
    async (request) => {
      const order = await sessionOrder(request);
      const previewed = await previewSeats(context(request), order, request.body.quantity);
      if (!previewed.ok) return replyTo(previewed);
      return previewed.preview;
    },
  );

  app.post<{ Body: CardRequest }>(
    '/api/account/card',
    {
      schema: {
        summary: 'Manage page: a new card (an unpaid renewal is charged at once)',
        body: CardRequest,
        response: { 200: AccountView, ...error4xx },
      },
    },
    async (request) => {
      const order = await sessionOrder(request);
      const replaced = await replaceCard(context(request), order, { card: request.body.card, returnUrl: manageUrl(request) });
      if (replaced.ok && 'redirect' in replaced)
        throw new HttpError(409, 'This subscription’s card is changed on the payment provider’s page.');
      const updated = replyTo(replaced);
      nudgeOutbox();
      return view(request, updated);
    },
  );

  app.post<{ Body: PortalRequest }>(
    '/api/account/portal',
    {
      schema: {
        summary: 'Manage page (a provider with a hosted portal): a portal session on one flow',
        body: PortalRequest,
        response: { 200: Type.Object({ url: Type.String() }), ...error4xx },
      },
    },
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
