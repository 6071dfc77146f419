/**
 * The buyer's team (docs/decisions/0032, 0038), with the manage page's session or the success page's hand-off token,
 * and the invitee's /api/join calls. Invitations are limited per order and per address (Redis-shared with REDIS_URL).
 * Every refusal is a 4xx `{ error }` and changes nothing.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { pickBaseAddress } from '../../src/domain/baseAddress';
import { ErrorResponse } from '../../src/contract/checkout';
import { InviteRequest, JoinClaimed, JoinInvitation, JoinRequest, SeatParams, TeamError, TeamView } from '../../src/contract/team';
import { NO_JOIN_TOKEN, type JoinAnswer } from '../../src/domain/joinPage';
import type { Database } from '../db/client';
import { HttpError } from '../http/httpError';
import { findOrder, type Order, type OrderServices } from '../checkout';
import { claimSeat, peekInvitation, type LinkProblem } from './claim';
import {
  giveSeatOne,
  inviteToSeat,
  reassignSeat,
  resendInvitation,
  revokeSeat,
  teamView,
  type EndSignIns,
  type SeatRefusal,
  type SeatResult,
} from './seats';
import { orderOfBuyerToken } from './teamAccess';
import { buyerSessionRules, sessionKeeper, SIGN_IN_AGAIN } from '../sessions/sessions';

const INVITES_PER_ORDER_PER_HOUR = 20;
/** Uses of invitation links on /join are counted apart, to the same number. */
const INVITES_PER_ADDRESS_PER_HOUR = 60;

const errors = { '4xx': TeamError, '5xx': ErrorResponse };

/** `field` when it belongs under the email field. */
const REFUSALS: Record<SeatRefusal, { status: number; error: string; field?: 'email' }> = {
  ended: { status: 409, error: 'This subscription is not active: seats cannot be given now.' },
  no_free_seat: { status: 409, error: 'Every seat is taken. Add a seat or revoke one first.' },
  email_invalid: { status: 400, error: 'Email is invalid', field: 'email' },
  name_required: { status: 400, error: 'Name is required' },
  buyer_email: { status: 400, error: 'That is your own email: your seat is already yours.', field: 'email' },
  email_taken: { status: 409, error: 'This email already has a seat on your team.', field: 'email' },
  not_found: { status: 404, error: 'No such seat on your team.' },
  not_invited: { status: 409, error: 'This seat is not waiting for an invitation to be accepted.' },
  seat_one_given: { status: 409, error: 'Seat 1 is already given to someone. Take it back or reassign it first.' },
};

const LINK_PROBLEMS: Record<LinkProblem, { status: number; error: string }> = {
  unknown: {
    status: 410,
    error: 'This invitation link is not valid (a newer invitation may have replaced it). Ask the person who invited you for a new one.',
  },
  expired: { status: 410, error: 'This invitation link has expired. Ask the person who invited you for a new one.' },
  claimed: { status: 409, error: 'This seat was already claimed. Sign in with the login shown when it was accepted.' },
  revoked: { status: 410, error: 'This invitation was withdrawn. Ask the person who invited you.' },
};

/** docs/decisions/0053 */
const TOKEN_REDEEMED =
  'Your agreement is signed, so this page no longer manages your team. Manage it from your account page, /account: we email you a sign-in link.';

const TOO_MANY_LINKS = 'Too many invitation links were opened from your address. Please wait an hour and try again.';
const LOOKUP_FAILED = 'We could not open your invitation just now. Please reload this page in a minute.';

/**
 * The /join page's answer for `?token=` (src/domain/joinPage.ts), counted against the address as POST
 * /api/join/invitation. Never throws: a failed lookup is a problem to show.
 */
export function joinPageAnswers(limiter: FastifyInstance, db: Database): (request: FastifyRequest) => Promise<JoinAnswer> {
  const perAddress = limiter.createRateLimit({ max: INVITES_PER_ADDRESS_PER_HOUR, timeWindow: 60 * 60 * 1000 });
  return async (request) => {
    const token = (request.query as Record<string, unknown>).token;
    if (typeof token !== 'string' || token.length === 0 || token.length > 128) return { problem: NO_JOIN_TOKEN };
    try {
      const limit = await perAddress(request);
      if (!limit.isAllowed && limit.isExceeded) return { problem: TOO_MANY_LINKS };
      const found = await peekInvitation(db, token);
      return 'problem' in found ? { problem: LINK_PROBLEMS[found.problem].error } : { invitation: found };
    } catch (error) {
      request.log.error({ err: error }, 'The join page could not look its invitation up');
      return { problem: LOOKUP_FAILED };
    }
  };
}

function refuse(reply: FastifyReply, refusal: SeatRefusal) {
  const { status, ...body } = REFUSALS[refusal];
  return reply.code(status).send(body);
}

