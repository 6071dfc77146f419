/**
 * The console's commissions screen against a faked server, through the real client: the overview is read for the
 * payout minimum shown (default $50), each change the owner makes is sent as that change's request, is confirmed
 * in words (role=status) and reloads the overview; a refusal is shown in the server's words, a 401 hands the
 * console its sign-in form.
 */
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CommissionsOverview } from '../../src/contract/commissions';
import { AdminCommissions } from '../../src/views/admin/AdminCommissions';
import { stubFetch, type FakeRoute } from './support/fakeFetch';

const OVERVIEW: CommissionsOverview = {
  defaultRule: '20 % of each invoice',
  minimumCents: 5_000,
  referrers: [
    {
      referrerId: 'ref-1',
      slug: 'mark-lee',
      displayName: 'Mark Lee',
      email: 'mark@example.com',
      rule: '20 % of each invoice',
      ruleIsDefault: true,
      totals: { held: 1_000, payable: 6_000, inPayout: 0, paid: 0, reversed: 0 },
    },
  ],
  batches: [
    {
      id: 7,
      status: 'created',
      reference: null,
      createdAt: '2026-11-20T10:00:00.000Z',
      paidAt: null,
      voidedAt: null,
      totalCents: 6_000,
      payees: [
        { referrerId: 'ref-1', slug: 'mark-lee', displayName: 'Mark Lee', email: 'mark@example.com', amountCents: 6_000, entries: 2 },
      ],
    },
  ],
};

/** What the owner reads once each change is done: the product's words, written here apart from the chart's. */
const DONE = {
  defaultRule: 'The default rule is saved; it applies to invoices paid from now on.',
  referrer: 'The referrer’s email and rule are saved; the rule applies to invoices paid from now on.',
  createBatch: 'Payout batch created: download its file, pay it, then mark it paid.',
  markPaid: 'The batch is marked paid; each referrer gets a mail.',
  voidBatch: 'The batch is voided; its commissions are payable again.',
};

const OK: FakeRoute = () => ({ status: 200, body: {} });

function showCommissions(routes: Record<string, FakeRoute> = {}) {
  const onUnauthorised = vi.fn();
  const fetchMock = stubFetch({
    '/api/admin/commissions': () => ({ status: 200, body: OVERVIEW }),
    '/api/admin/commissions/default-rule': OK,
    '/api/admin/commissions/referrers/ref-1': OK,
    '/api/admin/commissions/batches': OK,
    '/api/admin/commissions/batches/7/paid': OK,
    '/api/admin/commissions/batches/7/void': OK,
    ...routes,
  });
  render(<AdminCommissions onUnauthorised={onUnauthorised} />);
  /** The requests sent so far, as method, address and body. */
  const sent = () =>
    fetchMock.mock.calls.map(([url, init]) => ({
      method: init?.method ?? 'GET',
      url,
      body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
    }));
  const reads = () => sent().filter((request) => request.url.startsWith('/api/admin/commissions?'));
  return { onUnauthorised, sent, reads };
}

/** The change the owner makes, then the words that confirm it once the server has answered. */
async function expectDone(words: string) {
  await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent(words));
  expect(screen.queryByRole('alert')).toBeNull();
}

afterEach(() => vi.unstubAllGlobals());

