/**
 * The console's refund form holds the limit the order's invoices give (src/domain/refunds.ts refundableCents): it
 * says how much is left to refund, refuses more in the browser without calling the server, names the amount left
 * when everything is asked for, and offers no form when nothing is left.
 */
import { useActorRef } from '@xstate/react';
import { fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { refundableCents } from '../../src/domain/refunds';
import { refundMachine } from '../../src/machines/refundMachine';
import { RefundPanel } from '../../src/views/admin/RefundPanel';

const PAID_TWO_DAYS_AGO = new Date(Date.now() - 2 * 86_400_000).toISOString();
const PAID_SIXTY_DAYS_AGO = new Date(Date.now() - 60 * 86_400_000).toISOString();

function Panel({ left, paidAt = PAID_TWO_DAYS_AGO }: { left: number | null; paidAt?: string }) {
  const actorRef = useActorRef(refundMachine, { input: { transactionId: 'txn_1' } });
  return <RefundPanel actorRef={actorRef} paidAt={paidAt} refundableCents={left} onUnauthorised={() => undefined} />;
}

let fetchMock: ReturnType<typeof vi.fn>;
beforeEach(() => {
  fetchMock = vi.fn();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

const ask = (typed: string) => {
  fireEvent.change(screen.getByRole('textbox', { name: /Amount in dollars/ }), { target: { value: typed } });
  fireEvent.click(screen.getByRole('button', { name: 'Refund…' }));
};

describe("the console's refund form", () => {
  it('says how much is left and refuses more before calling the server', () => {
    render(<Panel left={100_000} paidAt={PAID_SIXTY_DAYS_AGO} />);
    const field = screen.getByRole('textbox', { name: /Amount in dollars/ });
    expect(field).toHaveAccessibleDescription(/At most \$1,000(\.00)? is left to refund\./);
    ask('99999');
    expect(
      screen.getByText(/^At most \$1,000(\.00)? is left to refund\.$/, { selector: '[id="refund-amount-error"]' }),
    ).toBeInTheDocument();
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByRole('alertdialog')).toBeNull();
    ask('1000.01');
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
    ask('1000');
    expect(screen.getByRole('alertdialog', { name: 'Confirm the refund' })).toHaveTextContent(
      /^Refund \$1,000(\.00)? and end the subscription now\?/,
    );
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('names what is left when everything is asked for within the guarantee', () => {
    render(<Panel left={45_000} />);
    ask('');
    expect(screen.getByRole('alertdialog', { name: 'Confirm the refund' })).toHaveTextContent(
      /^Refund everything left, \$450(\.00)?, and end the subscription now\?/,
    );
  });

  it('offers no form when nothing is left to refund', () => {
    render(<Panel left={0} />);
    expect(screen.getByText('Nothing is left to refund: every payment of this order has been refunded.')).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Refund' })).toBeNull();
  });

  it('counts what is left from the paid invoices only', () => {
    expect(
      refundableCents([
        { amountCents: 50_000, refundedCents: 0, status: 'paid' },
        { amountCents: 50_000, refundedCents: 20_000, status: 'partially_refunded' },
        { amountCents: 50_000, refundedCents: 50_000, status: 'refunded' },
        { amountCents: 50_000, refundedCents: 0, status: 'open' },
        { amountCents: 50_000, refundedCents: 0, status: 'uncollectible' },
      ]),
    ).toBe(80_000);
  });
});
