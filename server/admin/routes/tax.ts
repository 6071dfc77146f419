/**
 * The console's tax report for filing (docs/decisions/0074): GET /api/admin/tax, per registered state and month,
 * and /api/admin/tax.csv, the same rows as CSV (signed in). A month not written YYYY-MM, or a report ending before
 * it starts, is a 400 in words.
 */
import type { FastifyInstance } from 'fastify';
import { TaxQuery, TaxReport } from '../../../src/contract/admin';
import { ErrorResponse } from '../../../src/contract/checkout';
import type { Database } from '../../db/client';
import { taxPeriodOf, taxReport } from '../../tax';
import { csvHeaders, taxReportCsv } from '../csv';
import { periodChecked } from './periodChecked';

/** Registers the tax report and its CSV. */
export async function adminTaxRoutes(app: FastifyInstance, { db }: { db: Database }): Promise<void> {
  app.get<{ Querystring: TaxQuery }>(
    '/api/admin/tax',
    {
      schema: {
        summary: 'Console: tax collected and refunded per state and month, for filing',
        querystring: TaxQuery,
        response: { 200: TaxReport, '4xx': ErrorResponse },
      },
    },
    async (request) => periodChecked(() => taxReport(db, taxPeriodOf(request.query))),
  );

  app.get<{ Querystring: TaxQuery }>(
    '/api/admin/tax.csv',
    { schema: { summary: 'Console: the tax report as CSV', querystring: TaxQuery } },
    async (request, reply) => {
      const report = await periodChecked(() => taxReport(db, taxPeriodOf(request.query)));
      return reply.headers(csvHeaders(`tax-${report.from}-${report.to}.csv`)).send(taxReportCsv(report));
    },
  );
}
