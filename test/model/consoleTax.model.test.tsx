/**
 * Model-based test of the console's Tax screen (src/machines/consoleTaxMachine.ts, src/views/admin/AdminTax.tsx):
 * generated paths through loading the report, months chosen (and the default, none), each load answered with a
 * report or an empty one, refused in the server's words, failed on the network or ended by a signed-out session,
 * and 'Try again', run against the real screen and its real client. Held to pageRules.ts: the months asked for are
 * the months chosen, every amount in dollars, a row per state and month and a total per state, the empty report's
 * words, the CSV of the same months, what a failure says, and the console's sign-in asked for when the session ended.
 */
import { fireEvent, render, screen, within } from '@testing-library/react';
import { expect, vi } from 'vitest';
import type { AnyEventObject, AnyMachineSnapshot } from 'xstate';
import { ApiError } from '../../src/api/client';
import type { TaxQuery, TaxReport } from '../../src/contract/admin';
import { consoleTaxMachine } from '../../src/machines/consoleTaxMachine';
import { AdminTax } from '../../src/views/admin/AdminTax';
import { answeredWith, answersOf, describePageModel, type Step } from './pageModel';
import { TAX, UNREACHABLE } from './pageRules';

const row = (state: string, month: string, sales: number, tax: number, taxRefunded: number) => ({
  state,
  month,
  salesCents: sales,
  salesRefundedCents: 0,
  taxCollectedCents: tax,
  taxRefundedCents: taxRefunded,
  netTaxCents: tax - taxRefunded,
  payments: 1,
  refunds: taxRefunded > 0 ? 1 : 0,
});
const REPORT: TaxReport = {
  from: '2026-09',
  to: '2026-10',
  rows: [row('HI', '2026-09', 150_000, 7_068, 450), row('HI', '2026-10', 50_000, 2_356, 0)],
  totals: [row('HI', '2026-09–2026-10', 200_000, 9_424, 450)],
};
const EMPTY: TaxReport = { from: '2025-01', to: '2025-12', rows: [], totals: [] };
const NETWORK = new ApiError(UNREACHABLE.console, 0);
const SIGNED_OUT = new ApiError('Please sign in to the console.', 401);
const REFUSED = new ApiError('The report must end in or after the month it starts.', 400);
/** The months the owner chooses in turn: two months, then none (the server's default). */
const CHOICES: TaxQuery[] = [{ from: '2026-09', to: '2026-10' }, {}];

let onUnauthorised = vi.fn();

function eventsAt(snapshot: AnyMachineSnapshot): AnyEventObject[] {
  const { query, error } = snapshot.context as { query: TaxQuery; error: string | null };
  const next = CHOICES.find((each) => each.from !== query.from)!;
  const events = [
    ...answersOf(snapshot, 'consoleTax.loading', [REPORT, EMPTY], [REFUSED, NETWORK, SIGNED_OUT]),
    { type: 'MONTHS_CHOSEN', ...next },
  ];
  // 'Try again' is on the page only beside a failure's words.
  if (snapshot.matches('failed') && error) events.push({ type: 'RETRY_CLICKED' });
  return events;
}

/** What the last failure should say (the console's words for the network, else the server's); null after a load. */
function expectedError(history: Step[]): string | null {
  let error: string | null = null;
  for (const { event } of history) {
    if (event.type.startsWith('xstate.done.actor.')) error = null;
    const failure = (event as { error?: ApiError }).error;
    if (failure && failure.status !== 401) error = failure.status === 0 ? UNREACHABLE.console : failure.message;
  }
  return error;
}

/** The months of the last choice in `history` (none: the server's default). */
function chosenMonths(history: Step[]): TaxQuery {
  const chosen = history.findLast((step) => step.event.type === 'MONTHS_CHOSEN')?.event as TaxQuery | undefined;
  return { ...(chosen?.from ? { from: chosen.from } : {}), ...(chosen?.to ? { to: chosen.to } : {}) };
}