export async function teamRoutes(
  app: FastifyInstance,
  services: OrderServices & { nudgeOutbox: () => void; endSignIns: EndSignIns },
): Promise<void> {
  const { db, config, endSignIns } = services;
  const buyerSessions = sessionKeeper(db, config, buyerSessionRules(config));

  /** @throws HttpError 401. */
  const teamOrder = async (request: FastifyRequest): Promise<Order> => {
    const session = await buyerSessions.current(request);
    const bearer = /^Bearer (.{1,128})$/.exec(request.headers.authorization ?? '')?.[1];
    const handedOff = !session && bearer ? await orderOfBuyerToken(db, bearer) : null;
    if (handedOff?.redeemed) throw new HttpError(401, TOKEN_REDEEMED);
    const transactionId = session?.subject ?? handedOff?.transactionId;
    const order = transactionId ? await findOrder(db, transactionId) : undefined;
    if (!order || order.status === 'open') throw new HttpError(401, SIGN_IN_AGAIN);
    return order;
  };

  // Keyed by the order, counted only once authorized: a stranger cannot use it up.
  const orderKeys = new WeakMap<FastifyRequest, string>();
  const perOrder = app.createRateLimit({
    max: INVITES_PER_ORDER_PER_HOUR,
    timeWindow: 60 * 60 * 1000,
    keyGenerator: (request) => orderKeys.get(request) ?? '',
  });
  const perAddress = { rateLimit: { max: INVITES_PER_ADDRESS_PER_HOUR, timeWindow: '1 hour', groupId: 'team-invites' } };
  const joinsPerAddress = { rateLimit: { max: INVITES_PER_ADDRESS_PER_HOUR, timeWindow: '1 hour', groupId: 'join-links' } };
  const countInvitation = async (request: FastifyRequest, order: Order) => {
    orderKeys.set(request, `seat-invites:${createHash('sha256').update(order.transactionId).digest('base64url')}`);
    const status = await perOrder(request);
    if (!status.isAllowed && status.isExceeded)
      throw new HttpError(429, `Too many invitations for this order. Please wait an hour and try again.`);
  };

  const answer = async (reply: FastifyReply, order: Order, result: SeatResult) => {
    if (!result.ok) return refuse(reply, result.refusal);
    services.nudgeOutbox();
    return teamView(db, (await findOrder(db, order.transactionId)) ?? order);
  };

  app.get(
    '/api/account/team',
    { schema: { summary: 'Team: the order’s seats', response: { 200: TeamView, ...errors } } },
    async (request) => teamView(db, await teamOrder(request)),
  );

  app.post<{ Body: InviteRequest }>(
    '/api/account/team/invite',
    {
      schema: { summary: 'Team: invite someone to a free seat', body: InviteRequest, response: { 200: TeamView, ...errors } },
      config: perAddress,
    },
    async (request, reply) => {
      const order = await teamOrder(request);
      await countInvitation(request, order);
      return answer(reply, order, await inviteToSeat(db, { config, order, endSignIns }, request.body));
    },
  );

  app.post<{ Body: InviteRequest }>(
    '/api/account/team/seat-one',
    {
      schema: {
        summary: 'Team: give seat 1, the buyer’s own, to someone else (the buyer still manages the subscription)',
        body: InviteRequest,
        response: { 200: TeamView, ...errors },
      },
      config: perAddress,
    },
    async (request, reply) => {
      const order = await teamOrder(request);
      await countInvitation(request, order);
      return answer(reply, order, await giveSeatOne(db, { config, order, endSignIns }, request.body));
    },
  );

  app.post<{ Params: SeatParams }>(
    '/api/account/team/:seatId/resend',
    {
      schema: { summary: 'Team: send the invitation again', params: SeatParams, response: { 200: TeamView, ...errors } },
      config: perAddress,
    },
    async (request, reply) => {
      const order = await teamOrder(request);
      await countInvitation(request, order);
      return answer(reply, order, await resendInvitation(db, { config, order, endSignIns }, request.params.seatId));
    },
  );

  app.post<{ Params: SeatParams }>(
    '/api/account/team/:seatId/revoke',
    { schema: { summary: 'Team: end a person’s access and free the seat', params: SeatParams, response: { 200: TeamView, ...errors } } },
    async (request, reply) => {
      const order = await teamOrder(request);
      const result = await revokeSeat(db, { config, order, endSignIns }, request.params.seatId);
      if (result.ok) request.log.info({ transactionId: order.transactionId, seatId: result.seat.id }, 'Seat revoked');
      return answer(reply, order, result);
    },
  );

  app.post<{ Params: SeatParams; Body: InviteRequest }>(
    '/api/account/team/:seatId/reassign',
    {
      schema: {
        summary: 'Team: give a seat to someone else',
        params: SeatParams,
        body: InviteRequest,
        response: { 200: TeamView, ...errors },
      },
      config: perAddress,
    },
    async (request, reply) => {
      const order = await teamOrder(request);
      await countInvitation(request, order);
      return answer(reply, order, await reassignSeat(db, { config, order, endSignIns }, request.params.seatId, request.body));
    },
  );

  app.post<{ Body: JoinRequest }>(
    '/api/join/invitation',
    {
      schema: { summary: 'Join: the invitation behind a link', body: JoinRequest, response: { 200: JoinInvitation, ...errors } },
      config: joinsPerAddress,
    },
    async (request, reply) => {
      const found = await peekInvitation(db, request.body.token);
      if ('problem' in found) {
        const { status, error } = LINK_PROBLEMS[found.problem];
        return reply.code(status).send({ error });
      }
      return found;
    },
  );

  app.post<{ Body: JoinRequest }>(
    '/api/join/claim',
    {
      schema: { summary: 'Join: accept the seat (once)', body: JoinRequest, response: { 200: JoinClaimed, ...errors } },
      config: joinsPerAddress,
    },
    async (request, reply) => {
      const claimed = await claimSeat(db, config, request.body.token, endSignIns);
      if ('problem' in claimed) {
        const { status, error } = LINK_PROBLEMS[claimed.problem];
        return reply.code(status).send({ error });
      }
      services.nudgeOutbox();
      request.log.info({ transactionId: claimed.transactionId, seatId: claimed.seatId }, 'Seat claimed');
      const base = pickBaseAddress(request.hostname, { local: config.SUCCESS_SITE_LOCAL_URL, production: config.SUCCESS_SITE_URL });
      return {
        email: claimed.email,
        name: claimed.name,
        password: claimed.password,
        seatNumber: claimed.seatNumber,
        agreementUrl: `${base}/?token=${encodeURIComponent(claimed.handoffToken)}`,
      };
    },
  );
}
