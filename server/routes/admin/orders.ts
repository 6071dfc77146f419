/** The console's orders: the list (filtered by status, referrer, period), its CSV, and one order with its funnel events. */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { OrderDetail, OrderRow, OrdersQuery } from '../../../src/contract/admin';
import { ErrorResponse } from '../../../src/contract/checkout';
import { csvHeaders, ordersCsv } from '../../admin/csv';
import { listOrders, orderDetail } from '../../admin/reports';
import type { Database } from '../../db/client';
import { HttpError } from '../../http/httpError';
import { periodChecked } from './periodChecked';

/** Registers GET /api/admin/orders, /api/admin/orders.csv and /api/admin/orders/:transactionId (signed in). */
export async function adminOrderRoutes(app: FastifyInstance, { db }: { db: Database }): Promise<void> {
  app.get<{ Querystring: OrdersQuery }>(
    '/api/admin/orders',
    {
      schema: {
        summary: 'Console: orders, newest first',
        querystring: OrdersQuery,
        response: { 200: Type.Object({ orders: Type.Array(OrderRow) }), '4xx': ErrorResponse },
      },
    },
    async (request) => ({ orders: await periodChecked(() => listOrders(db, request.query)) }),
  );

  app.get<{ Querystring: OrdersQuery }>(
    '/api/admin/orders.csv',
    { schema: { summary: 'Console: orders as CSV', querystring: OrdersQuery } },
    async (request, reply) => {
      const rows = await periodChecked(() => listOrders(db, request.query, true));
      return reply.headers(csvHeaders('orders.csv')).send(ordersCsv(rows));
    },
  );

  app.get<{ Params: { transactionId: string } }>(
    '/api/admin/orders/:transactionId',
    { schema: { summary: 'Console: one order and its funnel events', response: { 200: OrderDetail, '4xx': ErrorResponse } } },
    async (request) => {
      const detail = await orderDetail(db, request.params.transactionId);
      if (!detail) throw new HttpError(404, 'No such order.');
      return detail;
    },
  );
}
