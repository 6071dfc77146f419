/**
 * The console's Orders screen and an order's page against a faked server: the buyer search and the "Show unpaid
 * checkouts" toggle sent to the server and carried into the CSV link, the note that unpaid checkouts are left out,
 * and an order's page titled by its buyer, its id still shown.
 */
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { OrderDetail, OrderRow } from '../../src/contract/admin';
import { AdminOrderDetail, AdminOrders, orderTitle } from '../../src/views/admin/AdminOrders';
import { CONSOLE_ORDER, REFUND } from '../model/pageRules';
import { stubFetch } from './support/fakeFetch';

const ORDER: OrderRow = {
  transactionId: 'txn_grace',
  status: 'paid',
  quantity: 2,
  amountCents: 50_000,
  email: 'grace@example.com',
  name: 'Grace Hopper',
  referrer: null,
  affiliateId: 'dr-sample',
  provider: 'sandbox',
  customerId: 'cus_1',
  subscriptionId: 'sub_1',
  createdAt: '2026-11-20T10:00:00.000Z',
  paidAt: '2026-11-20T10:01:00.000Z',
  cancelledAt: null,
  cancelAt: null,
  cancellationReason: null,
  pastDueSince: null,
  refundedCents: 0,
};
const DETAIL: OrderDetail = { order: ORDER, events: [], invoices: [], seats: [], commissions: [], buyerAgreementSignedAt: null };

let fetchMock: ReturnType<typeof stubFetch>;
const requested = () => fetchMock.mock.calls.map(([url]) => String(url)).filter((url) => url.startsWith('/api/admin/orders'));

beforeEach(() => {
  fetchMock = stubFetch({
    '/api/admin/orders': () => ({ status: 200, body: { orders: [ORDER] } }),
    '/api/admin/referrers': () => ({ status: 200, body: { referrers: [] } }),
    '/api/admin/orders/txn_grace': () => ({ status: 200, body: DETAIL }),
  });
});
afterEach(() => vi.unstubAllGlobals());

