import type { FastifyInstance } from 'fastify';
import { Dashboard, DashboardQuery, PeriodQuery } from '../../../src/contract/admin';
import { ErrorResponse } from '../../../src/contract/checkout';
import { csvHeaders, referrerReportCsv } from '../csv';
import { dashboard, periodOf } from '../reports';
import { referrerBalances } from '../../commissions';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import { setupLeft } from '../setup';
import type { PaymentProvider } from '../../payments';
import { periodChecked } from './periodChecked';

export async function adminDashboardRoutes(
  app: FastifyInstance,
  { db, provider, config }: { db: Database; provider: PaymentProvider; config: Pick<Config, 'DEFAULT_REFERRER_SLUG'> },
): Promise<void> {
  app.get<{ Querystring: DashboardQuery }>(
    '/api/admin/dashboard',
    {
      schema: {
        summary: 'Console: money collected, MRR and its chart, orders and the funnel by referrer over a period',
        querystring: DashboardQuery,
        response: { 200: Dashboard, '4xx': ErrorResponse },
      },
    },
    async (request) => {
      const figures = await periodChecked(() => dashboard(db, periodOf(request.query), request.query.interval));
      const balances = await referrerBalances(db, provider.clock);
      const commissions = balances
        .filter(({ totals }) => totals.held + totals.payable + totals.inPayout + totals.paid !== 0)
        .map(({ referrerId, displayName, totals }) => ({
          referrerId,
          displayName,
          owedCents: totals.held + totals.payable + totals.inPayout,
          paidCents: totals.paid,
        }));
      return { ...figures, commissions, setup: await setupLeft(db, config) };
    },
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
