/**
 * The manage page (/account) on its statechart (src/machines/accountMachine.ts), with the calls faked: the page
 * renders the snapshot and sends events; every change is confirmed in words; new credentials are asked for once
 * more; the typed card leaves the fields; a session that ended asks for a link again.
 */
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { ApiError } from '../../src/api/client';
import type { AccountSessionResponse, AccountView, NewCredentials, SeatChangePreview } from '../../src/contract/account';
import { accountMachine, type PendingChange, type PortalFlow } from '../../src/machines/accountMachine';
import { AccountPage } from '../../src/views/account/AccountPage';
import { taxCents } from '../../src/domain/tax';
import { stubFetch } from './support/fakeFetch';
import { deferred } from './support/timers';

const ACCOUNT: AccountView = {
  email: 'ada@example.com',
  name: 'Ada Palmer',
  status: 'paid',
  seats: 1,
  monthlyTotalCents: 50_000,
  monthlyTaxCents: 0,
  currentPeriodEnd: '2026-12-24T09:00:00.000Z',
  cancelAt: null,
  cardLast4: '4242',
  taxState: null,
  invoices: [
    { id: 'in_1', amountCents: 50_000, taxCents: 0, status: 'paid', refundedCents: 0, date: '2026-11-24T09:00:00.000Z' },
    { id: 'in_2', amountCents: 50_000, taxCents: 0, status: 'refunded', refundedCents: 50_000, date: '2026-12-24T09:00:00.000Z' },
    { id: 'in_3', amountCents: 25_000, taxCents: 0, status: 'partially_refunded', refundedCents: 10_000, date: '2026-12-25T09:00:00.000Z' },
  ],
  managedByProvider: false,
  guaranteeEndsAt: '2026-12-24T09:00:00.000Z',
  refundableCents: 65_000,
  refundAsked: null,
};

interface Calls {
  changes: unknown[];
  credentials: number;
  copied: string[];
}

function machineWith(answers: {
  view?: () => Promise<AccountView | null>;
  change?: (input: PendingChange) => Promise<AccountView | { url: string }>;
  open?: () => Promise<AccountSessionResponse>;
  preview?: (input: { quantity: number }) => Promise<SeatChangePreview>;
  link?: () => Promise<{ message: string }>;
  credentials?: () => Promise<NewCredentials>;
  copy?: () => Promise<void>;
  signOut?: () => Promise<void>;
}) {
  const calls: Calls = { changes: [], credentials: 0, copied: [] };
  const machine = accountMachine.provide({
    actors: {
      loadAccount: fromPromise<AccountView | null>(answers.view ?? (async () => ACCOUNT)),
      openSession: fromPromise(answers.open ?? (async () => ({ account: ACCOUNT, agreementUrl: null }))),
      requestLink: fromPromise(
        answers.link ?? (async () => ({ message: 'If that email has a subscription, a link to manage it is on its way.' })),
      ),
      applyChange: fromPromise(async ({ input }: { input: PendingChange }) => {
        calls.changes.push(input);
        return (answers.change ?? (async () => ACCOUNT))(input);
      }),
      previewSeats: fromPromise(async ({ input }: { input: { quantity: number } }) =>
        (answers.preview ?? (async ({ quantity }) => previewOf(quantity, 25_000)))(input),
      ),
      issueCredentials: fromPromise(async (): Promise<NewCredentials> => {
        calls.credentials += 1;
        return (answers.credentials ?? (async () => ({ email: 'ada@example.com', password: 'New-Password-0123' })))();
      }),
      signOut: fromPromise<void>(answers.signOut ?? (async () => undefined)),
      copyToClipboard: fromPromise(async ({ input }: { input: { text: string } }) => {
        calls.copied.push(input.text);
        await (answers.copy ?? (async () => undefined))();
      }),
    },
  });
  return { machine, calls };
}

const flush = () => act(async () => undefined);

/** Whether each named button is disabled. */
const disabled = (...names: string[]) => names.map((name) => screen.getByRole<HTMLButtonElement>('button', { name }).disabled);

/** A seat change costing `dueNowCents` now. */
const previewOf = (quantity: number, dueNowCents: number, creditCents = 0): SeatChangePreview => ({
  quantity,
  amountDueNowCents: dueNowCents,
  taxDueNowCents: 0,
  creditCents,
  monthlyTotalCents: quantity <= 2 ? 50_000 : (quantity - 1) * 50_000,
  monthlyTaxCents: 0,
  nextChargeDate: '2026-12-24T09:00:00.000Z',
  prorationDate: 1_795_000_000,
});

afterEach(() => window.history.replaceState(null, '', '/'));

