/**
 * The owner refunds an order (server/checkout/refundOrder.ts): everything within the guarantee, a named amount after
 * it. A refusal is a 4xx and changes nothing.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { OrderDetail, RefundRequest } from '../../../src/contract/admin';
import { ErrorResponse } from '../../../src/contract/checkout';
import { TransactionIdParams } from '../../../src/contract/fields';
import { orderDetail } from '../reports';
import { HttpError } from '../../http/httpError';
import type { OrderServices } from '../../checkout';
import { REFUND_GUARANTEE_DAYS } from '../../../src/domain/refunds';
import { refundOrder, type RefundRefusal } from '../../checkout';

const REFUSALS: Record<RefundRefusal, [status: number, message: string]> = {
  unknown_order: [404, 'No such order.'],
  not_paid: [409, 'This order was never paid: there is nothing to refund.'],
  amount_required: [400, `More than ${REFUND_GUARANTEE_DAYS} days after the first payment, give the amount to refund.`],
  amount_too_high: [400, 'That is more than is left to refund: what was paid, less refunds and any payment a dispute holds.'],
  in_progress: [409, 'A refund of this order is already in progress.'],
  key_reused: [409, 'This refund was asked for another amount: ask for the new amount as a new refund.'],
};

export async function adminRefundRoutes(
  app: FastifyInstance,
  { ownerOf, ...services }: OrderServices & { ownerOf: (request: FastifyRequest) => Promise<{ id: string }> },
): Promise<void> {
  app.post<{ Params: { transactionId: string }; Body: RefundRequest }>(
    '/api/admin/orders/:transactionId/refund',
    {
      schema: {
        summary: 'Console: refund an order and end its subscription',
        params: TransactionIdParams,
        body: RefundRequest,
        response: { 200: OrderDetail, '4xx': ErrorResponse },
      },
    },
    async (request) => {
      const owner = await ownerOf(request);
      const result = await refundOrder(
        { ...services, log: request.log },
        {
          transactionId: request.params.transactionId,
          amountCents: request.body.amountCents,
          ownerId: owner.id,
          requestKey: request.body.requestKey,
        },
      );
      if (!result.ok) throw new HttpError(...REFUSALS[result.refusal]);
      const detail = await orderDetail({ ...services, log: request.log }, request.params.transactionId);
      if (!detail) throw new HttpError(404, 'No such order.');
      return detail;
    },
  );
}
