/** The console's dashboard: revenue, orders and the funnel by referrer over a period, and that report as CSV. */
import type { FastifyInstance } from 'fastify';
import { Dashboard, DashboardQuery, PeriodQuery } from '../../../src/contract/admin';
import { ErrorResponse } from '../../../src/contract/checkout';
import { csvHeaders, referrerReportCsv } from '../../admin/csv';
import { dashboard, periodOf } from '../../admin/reports';
import type { Database } from '../../db/client';
import { periodChecked } from './periodChecked';

/** Registers GET /api/admin/dashboard and /api/admin/referrers/report.csv (signed in). */
export async function adminDashboardRoutes(app: FastifyInstance, { db }: { db: Database }): Promise<void> {
  app.get<{ Querystring: DashboardQuery }>(
    '/api/admin/dashboard',
    {
      schema: {
        summary: 'Console: money collected, MRR and its chart, orders and the funnel by referrer over a period',
        querystring: DashboardQuery,
        response: { 200: Dashboard, '4xx': ErrorResponse },
      },
    },
    async (request) => periodChecked(() => dashboard(db, periodOf(request.query), request.query.interval)),
  );

  app.get<{ Querystring: PeriodQuery }>(
    '/api/admin/referrers/report.csv',
    { schema: { summary: 'Console: the funnel by referrer as CSV', querystring: PeriodQuery } },
    async (request, reply) => {
      const figures = await periodChecked(() => dashboard(db, periodOf(request.query)));
      return reply.headers(csvHeaders(`referrers-${figures.from}-${figures.to}.csv`)).send(referrerReportCsv(figures));
    },
  );
}