describe('the manage page', () => {
  it('without a session asks for a link, and says it is on its way', async () => {
    const { machine } = machineWith({ view: async () => null });
    render(<AccountPage machine={machine} />);
    await flush();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('heading', { name: 'Manage your subscription' })).toHaveFocus();
    fireEvent.change(screen.getByLabelText('Email Address'), { target: { value: 'ada@example.com' } });
    fireEvent.submit(screen.getByRole('form', { name: 'Email me a link' }));
    await flush();
    expect(screen.getByRole('status').textContent).toMatch(/on its way/);
  });

  it('opens the session from the link once (the token leaves the address) and confirms a seat change in words', async () => {
    window.history.replaceState(null, '', '/account?token=link-token');
    const { machine, calls } = machineWith({ change: async () => ({ ...ACCOUNT, seats: 3, monthlyTotalCents: 100_000 }) });
    render(<AccountPage machine={machine} />);
    await flush();
    expect(window.location.search).toBe('');
    fireEvent.change(screen.getByLabelText('Seats'), { target: { value: '3' } });
    expect(screen.getByText(/New monthly total: \$1,000\/month \(now \$500\)/)).toBeTruthy();
    fireEvent.submit(screen.getByRole('form', { name: 'Change seats' }));
    await flush();
    // Nothing changes before the buyer has seen what it costs now.
    expect(calls.changes).toEqual([]);
    expect(screen.getByRole('group', { name: 'Confirm seat change' }).textContent).toBe(
      'Change to 3 seats: $250 is charged now to your card ending in 4242 for the rest of this period, then $1,000/month from December 24, 2026.Pay $250 and change seats Keep my seats',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Pay $250 and change seats' }));
    await flush();
    expect(calls.changes).toEqual([{ kind: 'seats', quantity: 3, prorationDate: 1_795_000_000 }]);
    expect(
      screen
        .getByText('Your subscription now has 3 seats: $1,000/month. We charged $250 for the rest of this period.')
        .getAttribute('role'),
    ).toBe('status');
  });

  it('a taxed subscription: the monthly total with its tax apart, the seat quote with the tax now and each month, confirmed with tax', async () => {
    // Honolulu at 4.712 % (decision 0070): the fixture's amounts from the same rule the server uses.
    const rate = 47_120;
    const taxed: AccountView = { ...ACCOUNT, taxState: 'HI', monthlyTaxCents: taxCents(50_000, rate) };
    const prorationCents = 25_000;
    const quote: SeatChangePreview = {
      ...previewOf(3, prorationCents + taxCents(prorationCents, rate)),
      taxDueNowCents: taxCents(prorationCents, rate),
      monthlyTaxCents: taxCents(100_000, rate),
    };
    const after: AccountView = { ...taxed, seats: 3, monthlyTotalCents: 100_000, monthlyTaxCents: taxCents(100_000, rate) };
    const { machine, calls } = machineWith({ view: async () => taxed, preview: async () => quote, change: async () => after });
    render(<AccountPage machine={machine} />);
    await flush();
    const monthly = screen.getByRole('row', { name: /Monthly total/ });
    expect(monthly.textContent).toBe('Monthly total$523.56/monthSeats $500 · Hawaii general excise tax $23.56');
    const taxLine = within(monthly).getByText('Seats $500 · Hawaii general excise tax $23.56');
    expect(getComputedStyle(taxLine).display).toBe('block');
    expect(screen.getByText('$523.56/month with Hawaii general excise tax now.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Seats'), { target: { value: '3' } });
    expect(
      screen.getByText(
        'New monthly total: $1,000/month plus Hawaii general excise tax (now $523.56/month with Hawaii general excise tax). ' +
          'Seats added are charged now for the rest of this period; you see the amount and its tax before you confirm.',
      ),
    ).toBeTruthy();
    fireEvent.submit(screen.getByRole('form', { name: 'Change seats' }));
    await flush();
    expect(calls.changes).toEqual([]);
    expect(screen.getByRole('group', { name: 'Confirm seat change' }).textContent).toBe(
      'Change to 3 seats: $261.78 (incl. Hawaii general excise tax $11.78) is charged now to your card ending in 4242 for the rest of ' +
        'this period, then $1,047.12/month (seats $1,000 + Hawaii general excise tax $47.12) from December 24, 2026.' +
        'Pay $261.78 and change seats Keep my seats',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Pay $261.78 and change seats' }));
    await flush();
    expect(calls.changes).toEqual([{ kind: 'seats', quantity: 3, prorationDate: 1_795_000_000 }]);
    expect(
      screen.getByText(
        'Your subscription now has 3 seats: $1,047.12/month with Hawaii general excise tax. We charged $261.78 for the rest of this period.',
      ),
    ).toHaveAttribute('role', 'status');
    expect(screen.getByRole('row', { name: /Monthly total/ }).textContent).toBe(
      'Monthly total$1,047.12/monthSeats $1,000 · Hawaii general excise tax $47.12',
    );
  });

  it('refuses more seats than the server sells at the field, in words, and asks nothing', async () => {
    document.body.insertAdjacentHTML('beforeend', '<script id="checkout-limits" type="application/json">{"maxSeats":20}</script>');
    try {
      const previews: number[] = [];
      const { machine } = machineWith({
        preview: async ({ quantity }) => {
          previews.push(quantity);
          return previewOf(quantity, 0, 16_667);
        },
      });
      render(<AccountPage machine={machine} />);
      await flush();
      const field = screen.getByLabelText('Seats');
      expect(field.getAttribute('max')).toBe('20');
      fireEvent.change(field, { target: { value: '21' } });
      expect(screen.getByRole('alert').textContent).toBe('At most 20 seats can be bought here. For a larger team, please contact us.');
      expect(field.getAttribute('aria-invalid')).toBe('true');
      expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Change seats' }).disabled).toBe(true);
      fireEvent.submit(screen.getByRole('form', { name: 'Change seats' }));
      await flush();
      expect(previews).toEqual([]);
      fireEvent.change(field, { target: { value: '20' } });
      expect(screen.queryByRole('alert')).toBeNull();
      expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Change seats' }).disabled).toBe(false);
    } finally {
      document.getElementById('checkout-limits')?.remove();
    }
  });

  it('keeping the seats after the preview calls nothing; a declined charge says the seats did not change', async () => {
    const declined =
      'Your card was declined, so your seats were not changed and nothing was charged. Please put on a new card and try again.';
    const { machine, calls } = machineWith({
      preview: async ({ quantity }) => previewOf(quantity, 0, 16_667),
      change: async () => {
        throw new ApiError(declined, 402);
      },
    });
    render(<AccountPage machine={machine} />);
    await flush();
    fireEvent.change(screen.getByLabelText('Seats'), { target: { value: '3' } });
    fireEvent.submit(screen.getByRole('form', { name: 'Change seats' }));
    await flush();
    expect(screen.getByRole('group', { name: 'Confirm seat change' }).textContent).toMatch(
      /^Change to 3 seats: \$166\.67 for the unused time comes off your next invoice, then \$1,000\/month from December 24, 2026\./,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Keep my seats' }));
    await flush();
    expect(calls.changes).toEqual([]);
    expect(screen.queryByRole('group', { name: 'Confirm seat change' })).toBeNull();
    fireEvent.submit(screen.getByRole('form', { name: 'Change seats' }));
    await flush();
    fireEvent.click(screen.getByRole('button', { name: 'Confirm seat change' }));
    await flush();
    expect(calls.changes).toEqual([{ kind: 'seats', quantity: 3, prorationDate: 1_795_000_000 }]);
    expect(screen.getByRole('alert')).toHaveTextContent(declined);
    expect(within(screen.getByRole('table', { name: 'Subscription' })).getByText('1')).toBeTruthy();
  });

  it("an agreement's link sends the buyer on to the agreement the server names, without showing the subscription", async () => {
    window.history.replaceState(null, '', '/account?token=agreement-token');
    const visited: string[] = [];
    const { machine } = machineWith({ open: async () => ({ account: ACCOUNT, agreementUrl: 'https://agreement.example/sign?token=a1' }) });
    render(<AccountPage machine={machine} redirect={(url) => visited.push(url)} />);
    await flush();
    expect(visited).toEqual(['https://agreement.example/sign?token=a1']);
    expect(screen.getByText('Loading…')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Your subscription' })).toBeNull();
  });

  it('asks before replacing the password, then shows the new one once; keeping it calls nothing', async () => {
    const { machine, calls } = machineWith({});
    render(<AccountPage machine={machine} />);
    await flush();
    fireEvent.click(screen.getByRole('button', { name: 'Get new login credentials' }));
    expect(screen.getByRole('alertdialog', { name: 'Replace your password?' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Keep my password' }));
    expect(calls.credentials).toBe(0);
    fireEvent.click(screen.getByRole('button', { name: 'Get new login credentials' }));
    fireEvent.click(screen.getByRole('button', { name: 'Yes, replace my password' }));
    await flush();
    expect(calls.credentials).toBe(1);
    expect(screen.getByText('New-Password-0123')).toBeTruthy();
    expect(screen.getByText('New login credentials: save them now, the password is shown only once.')).toHaveAttribute('role', 'status');
    fireEvent.click(screen.getByRole('button', { name: 'Copy password' }));
    await flush();
    expect(calls.copied).toEqual(['New-Password-0123']);
    expect(screen.getByText('Password copied to clipboard.').getAttribute('role')).toBe('status');
    fireEvent.click(screen.getByRole('button', { name: 'Copy email' }));
    await flush();
    expect(calls.copied).toEqual(['New-Password-0123', 'ada@example.com']);
    expect(screen.getByText('Email copied to clipboard.')).toHaveAttribute('role', 'status');
    expect(screen.getByText('New-Password-0123')).toBeTruthy();
  });

  it('a copy the browser refuses says so at the top of the page, with what to do instead', async () => {
    const { machine } = machineWith({
      copy: () => Promise.reject(new Error('denied')),
    });
    render(<AccountPage machine={machine} />);
    await flush();
    fireEvent.click(screen.getByRole('button', { name: 'Get new login credentials' }));
    fireEvent.click(screen.getByRole('button', { name: 'Yes, replace my password' }));
    await flush();
    fireEvent.click(screen.getByRole('button', { name: 'Copy password' }));
    await flush();
    expect(screen.getByRole('alert').textContent).toBe('Could not copy to the clipboard. Please select the text and copy it.');
    expect(screen.getByText('New-Password-0123')).toBeTruthy();
  });

  it('asking for new credentials clears the last refusal and the last confirmation', async () => {
    let answer: () => Promise<AccountView> = () => Promise.reject(new ApiError('Your card was declined.', 402));
    const { machine } = machineWith({ change: () => answer() });
    render(<AccountPage machine={machine} />);
    await flush();
    fireEvent.submit(screen.getByRole('form', { name: 'Update card' }));
    await flush();
    expect(screen.getByRole('alert').textContent).toBe('Your card was declined.');
    fireEvent.click(screen.getByRole('button', { name: 'Get new login credentials' }));
    expect(screen.queryByRole('alert')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Keep my password' }));

    answer = async () => ({ ...ACCOUNT, cardLast4: '4444' });
    fireEvent.submit(screen.getByRole('form', { name: 'Update card' }));
    await flush();
    expect(screen.getByText('Your new card ending in 4444 is saved.')).toHaveAttribute('role', 'status');
    fireEvent.click(screen.getByRole('button', { name: 'Get new login credentials' }));
    expect(screen.queryByText('Your new card ending in 4444 is saved.')).toBeNull();
  });

  it('confirms fewer seats with the credit for the next invoice, and a change that costs nothing now without one', async () => {
    const three: AccountView = { ...ACCOUNT, seats: 3, monthlyTotalCents: 100_000 };
    const { machine, calls } = machineWith({
      view: async () => three,
      preview: async ({ quantity }) => (quantity === 1 ? previewOf(1, 0, 16_667) : previewOf(quantity, 0, 0)),
      change: async (input) => {
        const seats = input.kind === 'seats' ? input.quantity : 3;
        return { ...ACCOUNT, seats, monthlyTotalCents: 50_000 };
      },
    });
    render(<AccountPage machine={machine} />);
    await flush();
    fireEvent.change(screen.getByLabelText('Seats'), { target: { value: '1' } });
    fireEvent.submit(screen.getByRole('form', { name: 'Change seats' }));
    await flush();
    fireEvent.click(screen.getByRole('button', { name: 'Confirm seat change' }));
    await flush();
    expect(screen.getByText('Your subscription now has 1 seat: $500/month. $166.67 comes off your next invoice.')).toHaveAttribute(
      'role',
      'status',
    );
    fireEvent.change(screen.getByLabelText('Seats'), { target: { value: '2' } });
    fireEvent.submit(screen.getByRole('form', { name: 'Change seats' }));
    await flush();
    expect(screen.getByRole('group', { name: 'Confirm seat change' }).textContent).toMatch(/^Change to 2 seats: Nothing is charged now,/);
    fireEvent.click(screen.getByRole('button', { name: 'Confirm seat change' }));
    await flush();
    expect(screen.getByText('Your subscription now has 2 seats: $500/month.')).toHaveAttribute('role', 'status');
    expect(calls.changes).toEqual([
      { kind: 'seats', quantity: 1, prorationDate: 1_795_000_000 },
      { kind: 'seats', quantity: 2, prorationDate: 1_795_000_000 },
    ]);
  });

  it('a cancel the server answers without its end day says access lasts to the end of the period', async () => {
    const { machine } = machineWith({ change: async () => ({ ...ACCOUNT, cancelAt: null }) });
    render(<AccountPage machine={machine} />);
    await flush();
    fireEvent.submit(screen.getByRole('form', { name: 'Cancel subscription' }));
    fireEvent.click(screen.getByRole('button', { name: 'Yes, cancel my subscription' }));
    await flush();
    expect(
      screen.getByText('Your subscription is cancelled. You keep access until the end of the period and will not be charged again.'),
    ).toHaveAttribute('role', 'status');
  });

  it('confirms the refund asked for with the amount the server recorded, or what was refundable when it names none', async () => {
    vi.useFakeTimers({ now: Date.parse('2026-12-10T12:00:00.000Z'), toFake: ['Date'] });
    onTestFinished(() => void vi.useRealTimers());
    const cancelled: AccountView = { ...ACCOUNT, cancelAt: ACCOUNT.currentPeriodEnd };
    const answers: AccountView[] = [
      { ...cancelled, refundableCents: 0, refundAsked: { at: '2026-12-10T12:00:00.000Z', amountCents: 40_000 } },
      { ...cancelled, refundableCents: 30_000, refundAsked: null },
    ];
    for (const [answer, amount] of [
      [answers[0]!, '$400'],
      [answers[1]!, '$300'],
    ] as const) {
      const { machine } = machineWith({ view: async () => cancelled, change: async () => answer });
      render(<AccountPage machine={machine} />);
      await flush();
      fireEvent.click(screen.getByRole('button', { name: 'Ask for your refund' }));
      fireEvent.click(screen.getByRole('button', { name: 'Yes, ask for my $650 back' }));
      await flush();
      expect(
        screen.getByText(
          `You asked for your refund of ${amount}. We mailed you a receipt. It goes back to the card you paid with, and you get a mail when it is made; your subscription is cancelled meanwhile.`,
        ),
      ).toHaveAttribute('role', 'status');
      cleanup();
    }
  });

  it('lists each invoice with its status in words: refunded in full or in part, with the amount', async () => {
    const { machine } = machineWith({});
    render(<AccountPage machine={machine} />);
    await flush();
    const rows = within(screen.getByRole('table', { name: 'Invoices' }))
      .getAllByRole('row')
      .slice(1)
      .map((row) => row.textContent);
    expect(rows).toEqual([
      'November 24, 2026$500Paid',
      'December 24, 2026$500Refunded ($500)',
      'December 25, 2026$250Partly refunded ($100 of $250)',
    ]);
  });

  it('names the tax of a taxed invoice on a line of its own under its amount, and none for an untaxed one', async () => {
    const honolulu: AccountView = {
      ...ACCOUNT,
      taxState: 'HI',
      invoices: [
        { id: 'in_1', amountCents: 52_356, taxCents: 2_356, status: 'paid', refundedCents: 0, date: '2026-11-24T09:00:00.000Z' },
        { id: 'in_2', amountCents: 25_000, taxCents: 0, status: 'paid', refundedCents: 0, date: '2026-11-25T09:00:00.000Z' },
      ],
    };
    const { machine } = machineWith({ view: async () => honolulu });
    render(<AccountPage machine={machine} />);
    await flush();
    const rows = within(screen.getByRole('table', { name: 'Invoices' }))
      .getAllByRole('row')
      .slice(1);
    expect(rows.map((row) => row.textContent)).toEqual([
      'November 24, 2026$523.56incl. Hawaii general excise tax $23.56Paid',
      'November 25, 2026$250Paid',
    ]);
    // The tax is a line of its own in the amount's cell, not run into the amount.
    const taxLine = within(rows[0]!).getByText('incl. Hawaii general excise tax $23.56');
    expect(taxLine.tagName).toBe('SPAN');
    expect(getComputedStyle(taxLine).display).toBe('block');
  });

  it('confirms a cancellation and its undo in words, with the status in words', async () => {
    // More than 30 days after the first payment (November 24, 2026).
    vi.useFakeTimers({ now: Date.parse('2027-01-10T12:00:00.000Z'), toFake: ['Date'] });
    onTestFinished(() => void vi.useRealTimers());
    const cancelled = { ...ACCOUNT, cancelAt: '2026-12-24T09:00:00.000Z' };
    let next: AccountView = cancelled;
    const { machine } = machineWith({ change: async () => next });
    render(<AccountPage machine={machine} />);
    await flush();
    expect(screen.getByRole('heading', { name: 'Your subscription' })).toHaveFocus();
    const table = screen.getByRole('table', { name: 'Subscription' });
    expect(within(table).getByRole('status').textContent).toBe('Active');
    fireEvent.submit(screen.getByRole('form', { name: 'Cancel subscription' }));
    await flush();
    // Asked once more: the first payment was more than 30 days ago, so the words say when access ends.
    expect(screen.getByRole('alertdialog', { name: 'Cancel your subscription?' })).toHaveAccessibleDescription(
      'You keep access until December 24, 2026 and will not be charged again; you can undo this until then.',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Yes, cancel my subscription' }));
    await flush();
    expect(
      screen
        .getByText('Your subscription is cancelled. You keep access until December 24, 2026 and will not be charged again.')
        .getAttribute('role'),
    ).toBe('status');
    expect(within(table).getByRole('status').textContent).toBe('Cancelled at period end: ends on December 24, 2026');
    next = ACCOUNT;
    fireEvent.click(screen.getByRole('button', { name: 'Undo cancellation' }));
    await flush();
    expect(screen.getByText('Your cancellation is undone: your subscription continues and renews as before.')).toBeTruthy();
  });

  it('within 30 days of the first payment, the cancel step names the money-back guarantee and what would come back; keeping changes nothing', async () => {
    vi.useFakeTimers({ now: Date.parse('2026-12-10T12:00:00.000Z'), toFake: ['Date'] });
    onTestFinished(() => void vi.useRealTimers());
    const { machine, calls } = machineWith({ change: async () => ({ ...ACCOUNT, cancelAt: ACCOUNT.currentPeriodEnd }) });
    render(<AccountPage machine={machine} />);
    await flush();
    fireEvent.change(screen.getByLabelText('Why are you leaving? (optional)'), { target: { value: ' Too busy ' } });
    fireEvent.submit(screen.getByRole('form', { name: 'Cancel subscription' }));
    await flush();
    const dialog = screen.getByRole('alertdialog', { name: 'Cancel your subscription?' });
    expect(dialog).toHaveAccessibleDescription(
      'You are within the 30-day money-back guarantee, until December 24, 2026: you can have $650 back, everything you paid. Cancelling alone stops the renewal but refunds nothing; “Cancel and ask for my $650 back” asks for the refund too. You keep access until December 24, 2026 and will not be charged again; you can undo this until then.',
    );
    expect(calls.changes).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Keep my subscription' }));
    await flush();
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(calls.changes).toEqual([]);
    expect(screen.getByLabelText('Why are you leaving? (optional)')).toHaveValue('Too busy');
    fireEvent.submit(screen.getByRole('form', { name: 'Cancel subscription' }));
    fireEvent.click(screen.getByRole('button', { name: 'Yes, cancel my subscription' }));
    await flush();
    expect(calls.changes).toEqual([{ kind: 'cancel', reason: 'Too busy' }]);
  });

  it('within the guarantee, cancels and asks for the refund in one step, with the reason; the ask is then named, without an undo', async () => {
    vi.useFakeTimers({ now: Date.parse('2026-12-10T12:00:00.000Z'), toFake: ['Date'] });
    onTestFinished(() => void vi.useRealTimers());
    const asked: AccountView = {
      ...ACCOUNT,
      cancelAt: ACCOUNT.currentPeriodEnd,
      refundAsked: { at: '2026-12-10T12:00:00.000Z', amountCents: 65_000 },
    };
    const { machine, calls } = machineWith({ change: async () => asked });
    render(<AccountPage machine={machine} />);
    await flush();
    fireEvent.change(screen.getByLabelText('Why are you leaving? (optional)'), { target: { value: 'Not for us' } });
    fireEvent.submit(screen.getByRole('form', { name: 'Cancel subscription' }));
    await flush();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel and ask for my $650 back' }));
    await flush();
    expect(calls.changes).toEqual([{ kind: 'refund', reason: 'Not for us' }]);
    expect(
      screen
        .getByText(
          'You asked for your refund of $650. We mailed you a receipt. It goes back to the card you paid with, and you get a mail when it is made; your subscription is cancelled meanwhile.',
        )
        .getAttribute('role'),
    ).toBe('status');
    expect(screen.getByText(/^You asked for your refund of \$650 on December 10, 2026\./)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Undo cancellation' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Ask for your refund' })).toBeNull();
  });

  it('after a cancel within the guarantee, asks for the refund on its own, asked once more with the amount; after it, offers none', async () => {
    vi.useFakeTimers({ now: Date.parse('2026-12-10T12:00:00.000Z'), toFake: ['Date'] });
    onTestFinished(() => void vi.useRealTimers());
    const cancelled: AccountView = { ...ACCOUNT, cancelAt: ACCOUNT.currentPeriodEnd };
    const { machine, calls } = machineWith({
      view: async () => cancelled,
      change: () => Promise.reject(new ApiError('Everything you paid has already been refunded.', 409)),
    });
    render(<AccountPage machine={machine} />);
    await flush();
    fireEvent.click(screen.getByRole('button', { name: 'Ask for your refund' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Ask for your refund?' });
    expect(dialog).toHaveAccessibleDescription(
      "We refund $650, everything you paid, to the card you paid with, under the 30-day money-back guarantee. Your subscription and your team's access end when the refund is made; you get a mail then.",
    );
    fireEvent.click(screen.getByRole('button', { name: 'Not now' }));
    expect(calls.changes).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Ask for your refund' }));
    fireEvent.click(screen.getByRole('button', { name: 'Yes, ask for my $650 back' }));
    await flush();
    expect(calls.changes).toEqual([{ kind: 'refund', reason: '' }]);
    // The server's refusal, in its words, at the top of the page.
    expect(screen.getByRole('alert')).toHaveTextContent('Everything you paid has already been refunded.');
  });

  it('after the guarantee, offers no refund: not in the cancel step, not after a cancel', async () => {
    vi.useFakeTimers({ now: Date.parse('2027-01-10T12:00:00.000Z'), toFake: ['Date'] });
    onTestFinished(() => void vi.useRealTimers());
    const { machine } = machineWith({ view: async () => ({ ...ACCOUNT, cancelAt: ACCOUNT.currentPeriodEnd }) });
    render(<AccountPage machine={machine} />);
    await flush();
    expect(screen.getByRole('button', { name: 'Undo cancellation' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Ask for your refund' })).toBeNull();
  });

  it('past due: says so in words and leads with the card; a saved card is confirmed', async () => {
    const pastDue = { ...ACCOUNT, status: 'past_due' };
    const { machine } = machineWith({ view: async () => pastDue, change: async () => ({ ...ACCOUNT, cardLast4: '4444' }) });
    render(<AccountPage machine={machine} />);
    await flush();
    expect(within(screen.getByRole('table', { name: 'Subscription' })).getByRole('status').textContent).toBe(
      'Past due: your last payment failed. Please update your card.',
    );
    const sections = screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent);
    expect(sections.slice(0, 2)).toEqual(['Card', 'Cancel']);
    expect(sections).not.toContain('Seats');
    fireEvent.change(screen.getByLabelText('Card number'), { target: { value: '4242 4242 4242 4242' } });
    fireEvent.submit(screen.getByRole('form', { name: 'Update card' }));
    await flush();
    expect(screen.getByText('Your new card ending in 4444 is saved.')).toBeTruthy();
  });

  it('a card saved while the payment still fails says so; a card the provider cannot read back is named by a dash', async () => {
    let next: AccountView = { ...ACCOUNT, status: 'past_due', cardLast4: '4444' };
    const { machine } = machineWith({ view: async () => ({ ...ACCOUNT, status: 'past_due' }), change: async () => next });
    render(<AccountPage machine={machine} />);
    await flush();
    const saveCard = async (answer: AccountView) => {
      next = answer;
      fireEvent.submit(screen.getByRole('form', { name: 'Update card' }));
      await flush();
    };
    await saveCard({ ...ACCOUNT, status: 'past_due', cardLast4: '4444' });
    expect(
      screen.getByText('Your new card ending in 4444 is saved, but the open payment did not go through. Please try another card.'),
    ).toHaveAttribute('role', 'status');
    await saveCard({ ...ACCOUNT, status: 'past_due', cardLast4: null });
    expect(
      screen.getByText('Your new card ending in — is saved, but the open payment did not go through. Please try another card.'),
    ).toHaveAttribute('role', 'status');
    await saveCard({ ...ACCOUNT, cardLast4: null });
    expect(screen.getByText('Your new card ending in — is saved.')).toHaveAttribute('role', 'status');
  });

  it('clears the typed card once sent, and shows a refusal without changing the page', async () => {
    const { machine, calls } = machineWith({ change: () => Promise.reject(new ApiError('Your card was declined.', 402)) });
    render(<AccountPage machine={machine} />);
    await flush();
    const number = screen.getByLabelText<HTMLInputElement>('Card number');
    fireEvent.change(number, { target: { value: '4000000000000002' } });
    // Typed as digits, the expiry reads as on the checkout's card form.
    fireEvent.change(screen.getByLabelText('Expiration date'), { target: { value: '1230' } });
    expect(screen.getByLabelText('Expiration date')).toHaveValue('12 / 30');
    expect(number.value).toBe('4000 0000 0000 0002');
    fireEvent.change(screen.getByLabelText('Security code'), { target: { value: '123' } });
    fireEvent.submit(screen.getByRole('form', { name: 'Update card' }));
    expect(number.value).toBe('');
    await flush();
    expect(calls.changes).toEqual([
      { kind: 'card', card: { number: '4000 0000 0000 0002', expMonth: 12, expYear: 2030, cvc: '123', postalCode: '' } },
    ]);
    expect(screen.getByRole('alert').textContent).toBe('Your card was declined.');
    expect(screen.getByText('•••• 4242')).toBeTruthy();
  });

  it('a session that ended during a change asks for a link again', async () => {
    const { machine } = machineWith({
      change: () => Promise.reject(new ApiError('Your session has ended. Please ask for a new link.', 401)),
    });
    render(<AccountPage machine={machine} />);
    await flush();
    fireEvent.submit(screen.getByRole('form', { name: 'Cancel subscription' }));
    fireEvent.click(screen.getByRole('button', { name: 'Yes, cancel my subscription' }));
    await flush();
    expect(screen.getByRole('form', { name: 'Email me a link' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toMatch(/session has ended/);
  });

  it("in a provider-managed subscription, the guarantee's refund is asked on the page, once more with the amount; after the guarantee, not offered", async () => {
    vi.useFakeTimers({ now: Date.parse('2026-12-10T12:00:00.000Z'), toFake: ['Date'] });
    onTestFinished(() => void vi.useRealTimers());
    const managed: AccountView = { ...ACCOUNT, managedByProvider: true };
    const asked: AccountView = {
      ...managed,
      cancelAt: ACCOUNT.currentPeriodEnd,
      refundAsked: { at: '2026-12-10T12:00:00.000Z', amountCents: 65_000 },
    };
    const { machine, calls } = machineWith({ view: async () => managed, change: async () => asked });
    render(<AccountPage machine={machine} />);
    await flush();
    expect(screen.getByRole('heading', { name: 'Money-back guarantee' })).toBeInTheDocument();
    expect(
      screen.getByText('You are within the 30-day money-back guarantee, until December 24, 2026: you can have $650 back.'),
    ).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Ask for your refund' }));
    expect(screen.getByRole('alertdialog', { name: 'Ask for your refund?' })).toHaveAccessibleDescription(
      "We refund $650, everything you paid, to the card you paid with, under the 30-day money-back guarantee. Your subscription and your team's access end when the refund is made; you get a mail then.",
    );
    fireEvent.click(screen.getByRole('button', { name: 'Yes, ask for my $650 back' }));
    await flush();
    expect(calls.changes).toEqual([{ kind: 'refund', reason: '' }]);
    expect(screen.getByText(/^You asked for your refund of \$650 on December 10, 2026\./)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Ask for your refund' })).toBeNull();

    cleanup();
    vi.setSystemTime(Date.parse('2027-01-10T12:00:00.000Z'));
    const late = machineWith({ view: async () => managed });
    render(<AccountPage machine={late.machine} />);
    await flush();
    expect(screen.getByRole('button', { name: 'Change seats' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Money-back guarantee' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Ask for your refund' })).toBeNull();
  });

  it('in a provider-managed subscription sends the buyer to the portal the server names', async () => {
    const visited: string[] = [];
    const { machine, calls } = machineWith({
      view: async () => ({ ...ACCOUNT, managedByProvider: true }),
      change: async () => ({ url: 'https://billing.example/p/1' }),
    });
    render(<AccountPage machine={machine} redirect={(url) => visited.push(url)} />);
    await flush();
    fireEvent.click(screen.getByRole('button', { name: 'Change seats' }));
    await flush();
    expect(calls.changes).toEqual([{ kind: 'portal', flow: 'seats' satisfies PortalFlow }]);
    expect(visited).toEqual(['https://billing.example/p/1']);
  });
});

describe('the manage page while a call runs', () => {
  it('disables the buttons that would start another change until the call answers, and asks for a link without the last refusal', async () => {
    const calls = {
      preview: deferred<SeatChangePreview>(),
      change: deferred<AccountView>(),
      credentials: deferred<NewCredentials>(),
      signOut: deferred<void>(),
      link: deferred<{ message: string }>(),
    };
    let link: () => Promise<{ message: string }> = () => Promise.reject(new ApiError('Too many requests. Please wait.', 429));
    const { machine } = machineWith({
      preview: () => calls.preview.promise,
      change: () => calls.change.promise,
      credentials: () => calls.credentials.promise,
      signOut: () => calls.signOut.promise,
      link: () => link(),
    });
    render(<AccountPage machine={machine} />);
    await flush();
    const starters = ['Cancel subscription', 'Update card', 'Get new login credentials'];
    expect(disabled(...starters)).toEqual([false, false, false]);

    fireEvent.change(screen.getByLabelText('Seats'), { target: { value: '3' } });
    fireEvent.submit(screen.getByRole('form', { name: 'Change seats' }));
    await flush();
    expect(disabled('Change seats', ...starters)).toEqual([true, true, true, true]);
    await act(async () => calls.preview.resolve(previewOf(3, 25_000)));
    fireEvent.click(screen.getByRole('button', { name: 'Keep my seats' }));
    expect(disabled('Change seats', ...starters)).toEqual([false, false, false, false]);

    fireEvent.submit(screen.getByRole('form', { name: 'Update card' }));
    await flush();
    expect(disabled(...starters)).toEqual([true, true, true]);
    await act(async () => calls.change.resolve({ ...ACCOUNT, cardLast4: '4444' }));
    expect(disabled(...starters)).toEqual([false, false, false]);

    fireEvent.click(screen.getByRole('button', { name: 'Get new login credentials' }));
    fireEvent.click(screen.getByRole('button', { name: 'Yes, replace my password' }));
    await flush();
    expect(disabled(...starters)).toEqual([true, true, true]);
    await act(async () => calls.credentials.resolve({ email: 'ada@example.com', password: 'New-Password-0123' }));
    expect(disabled('Cancel subscription', 'Update card')).toEqual([false, false]);

    fireEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    await flush();
    expect(disabled('Cancel subscription', 'Update card')).toEqual([true, true]);
    await act(async () => calls.signOut.resolve());

    fireEvent.change(screen.getByLabelText('Email Address'), { target: { value: 'ada@example.com' } });
    fireEvent.submit(screen.getByRole('form', { name: 'Email me a link' }));
    await flush();
    expect(screen.getByRole('alert').textContent).toBe('Too many requests. Please wait.');
    expect(disabled('Email me a link')).toEqual([false]);
    link = () => calls.link.promise;
    fireEvent.submit(screen.getByRole('form', { name: 'Email me a link' }));
    await flush();
    // Asked again, the last refusal leaves the page while the new answer is awaited.
    expect(screen.queryByRole('alert')).toBeNull();
    expect(disabled('Email me a link')).toEqual([true]);
    await act(async () => calls.link.resolve({ message: 'If that email has a subscription, a link to manage it is on its way.' }));
    expect(screen.getByText('If that email has a subscription, a link to manage it is on its way.')).toHaveAttribute('role', 'status');
  });
});

/** What the page's statechart keeps in memory once the page no longer shows it. */
describe("the manage page's statechart", () => {
  it('forgets the subscription, the new credentials and the last confirmation once signed out', async () => {
    const { machine } = machineWith({});
    const actor = createActor(machine, { input: { token: null } }).start();
    onTestFinished(() => void actor.stop());
    await vi.waitFor(() => expect(actor.getSnapshot().matches({ signedIn: 'viewing' })).toBe(true));
    actor.send({ type: 'NEW_CREDENTIALS_CLICKED' });
    actor.send({ type: 'NEW_CREDENTIALS_CONFIRMED' });
    await vi.waitFor(() => expect(actor.getSnapshot().context.credentials).not.toBeNull());
    actor.send({ type: 'SIGN_OUT_CLICKED' });
    await vi.waitFor(() => expect(actor.getSnapshot().matches('signedOut')).toBe(true));
    const { account, credentials, notice } = actor.getSnapshot().context;
    expect({ account, credentials, notice }).toEqual({ account: null, credentials: null, notice: null });
  });

  it('keeps no seat quote the buyer did not take', async () => {
    const { machine } = machineWith({});
    const actor = createActor(machine, { input: { token: null } }).start();
    onTestFinished(() => void actor.stop());
    await vi.waitFor(() => expect(actor.getSnapshot().matches({ signedIn: 'viewing' })).toBe(true));
    actor.send({ type: 'SEATS_SUBMITTED', quantity: 3 });
    await vi.waitFor(() => expect(actor.getSnapshot().matches({ signedIn: 'confirmingSeats' })).toBe(true));
    actor.send({ type: 'SEATS_ABANDONED' });
    const { seatPreview, seatsWanted } = actor.getSnapshot().context;
    expect({ seatPreview, seatsWanted }).toEqual({ seatPreview: null, seatsWanted: null });
  });
});

/**
 * The same page on the chart's own calls (src/api/accountApi.ts) against a stubbed fetch: each of the buyer's steps
 * sends its own request to server/account/routes/, with what the buyer chose, and nothing else.
 */
describe('the manage page through its real client', () => {
  afterEach(() => vi.unstubAllGlobals());

  /** The requests the page made to /api/account/* (the team section's own aside), as `METHOD path body`. */
  const accountRequests = (fetchMock: ReturnType<typeof stubFetch>) =>
    fetchMock.mock.calls.flatMap(([url, init]) => {
      const path = new URL(url, 'http://localhost').pathname;
      if (!path.startsWith('/api/account/') || path.startsWith('/api/account/team')) return [];
      return [`${init?.method ?? 'GET'} ${path}${typeof init?.body === 'string' ? ` ${init.body}` : ''}`];
    });
  const ok = (body: unknown) => () => ({ status: 200, body });

  it("from a mail's link: opens the session with its token, then each change is its own call with what the buyer chose", async () => {
    vi.useFakeTimers({ now: Date.parse('2026-12-10T12:00:00.000Z'), toFake: ['Date'] });
    onTestFinished(() => void vi.useRealTimers());
    const writeText = vi.fn(async (_text: string) => undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    window.history.replaceState(null, '', '/account?token=link-token');
    const fetchMock = stubFetch({
      '/api/account/session': ok({ account: ACCOUNT, agreementUrl: null }),
      '/api/account/cancel': ok({ ...ACCOUNT, cancelAt: ACCOUNT.currentPeriodEnd }),
      '/api/account/resume': ok(ACCOUNT),
      '/api/account/seats/preview': ok(previewOf(3, 25_000)),
      '/api/account/seats': ok({ ...ACCOUNT, seats: 3, monthlyTotalCents: 100_000 }),
      '/api/account/card': ok({ ...ACCOUNT, seats: 3, monthlyTotalCents: 100_000, cardLast4: '4444' }),
      '/api/account/credentials': ok({ email: 'ada@example.com', password: 'New-Password-0123' }),
      '/api/account/sign-out': ok({}),
      '/api/account/link': ok({ message: 'If that email has a subscription, a link to manage it is on its way.' }),
    });
    render(<AccountPage />);
    await screen.findByRole('heading', { name: 'Your subscription' });

    fireEvent.change(screen.getByLabelText('Why are you leaving? (optional)'), { target: { value: ' Too busy ' } });
    fireEvent.submit(screen.getByRole('form', { name: 'Cancel subscription' }));
    fireEvent.click(screen.getByRole('button', { name: 'Yes, cancel my subscription' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Undo cancellation' }));
    await screen.findByText('Your cancellation is undone: your subscription continues and renews as before.');

    fireEvent.change(screen.getByLabelText('Seats'), { target: { value: '3' } });
    fireEvent.submit(screen.getByRole('form', { name: 'Change seats' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Pay $250 and change seats' }));
    await screen.findByText('Your subscription now has 3 seats: $1,000/month. We charged $250 for the rest of this period.');

    const card = within(screen.getByRole('form', { name: 'Update card' }));
    fireEvent.change(card.getByLabelText('Card number'), { target: { value: '4242424242424242' } });
    fireEvent.change(card.getByLabelText('Expiration date'), { target: { value: '1230' } });
    fireEvent.change(card.getByLabelText('Security code'), { target: { value: '123' } });
    fireEvent.submit(screen.getByRole('form', { name: 'Update card' }));
    await screen.findByText('Your new card ending in 4444 is saved.');

    fireEvent.click(screen.getByRole('button', { name: 'Get new login credentials' }));
    fireEvent.click(screen.getByRole('button', { name: 'Yes, replace my password' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Copy password' }));
    await screen.findByText('Password copied to clipboard.');
    expect(writeText).toHaveBeenCalledExactlyOnceWith('New-Password-0123');

    fireEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    fireEvent.change(await screen.findByLabelText('Email Address'), { target: { value: 'ada@example.com' } });
    fireEvent.submit(screen.getByRole('form', { name: 'Email me a link' }));
    await screen.findByText('If that email has a subscription, a link to manage it is on its way.');

    expect(accountRequests(fetchMock)).toEqual([
      'POST /api/account/session {"token":"link-token"}',
      'POST /api/account/cancel {"reason":"Too busy"}',
      'POST /api/account/resume {}',
      'POST /api/account/seats/preview {"quantity":3}',
      'POST /api/account/seats {"quantity":3,"prorationDate":1795000000}',
      'POST /api/account/card {"card":{"number":"4242 4242 4242 4242","expMonth":12,"expYear":2030,"cvc":"123","postalCode":""}}',
      'POST /api/account/credentials {}',
      'POST /api/account/sign-out',
      'POST /api/account/link {"email":"ada@example.com"}',
    ]);
  });

  it("with this browser's session: reads it, asks for the guarantee's refund in the cancel step, and opens the provider's portal", async () => {
    vi.useFakeTimers({ now: Date.parse('2026-12-10T12:00:00.000Z'), toFake: ['Date'] });
    onTestFinished(() => void vi.useRealTimers());
    const asked: AccountView = {
      ...ACCOUNT,
      cancelAt: ACCOUNT.currentPeriodEnd,
      refundAsked: { at: '2026-12-10T12:00:00.000Z', amountCents: 65_000 },
    };
    const fetchMock = stubFetch({
      '/api/account/session': ok({ account: ACCOUNT }),
      '/api/account/refund-request': ok(asked),
    });
    render(<AccountPage />);
    await screen.findByRole('heading', { name: 'Your subscription' });
    fireEvent.change(screen.getByLabelText('Why are you leaving? (optional)'), { target: { value: 'Not for us' } });
    fireEvent.submit(screen.getByRole('form', { name: 'Cancel subscription' }));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel and ask for my $650 back' }));
    await screen.findByText(/^You asked for your refund of \$650\. We mailed you a receipt\./);
    expect(accountRequests(fetchMock)).toEqual(['GET /api/account/session', 'POST /api/account/refund-request {"reason":"Not for us"}']);

    cleanup();
    const visited: string[] = [];
    const portal = stubFetch({
      '/api/account/session': ok({ account: { ...ACCOUNT, managedByProvider: true } }),
      '/api/account/portal': ok({ url: 'https://billing.example/p/1' }),
    });
    render(<AccountPage redirect={(url) => visited.push(url)} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Change seats' }));
    await vi.waitFor(() => expect(visited).toEqual(['https://billing.example/p/1']));
    expect(accountRequests(portal)).toEqual(['GET /api/account/session', 'POST /api/account/portal {"flow":"seats"}']);
  });
});
