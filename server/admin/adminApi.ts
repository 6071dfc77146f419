/**
 * The owner's console API, /api/admin/* (docs/decisions/0018-owner-console.md). Sign-in with an owner's email and
 * password (argon2id, ./owners.ts), rate-limited per address; a session cookie (@fastify/session on the database,
 * ./sessionStore.ts) that is httpOnly, SameSite=Strict and scoped to /api/admin. Every other route answers 401
 * `{ error }` without a signed-in owner. Requests that change something must come from this site: a cross-site
 * `Origin` is refused with 403 (the cookie's SameSite=Strict is the first guard, JSON-only bodies the second).
 */
import fastifySession from '@fastify/session';
import { stringify } from 'csv-stringify/sync';
import { desc, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createHmac } from 'node:crypto';
import { Type } from 'typebox';
import {
  CreateReferrerRequest,
  Dashboard,
  OrderDetail,
  OrderRow,
  OrdersQuery,
  OutboxMail,
  OwnerSession,
  PeriodQuery,
  Referrer,
  SignInRequest,
  UpdateReferrerRequest,
} from '../../src/contract/admin';
import { ErrorResponse } from '../../src/contract/checkout';
import type { Config } from '../config';
import type { Database } from '../db/client';
import { outbox, referrers } from '../db/schema';
import { HttpError } from '../http/httpError';
import { listReferrers, referrerJson } from '../referrals/referrers';
import { ownerEmail, verifyOwner } from './owners';
import { dashboard, listOrders, orderDetail, periodOf } from './reports';
import { databaseSessionStore } from './sessionStore';

declare module 'fastify' {
  interface Session {
    /** The signed-in owner's id (set at sign-in). */
    ownerId?: string;
  }
}

interface AdminApiOptions {
  db: Database;
  config: Config;
  /** The app's cookie secret; the session's own secret is derived from it. */
  sessionSecret: string;
}

const SIGN_IN_REFUSED = 'Wrong email or password.';
const SIGN_IN_REQUIRED = 'Please sign in to the console.';
const HOUR_MS = 60 * 60 * 1000;

const csvOf = (header: string[], rows: (string | number | null)[][]) =>
  // escape_formulas: a cell starting with = + - @ cannot run as a spreadsheet formula (OWASP CSV injection).
  stringify([header, ...rows], { escape_formulas: true });

const sendCsv = (reply: FastifyReply, filename: string, csv: string) =>
  reply.header('Content-Type', 'text/csv; charset=utf-8').header('Content-Disposition', `attachment; filename="${filename}"`).send(csv);

const dollars = (cents: number) => (cents / 100).toFixed(2);

/** Refuses a state-changing request whose Origin is another site's. */
function assertSameOrigin(request: FastifyRequest): void {
  if (request.method === 'GET' || request.method === 'HEAD') return;
  const origin = request.headers.origin;
  if (origin === undefined) return;
  // request.host and request.protocol follow TRUST_PROXY; URL() drops default ports on both sides.
  let sameSite = false;
  try {
    sameSite = new URL(origin).origin === new URL(`${request.protocol}://${request.host}`).origin;
  } catch {
    sameSite = false;
  }
  if (!sameSite) throw new HttpError(403, 'This request must come from the console.');
}

