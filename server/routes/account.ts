/**
 * The buyer's manage page API, /api/account/* (issue: after the purchase). A link by email (POST
 * /api/account/link: rate-limited, the same answer whether or not the email has a subscription) opens a session:
 * the page POSTs the link's token (a mail scanner's GET uses nothing), and gets a signed, httpOnly, SameSite=Strict
 * cookie for /api/account, valid an hour. Then: the subscription, new login credentials, cancel at period end and
 * undo, seats, card. In Stripe mode those actions answer 501 and POST /api/account/portal opens Stripe's Customer
 * Portal on the matching flow instead.
 * `POST /api/sandbox/clock/advance` (sandbox only) moves the sandbox clock and runs its renewals.
 */
import { randomUUID } from 'node:crypto';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import {
  AccountLinkRequest,
  AccountLinkResponse,
  AccountSessionRequest,
  AccountSessionResponse,
  AccountView,
  CancelRequest,
  CardRequest,
  ClockAdvanceRequest,
  NewCredentials,
  PortalRequest,
  SeatsRequest,
} from '../../src/contract/account';
import { ErrorResponse } from '../../src/contract/checkout';
import { pickBaseAddress } from '../../src/api/baseAddress';
import { useAccountLink } from '../account/accountLinks';
import {
  applyRenewals,
  issueNewPassword,
  recordCancellation,
  recordCancellationUndone,
  recordSeatChange,
} from '../account/subscriptionLife';
import { accounts, handoffTokens, orders, outbox } from '../db/schema';
import { HttpError } from '../http/httpError';
import { findOrder, isPaidOrder, type Order, type OrderServices } from '../orders/order';
import {
  advanceSandboxClock,
  renewDueSandboxSubscriptions,
  sandboxSubscriptionDetails,
  setSandboxCancelAtPeriodEnd,
  setSandboxQuantity,
  updateSandboxCard,
} from '../payments/sandboxBilling';
import { checkSandboxCard } from '../payments/sandboxCards';
import { newHandoffToken } from '../security/handoffToken';

const SESSION_COOKIE = 'account_session';
const SESSION_SECONDS = 60 * 60;
const LINK_SENT = 'If that email has a subscription, a link to manage it is on its way. It works once, for a limited time.';
const SIGN_IN_AGAIN = 'Your session has ended. Please ask for a new link.';
const PORTAL = 'This subscription is managed in the payment provider’s customer portal.';

interface AccountOptions extends OrderServices {
  /** Sends the outbox now (a link mail should not wait for the next run). */
  nudgeOutbox(): void;
}

