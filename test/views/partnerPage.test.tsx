/**
 * The referrer's page (/partner) against a faked server: each held commission names the day it becomes payable
 * (src/domain/commissions.ts commissionPayableFrom), a refunded payment is one line with its net and why, and the
 * rule and every amount read in dollars.
 */
import { render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LedgerEntry, PartnerView } from '../../src/contract/commissions';
import { PartnerPage } from '../../src/views/partner/PartnerPage';
import { stubFetch } from './support/fakeFetch';

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

afterEach(() => vi.unstubAllGlobals());

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
});