/** Registers /api/admin/*. */
export async function adminApi(app: FastifyInstance, { db, config, sessionSecret }: AdminApiOptions): Promise<void> {
  const ttlMs = config.OWNER_SESSION_HOURS * HOUR_MS;
  await app.register(async (admin) => {
    await admin.register(fastifySession, {
      secret: createHmac('sha256', sessionSecret).update('owner console session').digest('hex'),
      cookieName: 'owner_session',
      // Secure when the site is served over HTTPS (PUBLIC_URL); SameSite=Strict either way.
      cookie: { path: '/api/admin', httpOnly: true, sameSite: 'strict', secure: config.PUBLIC_URL?.startsWith('https:') ?? false, maxAge: ttlMs },
      saveUninitialized: false,
      rolling: true,
      store: databaseSessionStore(db, ttlMs),
    });
    admin.addHook('onRequest', async (request) => assertSameOrigin(request));

    admin.post<{ Body: SignInRequest }>(
      '/api/admin/sign-in',
      {
        schema: { summary: "Console: sign in with an owner's email and password", body: SignInRequest, response: { 200: OwnerSession, '4xx': ErrorResponse } },
        config: { rateLimit: { max: config.SIGN_INS_PER_15_MINUTES, timeWindow: '15 minutes' } },
      },
      async (request) => {
        const owner = await verifyOwner(db, request.body.email, request.body.password);
        if (!owner) {
          request.log.warn('Console sign-in refused');
          throw new HttpError(401, SIGN_IN_REFUSED);
        }
        // A fresh session id at sign-in (no session fixation).
        await request.session.regenerate();
        request.session.ownerId = owner.id;
        request.log.info({ ownerId: owner.id }, 'Console sign-in');
        return { email: owner.email };
      },
    );

    admin.post('/api/admin/sign-out', { schema: { summary: 'Console: sign out', response: { 204: Type.Null() } } }, async (request, reply) => {
      if (request.session.ownerId) await request.session.destroy();
      return reply.code(204).send();
    });

    // Everything below needs a signed-in owner who still exists.
    await admin.register(async (owned) => {
      owned.addHook('preHandler', async (request) => {
        const ownerId = request.session.ownerId;
        if (!ownerId || !(await ownerEmail(db, ownerId))) throw new HttpError(401, SIGN_IN_REQUIRED);
      });
      const unauthorised = { 401: ErrorResponse };

      owned.get('/api/admin/session', { schema: { summary: 'Console: the signed-in owner', response: { 200: OwnerSession, ...unauthorised } } }, async (request) => ({
        email: (await ownerEmail(db, request.session.ownerId!))!,
      }));

      owned.get<{ Querystring: OrdersQuery }>(
        '/api/admin/orders',
        { schema: { summary: 'Console: orders, newest first', querystring: OrdersQuery, response: { 200: Type.Object({ orders: Type.Array(OrderRow) }), '4xx': ErrorResponse } } },
        async (request) => ({ orders: await periodChecked(() => listOrders(db, request.query)) }),
      );

      owned.get<{ Querystring: OrdersQuery }>(
        '/api/admin/orders.csv',
        { schema: { summary: 'Console: orders as CSV', querystring: OrdersQuery } },
        async (request, reply) => {
          const rows = await periodChecked(() => listOrders(db, request.query, true));
          const csv = csvOf(
            ['transaction_id', 'status', 'seats', 'monthly_total_usd', 'email', 'name', 'referrer', 'affiliate_id', 'provider', 'customer_id', 'subscription_id', 'created_at', 'paid_at', 'cancelled_at'],
            rows.map((row) => [
              row.transactionId, row.status, row.quantity, dollars(row.amountCents), row.email, row.name, row.referrer?.slug ?? '',
              row.affiliateId, row.provider, row.customerId, row.subscriptionId, row.createdAt, row.paidAt, row.cancelledAt,
            ]),
          );
          return sendCsv(reply, 'orders.csv', csv);
        },
      );

      owned.get<{ Params: { transactionId: string } }>(
        '/api/admin/orders/:transactionId',
        { schema: { summary: 'Console: one order and its funnel events', response: { 200: OrderDetail, '4xx': ErrorResponse } } },
        async (request) => {
          const detail = await orderDetail(db, request.params.transactionId);
          if (!detail) throw new HttpError(404, 'No such order.');
          return detail;
        },
      );

      owned.get('/api/admin/referrers', { schema: { summary: 'Console: referrers', response: { 200: Type.Object({ referrers: Type.Array(Referrer) }), ...unauthorised } } }, async () => ({
        referrers: (await listReferrers(db)).map(referrerJson),
      }));

      owned.post<{ Body: CreateReferrerRequest }>(
        '/api/admin/referrers',
        { schema: { summary: 'Console: add a referrer', body: CreateReferrerRequest, response: { 201: Referrer, '4xx': ErrorResponse } } },
        async (request, reply) => {
          const [created] = await db.insert(referrers).values(request.body).onConflictDoNothing({ target: referrers.slug }).returning();
          if (!created) throw new HttpError(409, `The link /r/${request.body.slug} is taken: choose another.`);
          request.log.info({ referrer: created.slug }, 'Referrer added');
          return reply.code(201).send(referrerJson(created));
        },
      );

      owned.patch<{ Params: { id: string }; Body: UpdateReferrerRequest }>(
        '/api/admin/referrers/:id',
        { schema: { summary: 'Console: edit, disable or enable a referrer', body: UpdateReferrerRequest, response: { 200: Referrer, '4xx': ErrorResponse } } },
        async (request) => {
          if (!/^[0-9a-f-]{36}$/i.test(request.params.id)) throw new HttpError(404, 'No such referrer.');
          const [updated] = await db
            .update(referrers)
            .set({ ...request.body, updatedAt: new Date() })
            .where(eq(referrers.id, request.params.id))
            .returning();
          if (!updated) throw new HttpError(404, 'No such referrer.');
          request.log.info({ referrer: updated.slug, status: updated.status }, 'Referrer changed');
          return referrerJson(updated);
        },
      );

      owned.get(
        '/api/admin/mail',
        { schema: { summary: 'Console: the newest 200 mails of the outbox, held ones with their text', response: { 200: Type.Object({ mails: Type.Array(OutboxMail) }), ...unauthorised } } },
        async () => {
          const rows = await db.select().from(outbox).where(eq(outbox.kind, 'mail')).orderBy(desc(outbox.id)).limit(200);
          return {
            mails: rows.map((row) => ({
              id: row.id,
              topic: row.topic,
              status: row.status,
              transactionId: row.transactionId,
              attempts: row.attempts,
              lastError: row.lastError,
              createdAt: row.createdAt.toISOString(),
              sentAt: row.sentAt?.toISOString() ?? null,
              rendered: row.rendered ?? null,
            })),
          };
        },
      );

      owned.get<{ Querystring: PeriodQuery }>(
        '/api/admin/dashboard',
        { schema: { summary: 'Console: revenue, orders and the funnel by referrer over a period', querystring: PeriodQuery, response: { 200: Dashboard, '4xx': ErrorResponse } } },
        async (request) => periodChecked(() => dashboard(db, periodOf(request.query))),
      );

      owned.get<{ Querystring: PeriodQuery }>(
        '/api/admin/referrers/report.csv',
        { schema: { summary: 'Console: the funnel by referrer as CSV', querystring: PeriodQuery } },
        async (request, reply) => {
          const figures = await periodChecked(() => dashboard(db, periodOf(request.query)));
          const csv = csvOf(
            ['referrer', 'name', 'page_views', 'checkouts_opened', 'payments_submitted', 'paid_orders', 'paid_seats', 'mrr_usd', 'from', 'to'],
            figures.byReferrer.map((row) => [
              row.referrer?.slug ?? '(no link)', row.referrer?.displayName ?? '', row.views, row.opened, row.submitted, row.paid, row.paidSeats,
              dollars(row.mrrCents), figures.from, figures.to,
            ]),
          );
          return sendCsv(reply, `referrers-${figures.from}-${figures.to}.csv`, csv);
        },
      );
    });
  });
}

/** Runs a report; a period that cannot be (ends before it starts) is the client's error: 400. */
async function periodChecked<T>(report: () => Promise<T>): Promise<T> {
  try {
    return await report();
  } catch (error) {
    if (error instanceof RangeError) throw new HttpError(400, error.message);
    throw error;
  }
}