describe("the console's commissions", () => {
  it('reads the overview for the default payout minimum, and again for the minimum the owner sets', async () => {
    const { reads } = showCommissions();
    const payable = await screen.findByRole('table', { name: "Referrers' commissions" });
    expect(within(payable).getByText('Mark Lee')).toBeInTheDocument();
    expect(reads().map((request) => request.url)).toEqual(['/api/admin/commissions?minimumCents=5000']);

    const minimum = screen.getByLabelText('Minimum payable balance ($)');
    fireEvent.change(minimum, { target: { value: '75.50' } });
    fireEvent.blur(minimum);
    // While the overview is read again, no change can be asked for.
    expect(screen.getByRole('button', { name: 'Create payout batch' })).toBeDisabled();
    await waitFor(() => expect(reads().map((request) => request.url)).toContain('/api/admin/commissions?minimumCents=7550'));
    fireEvent.click(await screen.findByRole('button', { name: 'Create payout batch' }));
    await expectDone(DONE.createBatch);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('sends each change as its request, says it is done, and reads the overview again', async () => {
    const { sent, reads } = showCommissions();
    const rule = await screen.findByRole('form', { name: 'Default rule' });
    fireEvent.change(within(rule).getByLabelText('Percent'), { target: { value: '25' } });
    fireEvent.change(within(rule).getByLabelText('First months only (blank: whole life)'), { target: { value: '12' } });
    fireEvent.click(within(rule).getByRole('button', { name: 'Save default rule' }));
    await expectDone(DONE.defaultRule);

    const settings = screen.getByRole('form', { name: 'Commission settings of Mark Lee' });
    fireEvent.change(within(settings).getByLabelText('Email'), { target: { value: ' mark.lee@example.com ' } });
    fireEvent.click(within(settings).getByRole('button', { name: 'Save' }));
    await expectDone(DONE.referrer);
    fireEvent.change(within(settings).getByLabelText('Rule'), { target: { value: 'default' } });
    fireEvent.click(within(settings).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(sent().filter((request) => request.method === 'PUT')).toHaveLength(3));
    await expectDone(DONE.referrer);

    fireEvent.click(screen.getByRole('button', { name: 'Create payout batch' }));
    await expectDone(DONE.createBatch);

    const batch = screen.getByRole('form', { name: 'Batch 7' });
    fireEvent.change(within(batch).getByLabelText('Payment reference'), { target: { value: 'PAYPAL-123' } });
    fireEvent.click(within(batch).getByRole('button', { name: 'Mark paid' }));
    await expectDone(DONE.markPaid);

    fireEvent.click(within(screen.getByRole('form', { name: 'Batch 7' })).getByRole('button', { name: 'Void' }));
    await expectDone(DONE.voidBatch);
    await waitFor(() => expect(reads()).toHaveLength(7));

    expect(sent().filter((request) => request.method !== 'GET')).toEqual([
      {
        method: 'PUT',
        url: '/api/admin/commissions/default-rule',
        body: { rule: { kind: 'percent', percentBasisPoints: 2_500, months: 12 } },
      },
      // The current rule kept: no rule sent; then the default rule chosen: null.
      { method: 'PUT', url: '/api/admin/commissions/referrers/ref-1', body: { email: 'mark.lee@example.com' } },
      { method: 'PUT', url: '/api/admin/commissions/referrers/ref-1', body: { email: 'mark.lee@example.com', rule: null } },
      { method: 'POST', url: '/api/admin/commissions/batches', body: { minimumCents: 5_000 } },
      { method: 'POST', url: '/api/admin/commissions/batches/7/paid', body: { reference: 'PAYPAL-123' } },
      { method: 'POST', url: '/api/admin/commissions/batches/7/void', body: {} },
    ]);
    // Each change is followed by a fresh read of the overview, for the same minimum.
    expect(new Set(reads().map((request) => request.url))).toEqual(new Set(['/api/admin/commissions?minimumCents=5000']));
  });

  it("shows a refused change in the server's words, keeps the screen, and says nothing is done", async () => {
    showCommissions({
      '/api/admin/commissions/batches': () => ({ status: 409, body: { error: 'No referrer has a payable balance of $50.00 or more.' } }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Create payout batch' }));
    // One change at a time: the buttons are off until the server answers.
    expect(screen.getByRole('button', { name: 'Create payout batch' })).toBeDisabled();
    expect(await screen.findByRole('alert')).toHaveTextContent('No referrer has a payable balance of $50.00 or more.');
    expect(screen.getByRole('status')).toBeEmptyDOMElement();
    expect(screen.getByRole('button', { name: 'Create payout batch' })).toBeEnabled();

    // The next change clears the refusal at once, before the server answers; once done, the next clears its words.
    fireEvent.click(within(screen.getByRole('form', { name: 'Batch 7' })).getByRole('button', { name: 'Void' }));
    expect(screen.queryByRole('alert')).toBeNull();
    await expectDone(DONE.voidBatch);
    fireEvent.click(screen.getByRole('button', { name: 'Save default rule' }));
    expect(screen.getByRole('status')).toBeEmptyDOMElement();
    await expectDone(DONE.defaultRule);
  });

  it('does not say a change is done when the overview cannot be read after it', async () => {
    let reads = 0;
    showCommissions({
      '/api/admin/commissions': () =>
        ++reads === 1 ? { status: 200, body: OVERVIEW } : { status: 400, body: { error: 'The minimum must be a whole number of cents.' } },
    });
    fireEvent.click(within(await screen.findByRole('form', { name: 'Batch 7' })).getByRole('button', { name: 'Void' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The minimum must be a whole number of cents.');
    expect(screen.getByRole('status')).toBeEmptyDOMElement();
  });

  it('offers Try again when the overview cannot be read, and reads it again', async () => {
    let failing = true;
    const { reads } = showCommissions({
      '/api/admin/commissions': () =>
        failing ? { status: 400, body: { error: 'The minimum must be a whole number of cents.' } } : { status: 200, body: OVERVIEW },
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('The minimum must be a whole number of cents.');
    failing = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('table', { name: "Referrers' commissions" })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(reads()).toHaveLength(2);
  });

  it('hands the console its sign-in form when a change is answered 401', async () => {
    const { onUnauthorised } = showCommissions({
      '/api/admin/commissions/default-rule': () => ({ status: 401, body: { error: 'Please sign in to the console.' } }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Save default rule' }));
    await waitFor(() => expect(onUnauthorised).toHaveBeenCalledTimes(1));
  });
});
