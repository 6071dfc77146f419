/**
 * The console's Tax screen against a faked server, through the real client: the months asked for, the report's
 * rows in dollars with each state's tax named, the empty months' words, the CSV of the months shown, a refusal in
 * the server's words.
 */
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TaxReport } from '../../src/contract/admin';
import { AdminTax } from '../../src/views/admin/AdminTax';

const REPORT: TaxReport = {
  from: '2026-09',
  to: '2026-10',
  rows: [
    {
      state: 'HI',
      month: '2026-09',
      salesCents: 150_000,
      salesRefundedCents: 9_551,
      taxCollectedCents: 7_068,
      taxRefundedCents: 450,
      netTaxCents: 6_618,
      payments: 2,
      refunds: 1,
    },
  ],
  totals: [
    {
      state: 'HI',
      month: '2026-09–2026-10',
      salesCents: 150_000,
      salesRefundedCents: 9_551,
      taxCollectedCents: 7_068,
      taxRefundedCents: 450,
      netTaxCents: 6_618,
      payments: 2,
      refunds: 1,
    },
  ],
};

let requests: string[];
let answer: (url: string) => { status: number; body: unknown };

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: false });
  requests = [];
  answer = () => ({ status: 200, body: REPORT });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      requests.push(url);
      const { status, body } = answer(url);
      return { ok: status < 400, status, json: async () => body } as Response;
    }),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

const flush = () => act(async () => vi.advanceTimersByTimeAsync(0));

describe('the console’s Tax screen', () => {
  it('asks for the default months, then the months chosen; shows each state and month in dollars and the CSV of those months', async () => {
    render(<AdminTax onUnauthorised={() => undefined} />);
    await flush();
    expect(requests).toEqual(['/api/admin/tax']);
    const table = screen.getByRole('table', { name: 'Tax by state and month, 2026-09 to 2026-10' });
    const [, first] = within(table).getAllByRole('row');
    expect(first).toHaveTextContent('HI (Hawaii general excise tax)');
    for (const amount of ['$1,500', '$70.68', '$95.51', '$4.50', '$66.18']) expect(first).toHaveTextContent(amount);
    expect(screen.getByRole('table', { name: 'Tax by state, 2026-09 to 2026-10' })).toHaveTextContent('2026-09–2026-10');
    expect(screen.getByRole('link', { name: 'Download the report as CSV' })).toHaveAttribute(
      'href',
      '/api/admin/tax.csv?from=2026-09&to=2026-10',
    );

    const form = screen.getByRole('form', { name: 'Months' });
    fireEvent.change(within(form).getByLabelText('From'), { target: { value: '2026-01' } });
    fireEvent.change(within(form).getByLabelText('To'), { target: { value: '2026-03' } });
    answer = () => ({ status: 200, body: { from: '2026-01', to: '2026-03', rows: [], totals: [] } });
    fireEvent.submit(form);
    await flush();
    expect(requests.at(-1)).toBe('/api/admin/tax?from=2026-01&to=2026-03');
    expect(screen.getByText('No taxed payment or refund from 2026-01 to 2026-03: nothing to file for these months.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Download the report as CSV' })).toHaveAttribute(
      'href',
      '/api/admin/tax.csv?from=2026-01&to=2026-03',
    );
  });

  it('says a refusal in the server’s words, and a signed-out session asks for the sign-in', async () => {
    answer = () => ({ status: 400, body: { error: 'The report must end in or after the month it starts.' } });
    const onUnauthorised = vi.fn();
    render(<AdminTax onUnauthorised={onUnauthorised} />);
    await flush();
    expect(screen.getByRole('alert')).toHaveTextContent('The report must end in or after the month it starts.');
    answer = () => ({ status: 401, body: { error: 'Please sign in.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await flush();
    expect(onUnauthorised).toHaveBeenCalledTimes(1);
  });
});
