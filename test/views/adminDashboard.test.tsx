/**
 * The console's dashboard against a faked server: a period without revenue says so in words instead of drawing a
 * line along zero (whose axis read "$1 $1 $1 $0"); a period with revenue draws the chart.
 */
import { render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Dashboard } from '../../src/contract/admin';
import { AdminDashboard } from '../../src/views/admin/AdminDashboard';
import { stubFetch } from './support/fakeFetch';

const EMPTY: Dashboard = {
  setup: [],
  from: '2026-11-01',
  to: '2026-11-03',
  mrrCents: 0,
  interval: 'day',
  mrrSeries: [
    { date: '2026-11-01', mrrCents: 0 },
    { date: '2026-11-02', mrrCents: 0 },
    { date: '2026-11-03', mrrCents: 0 },
  ],
  collectedCents: 0,
  newMrrCents: 0,
  churnedMrrCents: 0,
  netMrrCents: 0,
  paidOrders: 0,
  paidSeats: 0,
  assignedSeats: 0,
  claimedSeats: 0,
  abandonedCheckouts: 0,
  cancellations: 0,
  failedPayments: 0,
  byReferrer: [],
  commissions: [],
};

const showing = (dashboard: Dashboard) => {
  stubFetch({ '/api/admin/dashboard': () => ({ status: 200, body: dashboard }) });
  render(<AdminDashboard onUnauthorised={() => undefined} />);
};
afterEach(() => vi.unstubAllGlobals());

describe("the console's dashboard", () => {
  it('says there is no revenue yet instead of drawing an empty chart', async () => {
    showing(EMPTY);
    const note = await screen.findByRole('note', { name: 'MRR chart' });
    expect(note).toHaveTextContent('No revenue yet: no subscription was active from 2026-11-01 to 2026-11-03.');
    expect(screen.queryByTestId('mrr-chart')).toBeNull();
  });

  it('draws the chart once there is revenue in the period', async () => {
    showing({ ...EMPTY, mrrCents: 50_000, mrrSeries: [...EMPTY.mrrSeries.slice(0, 2), { date: '2026-11-03', mrrCents: 50_000 }] });
    expect(await screen.findByTestId('mrr-chart')).toBeInTheDocument();
    expect(screen.queryByRole('note', { name: 'MRR chart' })).toBeNull();
  });

  it('shows what is left to set up, each with a link to where it is done, and nothing once all is done', async () => {
    showing({ ...EMPTY, setup: ['default_referrer', 'guarantee'] });
    const left = await screen.findByRole('region', { name: 'Left to set up' });
    const steps = within(left).getAllByRole('listitem');
    expect(steps.map((step) => step.textContent)).toEqual([
      expect.stringMatching(
        /^Name the referrer visitors without a link see\. Until then the offer reads “For Friends of Dr\. Sample Only”/,
      ),
      expect.stringMatching(/^Check the guarantee\./),
    ]);
    expect(within(steps[0]!).getByRole('link', { name: 'Go to Referrers' })).toHaveAttribute('href', '/referrers');
    expect(within(steps[1]!).getByRole('link', { name: 'Go to Content' })).toHaveAttribute('href', '/content');
  });

  it('shows no set-up list once everything is set up', async () => {
    showing(EMPTY);
    await screen.findByRole('note', { name: 'MRR chart' });
    expect(screen.queryByRole('region', { name: 'Left to set up' })).toBeNull();
  });
});
