/**
 * The referrer's page (/partner) against a faked server: each held commission names the day it becomes payable
 * (src/domain/commissions.ts commissionPayableFrom), a refunded payment is one line with its net and why, and the
 * rule and every amount read in dollars.
 */
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LedgerEntry, PartnerView } from '../../src/contract/commissions';
import { PartnerPage } from '../../src/views/partner/PartnerPage';
import { stubFetch, type FakeRoute } from './support/fakeFetch';

const entry = (overrides: Partial<LedgerEntry>): LedgerEntry => ({
  id: 1,
  kind: 'earned',
  invoiceId: 'in_1',
  invoiceCents: 100_000,
  seats: 3,
  amountCents: 20_000,
  state: 'held',
  rule: '20 % of each invoice',
  selfReferral: false,
  earnedAt: '2026-11-01T10:00:00.000Z',
  ...overrides,
});

const VIEW: PartnerView = {
  displayName: 'Jane Doe',
  link: 'http://localhost:3000/r/jane-doe',
  qrSvg: '<svg xmlns="http://www.w3.org/2000/svg"></svg>',
  rule: '20 % of each invoice',
  period: { from: '2026-10-28', to: '2026-11-26' },
  funnel: { visits: 4, checkoutsOpened: 2, practicesPaid: 1, activeSeats: 3, monthlyRevenueCents: 100_000 },
  totals: { held: 20_000, payable: 0, inPayout: 0, paid: 0, reversed: 20_000 },
  practices: [
    {
      name: 'Grace H.',
      seats: 3,
      status: 'active',
      entries: [
        entry({ id: 1, state: 'reversed' }),
        entry({ id: 2, kind: 'reversal', amountCents: -20_000, state: 'reversed', rule: 'Reversal: the practice was refunded $1,000' }),
        entry({ id: 3, invoiceId: 'in_2', earnedAt: '2026-11-20T10:00:00.000Z' }),
        entry({ id: 4, invoiceId: 'in_3', earnedAt: '2026-11-21T10:00:00.000Z', amountCents: 10_000 }),
        entry({
          id: 5,
          kind: 'reversal',
          invoiceId: 'in_3',
          amountCents: -5_000,
          state: 'reversed',
          rule: 'Reversal: the practice was refunded $250',
        }),
        entry({
          id: 6,
          kind: 'clawback',
          invoiceId: 'in_0',
          earnedAt: '2026-11-22T10:00:00.000Z',
          amountCents: -4_000,
          state: 'payable',
          rule: 'Clawback: the practice was refunded $200',
        }),
      ],
    },
  ],
  payouts: [],
};

afterEach(() => {
  vi.unstubAllGlobals();
  window.history.replaceState(null, '', '/');
});

/** The page at `address` against routes by path; what it sent, as method, address and body. */
function showPartnerPage(address: string, routes: Record<string, FakeRoute>) {
  window.history.replaceState(null, '', address);
  const fetchMock = stubFetch({ '/api/partner/sign-out': () => ({ status: 204, body: undefined }), ...routes });
  render(<PartnerPage />);
  return () =>
    fetchMock.mock.calls.map(([url, init]) => ({
      method: init?.method ?? 'GET',
      url,
      body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
    }));
}