describe("the console's Orders screen", () => {
  it('searches by buyer and shows unpaid checkouts only when asked, the CSV following the same filter', async () => {
    render(<AdminOrders onUnauthorised={() => undefined} />);
    await screen.findByText('Grace Hopper <grace@example.com>');
    expect(requested()).toEqual(['/api/admin/orders']);
    expect(screen.getByText(/Checkouts nobody paid for are left out/)).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Show unpaid checkouts' })).not.toBeChecked();

    fireEvent.change(screen.getByLabelText('Buyer'), { target: { value: '  grace ' } });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Show unpaid checkouts' }));
    fireEvent.click(screen.getByRole('button', { name: 'Filter' }));
    await act(async () => undefined);
    expect(requested()).toEqual(['/api/admin/orders', '/api/admin/orders?buyer=grace&unpaid=shown']);
    expect(screen.getByRole('link', { name: 'Download these orders as CSV' })).toHaveAttribute(
      'href',
      '/api/admin/orders.csv?buyer=grace&unpaid=shown',
    );
    expect(screen.queryByText(/Checkouts nobody paid for are left out/)).toBeNull();
  });

  it("titles an order's page by its buyer, not its id, and still shows the id", async () => {
    render(<AdminOrderDetail transactionId="txn_grace" onUnauthorised={() => undefined} />);
    expect(await screen.findByRole('heading', { level: 1, name: 'Grace Hopper <grace@example.com>' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: /txn_grace/ })).toBeNull();
    expect(screen.getByRole('table', { name: 'Order' })).toHaveTextContent('txn_grace');
  });

  it("shows a buyer's refund ask in the list and on the order, with the refund form filled in for the amount asked", async () => {
    const paidAt = new Date(Date.now() - 2 * 86_400_000).toISOString();
    const asked: OrderRow = {
      ...ORDER,
      paidAt,
      cancelAt: '2026-12-20T10:01:00.000Z',
      refundAsked: { at: paidAt, amountCents: 50_000 },
    };
    fetchMock = stubFetch({
      '/api/admin/orders': () => ({ status: 200, body: { orders: [asked] } }),
      '/api/admin/referrers': () => ({ status: 200, body: { referrers: [] } }),
      '/api/admin/orders/txn_grace': () => ({
        status: 200,
        body: {
          ...DETAIL,
          order: asked,
          invoices: [{ id: 'in_1', amountCents: 50_000, taxCents: 0, status: 'paid', refundedCents: 0, date: paidAt }],
        } satisfies OrderDetail,
      }),
    });
    const list = render(<AdminOrders onUnauthorised={() => undefined} />);
    expect(await screen.findByText('Refund asked: $500')).toBeInTheDocument();
    list.unmount();
    render(<AdminOrderDetail transactionId="txn_grace" onUnauthorised={() => undefined} />);
    expect(await screen.findByRole('rowheader', { name: 'Refund asked' })).toBeInTheDocument();
    expect(screen.getByRole('table', { name: 'Order' })).toHaveTextContent(
      /\$500 on .* under the 30-day guarantee\. Waiting for your refund/,
    );
    expect(screen.getByText('The buyer asked for $500 back under the 30-day guarantee: that amount is filled in.')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /Amount in dollars/ })).toHaveValue('500.00');
  });

  it("lists a taxed order's invoices with the tax in each apart, and a dash where there is none", async () => {
    fetchMock = stubFetch({
      '/api/admin/orders/txn_grace': () => ({
        status: 200,
        body: {
          ...DETAIL,
          invoices: [
            { id: 'in_renewal', amountCents: 52_356, taxCents: 2_356, status: 'paid', refundedCents: 0, date: '2026-12-20T10:01:00.000Z' },
            { id: 'in_credit', amountCents: 0, taxCents: 0, status: 'paid', refundedCents: 0, date: '2026-12-01T10:01:00.000Z' },
          ],
        } satisfies OrderDetail,
      }),
    });
    render(<AdminOrderDetail transactionId="txn_grace" onUnauthorised={() => undefined} />);
    const table = await screen.findByRole('table', { name: 'Invoices' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Date', 'Amount', 'Tax', 'Status', 'Invoice']);
    const [taxed, untaxed] = within(table).getAllByRole('row').slice(1);
    expect(
      within(taxed!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual([expect.any(String), '$523.56', '$23.56', 'Paid', 'in_renewal']);
    expect(within(untaxed!).getAllByRole('cell')[2]).toHaveTextContent('—');
  });

  it("names a taxed order's refund with its split, and an untaxed one's as the amount alone", async () => {
    for (const [refunded, words] of [
      [{ refundedCents: 26_178, refundedTaxCents: 1_178 }, '$261.78: $250 before tax and $11.78 tax'],
      [{ refundedCents: 50_000, refundedTaxCents: 0 }, '$500'],
    ] as const) {
      fetchMock = stubFetch({
        '/api/admin/orders/txn_grace': () => ({ status: 200, body: { ...DETAIL, order: { ...ORDER, status: 'cancelled', ...refunded } } }),
      });
      const page = render(<AdminOrderDetail transactionId="txn_grace" onUnauthorised={() => undefined} />);
      const row = (await screen.findByRole('rowheader', { name: 'Refunded' })).closest('tr')!;
      expect(row.querySelector('td')).toHaveTextContent(new RegExp(`^${words.replace(/[$.]/g, '\\$&')}$`));
      page.unmount();
    }
  });

  it('names a checkout without a buyer for what it is', () => {
    expect(orderTitle({ name: null, email: null })).toBe('Unpaid checkout (no buyer given)');
    expect(orderTitle({ name: null, email: 'grace@example.com' })).toBe('grace@example.com');
  });

  it('sends each action for this order, confirms the ones that end a subscription first, and says what was done, each in its words', async () => {
    const actions: unknown[] = [];
    fetchMock = stubFetch({
      '/api/admin/orders/txn_grace': () => ({ status: 200, body: DETAIL }),
      '/api/admin/orders/txn_grace/actions': (body) => {
        actions.push(body);
        return (body as { action: string }).action === 'send_sign_in_link' && actions.length === 2
          ? { status: 409, body: { error: 'This order has no manage page yet.' } }
          : { status: 200, body: DETAIL };
      },
    });
    render(<AdminOrderDetail transactionId="txn_grace" onUnauthorised={() => undefined} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Re-send the confirmation mail' }));
    expect(await screen.findByText('The confirmation mail is on its way to grace@example.com again.')).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Mail a sign-in link' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This order has no manage page yet.');
    expect(screen.getByRole('status')).toBeEmptyDOMElement();
    fireEvent.click(screen.getByRole('button', { name: 'Mail a sign-in link' }));
    expect(await screen.findByText('A sign-in link to the manage page is on its way to grace@example.com.')).toBeInTheDocument();

    // Ending it asks once more; keeping it sends nothing.
    fireEvent.click(screen.getByRole('button', { name: 'Cancel now…' }));
    expect(screen.queryByRole('alert')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Keep the subscription' }));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel at the end of the period…' }));
    expect(screen.getByText(/End this subscription at the end of its paid period\?/)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel at period end' }));
    expect(await screen.findByText('The subscription will end at the end of the paid period; the buyer is mailed.')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel now…' }));
    expect(screen.getByText(/End this subscription now, without a refund\?/)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'End it now' }));
    expect(await screen.findByText('The subscription has ended now.')).toBeInTheDocument();
    expect(actions).toEqual([
      { action: 'resend_confirmation' },
      { action: 'send_sign_in_link' },
      { action: 'send_sign_in_link' },
      { action: 'cancel_at_period_end' },
      { action: 'cancel_now' },
    ]);
  });

  it('names the buyer in words when the order has no email on record', async () => {
    const noEmail: OrderDetail = { ...DETAIL, order: { ...ORDER, email: null } };
    fetchMock = stubFetch({
      '/api/admin/orders/txn_grace': () => ({ status: 200, body: noEmail }),
      '/api/admin/orders/txn_grace/actions': () => ({ status: 200, body: noEmail }),
    });
    render(<AdminOrderDetail transactionId="txn_grace" onUnauthorised={() => undefined} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Re-send the confirmation mail' }));
    expect(await screen.findByRole('status')).toHaveTextContent(CONSOLE_ORDER.done.resend_confirmation('the buyer'));
  });

  it('shows the order once it can be read after a refusal, without the refusal', async () => {
    let reads = 0;
    fetchMock = stubFetch({
      '/api/admin/orders/txn_grace': () =>
        ++reads === 1 ? { status: 404, body: { error: 'No order txn_grace.' } } : { status: 200, body: DETAIL },
    });
    render(<AdminOrderDetail transactionId="txn_grace" onUnauthorised={() => undefined} />);
    expect(await screen.findByRole('alert')).toHaveTextContent('No order txn_grace.');
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Grace Hopper <grace@example.com>' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('refunds this order at its own address, says so, and reads the order again', async () => {
    const paidAt = new Date(Date.now() - 2 * 86_400_000).toISOString();
    const paid: OrderDetail = {
      ...DETAIL,
      order: { ...ORDER, paidAt },
      invoices: [{ id: 'in_1', amountCents: 50_000, taxCents: 0, status: 'paid', refundedCents: 0, date: paidAt }],
    };
    const refunds: unknown[] = [];
    fetchMock = stubFetch({
      '/api/admin/orders/txn_grace': () => ({ status: 200, body: paid }),
      '/api/admin/orders/txn_grace/refund': (body) => {
        refunds.push(body);
        return { status: 200, body: paid };
      },
    });
    render(<AdminOrderDetail transactionId="txn_grace" onUnauthorised={() => undefined} />);
    fireEvent.click(await screen.findByRole('button', { name: REFUND.refund }));
    fireEvent.click(await screen.findByRole('button', { name: REFUND.confirm }));
    expect(await screen.findByText(CONSOLE_ORDER.refunded)).toBeInTheDocument();
    expect(refunds).toHaveLength(1);
    await waitFor(() =>
      expect(requested()).toEqual(['/api/admin/orders/txn_grace', '/api/admin/orders/txn_grace/refund', '/api/admin/orders/txn_grace']),
    );
  });
});