export async function accountRoutes(app: FastifyInstance, services: AccountOptions): Promise<void> {
  const { db, config, provider } = services;
  const sandbox = provider.name === 'sandbox';
  const error4xx = { '4xx': ErrorResponse, '5xx': ErrorResponse };

  /** The signed-in buyer's order, or a 401. */
  async function sessionOrder(request: FastifyRequest): Promise<Order> {
    const raw = request.cookies[SESSION_COOKIE];
    const unsigned = raw ? request.unsignCookie(raw) : undefined;
    const match = unsigned?.valid && unsigned.value ? /^(.+)\.(\d+)$/.exec(unsigned.value) : null;
    if (!match || Number(match[2]) * 1000 < Date.now()) throw new HttpError(401, SIGN_IN_AGAIN);
    const order = await findOrder(db, match[1]!);
    if (!order || order.status === 'open') throw new HttpError(401, SIGN_IN_AGAIN);
    return order;
  }

  function openSession(reply: FastifyReply, request: FastifyRequest, transactionId: string): void {
    reply.setCookie(SESSION_COOKIE, `${transactionId}.${Math.floor(Date.now() / 1000) + SESSION_SECONDS}`, {
      signed: true,
      httpOnly: true,
      sameSite: 'strict',
      secure: request.protocol === 'https',
      path: '/api/account',
      maxAge: SESSION_SECONDS,
    });
  }

  async function view(order: Order): Promise<AccountView> {
    const [account] = await db.select().from(accounts).where(eq(accounts.transactionId, order.transactionId));
    const details = sandbox ? await sandboxSubscriptionDetails(db, order.subscriptionId) : null;
    // Stripe mode: the next charge date as Stripe reports it (card and invoices are in its portal).
    const stripePeriodEnd = sandbox || !isPaidOrder(order) ? null : await providerPeriodEnd(order);
    return {
      email: account?.email ?? order.email ?? '',
      name: account?.name ?? order.name ?? '',
      status: order.status,
      seats: order.quantity,
      monthlyTotalCents: order.amountCents,
      currentPeriodEnd: details?.currentPeriodEnd ?? stripePeriodEnd,
      cancelAt: order.cancelAt?.toISOString() ?? null,
      cardLast4: details?.cardLast4 ?? null,
      invoices: details?.invoices ?? [],
      managedByProvider: !sandbox,
    };
  }

  /** The paid period's end the provider reports; null when it cannot be read (the page then shows '—'). */
  async function providerPeriodEnd(order: Order): Promise<string | null> {
    try {
      return (await provider.retrieveSubscriptionPayment(order.subscriptionId))?.lifecycle?.currentPeriodEnd ?? null;
    } catch (error) {
      app.log.warn({ err: error, transactionId: order.transactionId }, 'Could not read the subscription for the manage page');
      return null;
    }
  }

  const requireSandbox = () => {
    if (!sandbox) throw new HttpError(501, PORTAL);
  };
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
      const email = request.body.email.trim().toLowerCase();
      const [latest] = await db
        .select({ transactionId: orders.transactionId })
        .from(orders)
        .innerJoin(accounts, eq(accounts.transactionId, orders.transactionId))
        .where(and(sql`lower(${accounts.email}) = ${email}`, inArray(orders.status, ['paid', 'past_due', 'cancelled'])))
        .orderBy(desc(orders.paidAt))
        .limit(1);
      if (latest) {
        await db.insert(outbox).values({
          kind: 'mail',
          topic: 'account_link',
          dedupeKey: `mail:account_link:${latest.transactionId}:${randomUUID()}`,
          transactionId: latest.transactionId,
          payload: {},
        });
        services.nudgeOutbox();
      }
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
      openSession(reply, request, order.transactionId);
      let agreementUrl: string | null = null;
      if (link.purpose === 'agreement' && isPaidOrder(order)) {
        const { token, tokenHash } = newHandoffToken();
        await db.insert(handoffTokens).values({
          tokenHash,
          transactionId: order.transactionId,
          expiresAt: sql`now() + make_interval(mins => ${config.HANDOFF_TTL_MINUTES})`,
        });
        const base = pickBaseAddress(request.hostname, { local: config.SUCCESS_SITE_LOCAL_URL, production: config.SUCCESS_SITE_URL });
        agreementUrl = `${base}/?token=${encodeURIComponent(token)}`;
      }
      return { account: await view(order), agreementUrl };
    },
  );

  app.get('/api/account', { schema: { summary: 'Manage page: the subscription', response: { 200: AccountView, ...error4xx } } }, async (request) =>
    view(await sessionOrder(request)),
  );

  app.post('/api/account/sign-out', { schema: { summary: 'Manage page: end the session', response: { 204: Type.Null() } } }, async (_request, reply) =>
    reply.clearCookie(SESSION_COOKIE, { path: '/api/account' }).code(204).send(),
  );

  app.post(
    '/api/account/credentials',
    { schema: { summary: 'Manage page: new login credentials (the old password stops working)', response: { 200: NewCredentials, ...error4xx } } },
    async (request) => {
      const order = await sessionOrder(request);
      requireHeld(order);
      const issued = await issueNewPassword(db, order.transactionId);
      if (!issued) throw new HttpError(409, 'This order has no login yet.');
      request.log.info({ transactionId: order.transactionId }, 'New login credentials issued from the manage page');
      return issued;
    },
  );

  app.post<{ Body: CancelRequest }>(
    '/api/account/cancel',
    { schema: { summary: 'Manage page: cancel at the end of the paid period', body: CancelRequest, response: { 200: AccountView, ...error4xx } } },
    async (request) => {
      requireSandbox();
      const order = await sessionOrder(request);
      requireHeld(order);
      const periodEnd = await setSandboxCancelAtPeriodEnd(db, order.subscriptionId, true);
      if (!periodEnd) throw new HttpError(409, 'This subscription cannot be cancelled now.');
      const updated = await recordCancellation(db, config, order, periodEnd, request.body.reason?.trim() || undefined);
      services.nudgeOutbox();
      return view(updated ?? order);
    },
  );

  app.post('/api/account/resume', { schema: { summary: 'Manage page: undo a cancellation', response: { 200: AccountView, ...error4xx } } }, async (request) => {
    requireSandbox();
    const order = await sessionOrder(request);
    requireHeld(order);
    if (!order.cancelAt) return view(order);
    if (!(await setSandboxCancelAtPeriodEnd(db, order.subscriptionId, false))) throw new HttpError(409, 'This subscription has ended.');
    const updated = await recordCancellationUndone(db, config, order);
    services.nudgeOutbox();
    return view(updated ?? order);
  });

  app.post<{ Body: SeatsRequest }>(
    '/api/account/seats',
    { schema: { summary: 'Manage page: change seats (prorated at the next charge)', body: SeatsRequest(config.MAX_SEATS), response: { 200: AccountView, ...error4xx } } },
    async (request) => {
      requireSandbox();
      const order = await sessionOrder(request);
      if (order.status !== 'paid') throw new HttpError(409, 'Seats can be changed while the subscription is active and paid up.');
      if (order.quantity === request.body.quantity) return view(order);
      const amountCents = await setSandboxQuantity(db, order.subscriptionId, request.body.quantity);
      if (amountCents === null) throw new HttpError(409, 'Seats can be changed while the subscription is active and paid up.');
      const updated = await recordSeatChange(db, config, order, request.body.quantity, amountCents, randomUUID());
      services.nudgeOutbox();
      return view(updated ?? order);
    },
  );

  app.post<{ Body: CardRequest }>(
    '/api/account/card',
    { schema: { summary: 'Manage page: a new card (an unpaid renewal is charged at once)', body: CardRequest, response: { 200: AccountView, ...error4xx } } },
    async (request) => {
      requireSandbox();
      const order = await sessionOrder(request);
      requireHeld(order);
      const card = checkSandboxCard(request.body.card);
      if (!card.ok) throw new HttpError(400, card.message);
      const charged = await updateSandboxCard(db, order.subscriptionId, card);
      if (charged === 'unknown') throw new HttpError(409, 'This subscription has ended.');
      if (charged) await applyRenewals(db, config, [charged]);
      services.nudgeOutbox();
      return view((await findOrder(db, order.transactionId))!);
    },
  );

  app.post<{ Body: PortalRequest }>(
    '/api/account/portal',
    { schema: { summary: 'Manage page (Stripe mode): a Customer Portal session on one flow', body: PortalRequest, response: { 200: Type.Object({ url: Type.String() }), ...error4xx } } },
    async (request) => {
      const order = await sessionOrder(request);
      if (!provider.createPortalSession) throw new HttpError(409, 'This page manages the subscription itself.');
      const url = await provider.createPortalSession({
        customerId: order.customerId,
        subscriptionId: order.subscriptionId,
        flow: request.body.flow,
        returnUrl: `${config.PUBLIC_URL?.replace(/\/+$/, '') ?? `${request.protocol}://${request.host}`}/account`,
        idempotencyKey: `${order.transactionId}:portal:${randomUUID()}`,
      });
      return { url };
    },
  );

  if (sandbox) {
    app.post<{ Body: { days: number } }>(
      '/api/sandbox/clock/advance',
      {
        schema: {
          summary: 'Sandbox: move the sandbox clock forward and run renewals',
          body: ClockAdvanceRequest,
          response: { 200: Type.Object({ now: Type.String(), renewals: Type.Integer() }), ...error4xx },
        },
      },
      async (request) => {
        const now = await advanceSandboxClock(db, request.body.days * 24 * 60 * 60);
        const events = await renewDueSandboxSubscriptions(db);
        await applyRenewals(db, config, events);
        services.nudgeOutbox();
        return { now: now.toISOString(), renewals: events.length };
      },
    );
  }
}