describe("the referrer's page", () => {
  it('shows one line per payment with its net, the day a held one becomes payable, and dollars everywhere', async () => {
    stubFetch({
      '/api/partner/session': () => ({ status: 200, body: { signedIn: true } }),
      '/api/partner': () => ({ status: 200, body: VIEW }),
    });
    render(<PartnerPage />);
    const practices = await screen.findByRole('table', { name: 'Practices you referred' });
    const cell = within(practices).getByText(/Nov 1, 2026/).parentElement!;
    const lines = [...cell.children].map((line) => line.textContent);
    expect(lines).toEqual([
      'Nov 1, 2026: $0.00 ($200.00 earned, all taken back: the practice was refunded $1,000)',
      'Nov 20, 2026: $200.00 (held, payable from Dec 20, 2026)',
      'Nov 21, 2026: $50.00 ($100.00 earned, $50.00 taken back: the practice was refunded $250; held, payable from Dec 21, 2026)',
      // Taken from a payout already made: its own line, as it counts against the next one.
      'Nov 22, 2026: -$40.00 ($40.00 taken back from your next payout: the practice was refunded $200)',
    ]);
    expect(screen.getByText(/^Rule: 20 % of each invoice\./)).toBeInTheDocument();
    expect(document.body.textContent).not.toMatch(/cents|[−-]\$200/);
  });

  it("opens the session from the mail's link once, reads the period chosen, copies the link, and signs out", async () => {
    const writeText = vi.fn(async () => undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    const sent = showPartnerPage('/partner?token=tok-from-mail', {
      '/api/partner/session': () => ({ status: 200, body: {} }),
      '/api/partner': () => ({ status: 200, body: VIEW }),
    });
    expect(await screen.findByRole('heading', { name: 'Dr. Jane Doe, your referrals' })).toBeInTheDocument();
    // The token works once: it leaves the address before anything else.
    expect(window.location.search).toBe('');

    fireEvent.click(screen.getByRole('button', { name: 'Copy link' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(VIEW.link));
    expect(screen.getByRole('button', { name: 'Copied' })).toBeInTheDocument();

    const period = screen.getByRole('form', { name: 'Period' });
    fireEvent.change(within(period).getByLabelText('From'), { target: { value: '2026-10-01' } });
    fireEvent.change(within(period).getByLabelText('To'), { target: { value: '' } });
    fireEvent.click(within(period).getByRole('button', { name: 'Show' }));
    // Another period is another page: the copy button reads 'Copy link' again.
    expect(await screen.findByRole('button', { name: 'Copy link' })).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    expect(await screen.findByRole('button', { name: 'Email me a sign-in link' })).toBeInTheDocument();
    expect(sent()).toEqual([
      { method: 'POST', url: '/api/partner/session', body: { token: 'tok-from-mail' } },
      { method: 'GET', url: '/api/partner', body: undefined },
      // An empty date is left out: the server's default for that end.
      { method: 'GET', url: '/api/partner?from=2026-10-01', body: undefined },
      { method: 'POST', url: '/api/partner/sign-out', body: undefined },
    ]);
  });

  it('asks a visitor without a session for their email, sends it trimmed, and shows the answer in words', async () => {
    const sent = showPartnerPage('/partner', {
      '/api/partner/session': () => ({ status: 200, body: { signedIn: false } }),
      '/api/partner/link': (body) =>
        (body as { email: string }).email === 'jane@example.com'
          ? { status: 200, body: { message: 'If jane@example.com is a referrer’s email, a sign-in link is on its way.' } }
          : { status: 400, body: { error: 'That is not an email address.' } },
    });
    const email = await screen.findByLabelText('Your email');
    const button = screen.getByRole('button', { name: 'Email me a sign-in link' });
    fireEvent.change(email, { target: { value: 'jane@' } });
    fireEvent.submit(email.closest('form')!);
    // While the link is asked for, the button is off: one click, one request.
    expect(button).toBeDisabled();
    expect(await screen.findByRole('alert')).toHaveTextContent('That is not an email address.');
    expect(button).toBeEnabled();
    fireEvent.change(email, { target: { value: '  jane@example.com ' } });
    fireEvent.submit(email.closest('form')!);
    // Asking again clears the refusal at once, before the server answers.
    expect(screen.queryByRole('alert')).toBeNull();
    expect(await screen.findByRole('status')).toHaveTextContent('If jane@example.com is a referrer’s email, a sign-in link is on its way.');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(sent()).toEqual([
      { method: 'GET', url: '/api/partner/session', body: undefined },
      { method: 'POST', url: '/api/partner/link', body: { email: 'jane@' } },
      { method: 'POST', url: '/api/partner/link', body: { email: 'jane@example.com' } },
    ]);
  });

  it("shows a used link's refusal in the server's words, and asks for a link again when the session has ended", async () => {
    showPartnerPage('/partner?token=used-token', {
      '/api/partner/session': () => ({ status: 410, body: { error: 'This sign-in link was already used. Ask for a new one.' } }),
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('This sign-in link was already used. Ask for a new one.');
    expect(screen.getByRole('button', { name: 'Email me a sign-in link' })).toBeInTheDocument();
    cleanup();

    showPartnerPage('/partner', {
      '/api/partner/session': () => ({ status: 200, body: { signedIn: true } }),
      '/api/partner': () => ({ status: 401, body: { error: 'Please sign in again.' } }),
    });
    expect(await screen.findByRole('button', { name: 'Email me a sign-in link' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('keeps the page and says why when another period cannot be read', async () => {
    let reads = 0;
    showPartnerPage('/partner', {
      '/api/partner/session': () => ({ status: 200, body: { signedIn: true } }),
      '/api/partner': () =>
        ++reads === 2 ? { status: 400, body: { error: 'The period must end after it starts.' } } : { status: 200, body: VIEW },
    });
    const period = await screen.findByRole('form', { name: 'Period' });
    fireEvent.click(within(period).getByRole('button', { name: 'Show' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The period must end after it starts.');
    expect(screen.getByRole('heading', { name: 'Dr. Jane Doe, your referrals' })).toBeInTheDocument();
    // A period read afterwards clears it.
    fireEvent.click(within(period).getByRole('button', { name: 'Show' }));
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
  });

  it('says why when the first read fails, not "Loading…" for ever, and reads again on "Try again"', async () => {
    let reads = 0;
    showPartnerPage('/partner', {
      '/api/partner/session': () => ({ status: 200, body: { signedIn: true } }),
      '/api/partner': () =>
        // A refusal is not read again by itself (src/api/reads.ts retries only the network and 5xx).
        ++reads === 1 ? { status: 403, body: { error: 'Your partner page is closed for now.' } } : { status: 200, body: VIEW },
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('Your partner page is closed for now.');
    expect(screen.queryByText('Loading your partner page…')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Dr. Jane Doe, your referrals' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(reads).toBe(2);
  });
});
