import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { OrderActionRequest, OrderDetail, OrderRow, OrdersQuery } from '../../../src/contract/admin';
import { ErrorResponse } from '../../../src/contract/checkout';
import { TransactionIdParams } from '../../../src/contract/fields';
import { csvHeaders, ordersCsv } from '../csv';
import { runOrderAction, type OrderActionRefusal } from '../orderActions';
import { listOrders, orderDetail } from '../reports';
import { HttpError } from '../../http/httpError';
import type { OrderServices } from '../../checkout';
import { periodChecked } from './periodChecked';

const REFUSALS: Record<OrderActionRefusal, [status: number, message: string]> = {
  unknown_order: [404, 'No such order.'],
  not_paid: [409, 'This order was never paid: there is no subscription or account yet.'],
  ended: [409, 'This subscription has already ended.'],
};

export async function adminOrderRoutes(
  app: FastifyInstance,
  { nudgeOutbox, ...services }: OrderServices & { nudgeOutbox: () => void },
): Promise<void> {
  const { db } = services;
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
    {
      schema: {
        summary: 'Console: one order, its funnel events and its invoices',
        params: TransactionIdParams,
        response: { 200: OrderDetail, '4xx': ErrorResponse },
      },
    },
    async (request) => {
      const detail = await orderDetail({ ...services, log: request.log }, request.params.transactionId);
      if (!detail) throw new HttpError(404, 'No such order.');
      return detail;
    },
  );

  app.post<{ Params: { transactionId: string }; Body: OrderActionRequest }>(
    '/api/admin/orders/:transactionId/actions',
    {
      schema: {
        summary: 'Console: re-send the confirmation, mail a sign-in link, cancel at period end or now',
        params: TransactionIdParams,
        body: OrderActionRequest,
        response: { 200: OrderDetail, '4xx': ErrorResponse },
      },
    },
    async (request) => {
      const context = { ...services, log: request.log };
      const result = await runOrderAction(context, request.params.transactionId, request.body.action);
      if (!result.ok) throw new HttpError(...REFUSALS[result.refusal]);
      nudgeOutbox();
      const detail = await orderDetail(context, request.params.transactionId);
      if (!detail) throw new HttpError(404, 'No such order.');
      return detail;
    },
  );
}