/** The report the page last loaded. */
function shownReport(history: Step[]): TaxReport | null {
  let report: TaxReport | null = null;
  for (const { event } of history)
    if (event.type.startsWith('xstate.done.actor.')) report = (event as unknown as { output: TaxReport }).output;
  return report;
}

const dollars = (cents: number) => `$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}`;

describePageModel({
  name: 'consoleTax',
  machine: consoleTaxMachine,
  callsByState: { 'consoleTax.loading': 'report' },
  routes: [{ method: 'GET', path: /^\/api\/admin\/tax(\?|$)/, kind: 'report' }],
  eventsAt,
  render() {
    onUnauthorised = vi.fn();
    render(<AdminTax onUnauthorised={onUnauthorised} />);
  },
  act(event) {
    if (event.type === 'MONTHS_CHOSEN') {
      const form = screen.getByRole('form', { name: 'Months' });
      fireEvent.change(within(form).getByLabelText('From'), { target: { value: (event.from as string | undefined) ?? '' } });
      fireEvent.change(within(form).getByLabelText('To'), { target: { value: (event.to as string | undefined) ?? '' } });
      fireEvent.submit(form);
    } else if (event.type === 'RETRY_CLICKED') fireEvent.click(screen.getByRole('button', { name: TAX.tryAgain }));
    else throw new Error(`The model test cannot make ${event.type} happen`);
  },
  expectShows(state, history, requests) {
    expect(screen.getByRole('heading', { name: 'Tax' })).toBeInTheDocument();
    // Every load asks for the months chosen last, nothing else.
    const last = requests.at(-1);
    if (state.matches('loading')) {
      const asked = Object.fromEntries(new URLSearchParams(last!.path.split('?')[1] ?? ''));
      expect(asked).toEqual(chosenMonths(history));
    }
    const report = shownReport(history);
    const loading = state.matches('loading');
    expect(screen.queryByText('Loading…') !== null, 'Loading…').toBe(loading && report === null);
    if (report) {
      const csv = screen.getByRole('link', { name: TAX.csvLink });
      expect(csv).toHaveAttribute('href', TAX.csvHref(report.from, report.to));
      if (report.rows.length === 0) expect(screen.getByText(TAX.none(report.from, report.to))).toBeInTheDocument();
      else {
        const byMonth = within(screen.getByRole('table', { name: TAX.byMonth(report.from, report.to) }))
          .getAllByRole('row')
          .slice(1);
        expect(byMonth).toHaveLength(report.rows.length);
        report.rows.forEach((each, index) => {
          const cells = within(byMonth[index]!).getAllByRole('cell');
          expect(cells[0]).toHaveTextContent(each.state);
          expect(cells[1]).toHaveTextContent(each.month);
          expect(byMonth[index]).toHaveTextContent(dollars(each.taxCollectedCents));
          expect(byMonth[index]).toHaveTextContent(dollars(each.netTaxCents));
        });
        const byState = within(screen.getByRole('table', { name: TAX.byState(report.from, report.to) }))
          .getAllByRole('row')
          .slice(1);
        expect(byState).toHaveLength(report.totals.length);
        expect(byState[0]).toHaveTextContent(dollars(report.totals[0]!.netTaxCents));
      }
    } else expect(screen.queryByRole('link', { name: TAX.csvLink })).toBeNull();
    const error = expectedError(history);
    // A failure's words stay until a load succeeds; 'Try again' only while nothing loads.
    if (error) expect(screen.getByRole('alert')).toHaveTextContent(error);
    else expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByRole('button', { name: TAX.tryAgain }) !== null, TAX.tryAgain).toBe(error !== null && state.matches('failed'));
    expect(screen.getByRole('button', { name: 'Show' })).toHaveProperty('disabled', loading);
    expect(onUnauthorised, 'the console asked to sign in again').toHaveBeenCalledTimes(answeredWith(history, SIGNED_OUT));
  },
});
