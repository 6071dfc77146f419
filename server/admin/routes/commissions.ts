/** The console's commissions (docs/decisions/0035). Signed in. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import {
  CommissionsOverview,
  CreateBatchRequest,
  DefaultRuleRequest,
  MarkPaidRequest,
  OrderCommissions,
  PayoutBatch,
  ReferrerCommissionRequest,
} from '../../../src/contract/commissions';
import { ErrorResponse } from '../../../src/contract/checkout';
import { TransactionIdParams, UuidParams } from '../../../src/contract/fields';
import { DEFAULT_PAYOUT_MINIMUM_CENTS } from '../../../src/domain/commissions';
import { EMAIL_PATTERN } from '../../../src/domain/validation';
import { csvHeaders } from '../csv';
import { createPayoutBatch, findPayoutBatch, markBatchPaid, voidBatch } from '../../commissions';
import { setRule } from '../../commissions';
import { orderCommissions } from '../../commissions';
import { batchJson, commissionsOverview, genericPayoutCsv, paypalPayoutsCsv, setReferrerCommission } from '../../commissions';
import { HttpError } from '../../http/httpError';
import type { OrderServices } from '../../checkout';

const errors = { '4xx': ErrorResponse };
const BatchParams = Type.Object({ id: Type.String({ pattern: '^[0-9]{1,15}$' }) });
const MinimumQuery = Type.Object(
  { minimumCents: Type.Optional(Type.String({ pattern: '^[0-9]{1,9}$' })) },
  { additionalProperties: false },
);

export async function adminCommissionRoutes(
  app: FastifyInstance,
  {
    ownerOf,
    nudgeOutbox,
    db,
    provider,
  }: OrderServices & { ownerOf: (request: FastifyRequest) => Promise<{ id: string }>; nudgeOutbox: () => void },
): Promise<void> {
  const clock = provider.clock;
  const batchOr404 = async (id: string) => {
    const batch = await findPayoutBatch(db, Number(id));
    if (!batch) throw new HttpError(404, 'No such payout batch.');
    return batch;
  };

  app.get<{ Querystring: { minimumCents?: string } }>(
    '/api/admin/commissions',
    {
      schema: {
        summary: 'Console: commission rules, balances and payouts',
        querystring: MinimumQuery,
        response: { 200: CommissionsOverview, ...errors },
      },
    },
    async (request) =>
      commissionsOverview(db, clock, Number(request.query.minimumCents ?? DEFAULT_PAYOUT_MINIMUM_CENTS) || DEFAULT_PAYOUT_MINIMUM_CENTS),
  );

  app.put<{ Body: DefaultRuleRequest }>(
    '/api/admin/commissions/default-rule',
    {
      schema: { summary: 'Console: set the default commission rule', body: DefaultRuleRequest, response: { 204: Type.Null(), ...errors } },
    },
    async (request, reply) => {
      await setRule(db, null, request.body.rule, (await ownerOf(request)).id);
      request.log.info({ rule: request.body.rule }, 'Default commission rule changed');
      return reply.code(204).send();
    },
  );

  app.put<{ Params: { id: string }; Body: ReferrerCommissionRequest }>(
    '/api/admin/commissions/referrers/:id',
    {
      schema: {
        summary: "Console: a referrer's email and commission rule",
        params: UuidParams,
        body: ReferrerCommissionRequest,
        response: { 204: Type.Null(), ...errors },
      },
    },
    async (request, reply) => {
      const { email } = request.body;
      if (email && !EMAIL_PATTERN.test(email.trim())) throw new HttpError(400, 'Please enter a valid email address.');
      const changed = await setReferrerCommission(db, request.params.id, request.body, (await ownerOf(request)).id);
      if (!changed) throw new HttpError(404, 'No such referrer.');
      request.log.info({ referrerId: request.params.id }, 'Referrer commission settings changed');
      return reply.code(204).send();
    },
  );

  app.post<{ Body: CreateBatchRequest }>(
    '/api/admin/commissions/batches',
    {
      schema: {
        summary: 'Console: create a payout batch of the payable balances',
        body: CreateBatchRequest,
        response: { 201: PayoutBatch, ...errors },
      },
    },
    async (request, reply) => {
      const created = await createPayoutBatch(db, clock, {
        minimumCents: request.body.minimumCents ?? DEFAULT_PAYOUT_MINIMUM_CENTS,
        ownerId: (await ownerOf(request)).id,
      });
      if (!created.ok) {
        throw created.refusal === 'taken'
          ? new HttpError(409, 'Another payout batch took these commissions just now. Reload and try again.')
          : new HttpError(409, 'No referrer with an email has a payable balance at or above the minimum.');
      }
      request.log.info({ batchId: created.batchId }, 'Payout batch created');
      return reply.code(201).send(batchJson(await batchOr404(String(created.batchId))));
    },
  );

  app.get<{ Params: { id: string } }>(
    '/api/admin/commissions/batches/:id/paypal.csv',
    { schema: { summary: 'Console: a payout batch as a PayPal Payouts bulk file', params: BatchParams } },
    async (request, reply) => {
      const batch = await batchOr404(request.params.id);
      return reply.headers(csvHeaders(`payout-${batch.id}-paypal.csv`)).send(paypalPayoutsCsv(batch));
    },
  );

  app.get<{ Params: { id: string } }>(
    '/api/admin/commissions/batches/:id/payout.csv',
    { schema: { summary: 'Console: a payout batch as CSV', params: BatchParams } },
    async (request, reply) => {
      const batch = await batchOr404(request.params.id);
      return reply.headers(csvHeaders(`payout-${batch.id}.csv`)).send(genericPayoutCsv(batch));
    },
  );

  app.post<{ Params: { id: string }; Body: MarkPaidRequest }>(
    '/api/admin/commissions/batches/:id/paid',
    {
      schema: {
        summary: 'Console: mark a payout batch paid',
        params: BatchParams,
        body: MarkPaidRequest,
        response: { 200: PayoutBatch, ...errors },
      },
    },
    async (request) => {
      await batchOr404(request.params.id);
      if (!(await markBatchPaid(db, Number(request.params.id), request.body.reference.trim())))
        throw new HttpError(409, 'Only a batch not yet paid or voided can be marked paid.');
      nudgeOutbox();
      request.log.info({ batchId: request.params.id }, 'Payout batch marked paid');
      return batchJson(await batchOr404(request.params.id));
    },
  );

  app.post<{ Params: { id: string } }>(
    '/api/admin/commissions/batches/:id/void',
    {
      schema: {
        summary: 'Console: void a payout batch (its commissions are payable again)',
        params: BatchParams,
        response: { 200: PayoutBatch, ...errors },
      },
    },
    async (request) => {
      await batchOr404(request.params.id);
      if (!(await voidBatch(db, Number(request.params.id)))) throw new HttpError(409, 'Only a batch not yet paid or voided can be voided.');
      request.log.info({ batchId: request.params.id }, 'Payout batch voided');
      return batchJson(await batchOr404(request.params.id));
    },
  );

  app.get<{ Params: { transactionId: string } }>(
    '/api/admin/orders/:transactionId/commissions',
    {
      schema: {
        summary: "Console: an order's commission ledger entries",
        params: TransactionIdParams,
        response: { 200: OrderCommissions, ...errors },
      },
    },
    async (request) => ({ entries: await orderCommissions(db, clock, request.params.transactionId) }),
  );
}
