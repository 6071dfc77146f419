/**
 * The console's Mail screen against a faked server: the banner while mail is held, a held mail's
 * links clickable (without the hidden token), the search sent to the server as the owner types.
 */
import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MailList } from '../../src/contract/admin';
import { SEARCH_DELAY_MS } from '../../src/machines/mailMachine';
import { AdminMail } from '../../src/views/admin/AdminMail';

const HELD: MailList = {
  delivery: 'held',
  mails: [
    {
      id: 7,
      topic: 'order_confirmation',
      status: 'held',
      transactionId: 'txn_1',
      attempts: 0,
      lastError: null,
      createdAt: '2026-11-24T09:00:00.000Z',
      sentAt: null,
      recipient: 'ada@example.com',
      rendered: {
        to: 'ada@example.com',
        subject: 'Your subscription is active',
        text: 'Manage your subscription: http://localhost:3000/account?token=[hidden].\nThanks.',
      },
    },
  ],
};

let requests: string[];

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: false });
  requests = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      requests.push(url);
      const list: MailList = url.includes('to=') ? { delivery: 'smtp', mails: [] } : HELD;
      return { ok: true, status: 200, json: async () => list } as Response;
    }),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

const flush = () => act(async () => vi.advanceTimersByTimeAsync(0));

const SENT: MailList = {
  delivery: 'smtp',
  mails: [
    {
      ...HELD.mails[0]!,
      id: 8,
      status: 'sent',
      sentAt: '2026-11-24T09:00:05.000Z',
      recipient: 'grace@example.com',
      rendered: {
        to: 'grace@example.com',
        subject: 'You are invited',
        text: 'Join <b>the team</b>: http://localhost:3000/join?token=[hidden]',
      },
    },
  ],
};

describe("the console's Mail screen", () => {
  it('opens a sent mail: its subject and its text as text, the token hidden', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => ({ ok: true, status: 200, json: async () => SENT }) as Response),
    );
    const { container } = render(<AdminMail onUnauthorised={() => undefined} />);
    await flush();
    expect(screen.getByRole('cell', { name: /You are invited → grace@example.com/ })).toBeInTheDocument();
    const opener = screen.getByText('Open the mail');
    expect(opener).toHaveAccessibleName('Open the mail “You are invited” to grace@example.com');
    const mail = opener.closest('details')!;
    expect(mail).not.toHaveAttribute('open');
    fireEvent.click(opener);
    expect(mail).toHaveAttribute('open');
    expect(mail).toHaveTextContent('Join <b>the team</b>: http://localhost:3000/join?token=[hidden]');
    expect(container.querySelector('b')).toBeNull();
    expect(screen.getByRole('link', { name: 'http://localhost:3000/join?token=[hidden]' })).toHaveAttribute(
      'href',
      'http://localhost:3000/join',
    );
  });

  it('says mail is held, opens the links of a held mail, and searches by recipient on the server', async () => {
    render(<AdminMail onUnauthorised={() => undefined} />);
    await flush();
    expect(screen.getByRole('note', { name: 'Mail is not being sent' })).toHaveTextContent('SMTP_URL is not set');
    const link = screen.getByRole('link', { name: 'http://localhost:3000/account?token=[hidden]' });
    expect(link).toHaveAttribute('href', 'http://localhost:3000/account');
    expect(screen.getByText(/Your subscription is active/)).toHaveTextContent('→ ada@example.com');

    fireEvent.change(screen.getByLabelText('Search by recipient'), { target: { value: 'gr' } });
    fireEvent.change(screen.getByLabelText('Search by recipient'), { target: { value: 'grace' } });
    await act(async () => vi.advanceTimersByTimeAsync(SEARCH_DELAY_MS - 1));
    expect(requests).toEqual(['/api/admin/mail']);
    await act(async () => vi.advanceTimersByTimeAsync(1));
    await flush();
    // One request for what was typed last, after the pause.
    expect(requests).toEqual(['/api/admin/mail', '/api/admin/mail?to=grace']);
    expect(screen.getByText('No mail to a recipient matching "grace".')).toBeInTheDocument();
    expect(screen.queryByRole('note', { name: 'Mail is not being sent' })).toBeNull();
  });
});
