/**
 * Model-based test of the console's Mail screen (src/machines/mailMachine.ts, src/views/admin/AdminMail.tsx):
 * generated paths through loading, a search typed and its pause, a refresh, a held mail re-sent, each call answered,
 * refused or failed, run against the real screen. Held to pageRules.ts: the pause before the search is asked for,
 * the request's recipient, the banner while mail is held, the empty list's words, which mails can be re-sent, what a
 * failure says, and the console's sign-in asked for (once) when the session ended.
 */
import { fireEvent, render, screen, within } from '@testing-library/react';
import { expect, vi } from 'vitest';
import type { AnyEventObject, AnyMachineSnapshot } from 'xstate';
import { ApiError } from '../../src/api/client';
import type { MailList, OutboxMail } from '../../src/contract/admin';
import { mailMachine } from '../../src/machines/mailMachine';
import { AdminMail } from '../../src/views/admin/AdminMail';
import { answeredWith, answersOf, describePageModel, type Step } from './pageModel';
import { MAIL, UNREACHABLE } from './pageRules';

const mail = (id: number, status: OutboxMail['status'], recipient: string): OutboxMail => ({
  id,
  topic: 'order_confirmation',
  status,
  transactionId: `txn_${id}`,
  attempts: status === 'failed' ? 8 : 0,
  lastError: status === 'failed' ? 'connection refused' : null,
  createdAt: '2026-11-24T09:00:00.000Z',
  sentAt: status === 'sent' ? '2026-11-24T09:00:01.000Z' : null,
  recipient,
  rendered: status === 'held' ? { to: recipient, subject: 'Your subscription is active', text: 'Thanks.' } : null,
});
const HELD: MailList = { delivery: 'held', mails: [mail(7, 'held', 'ada@example.com'), mail(8, 'sent', 'bo@example.com')] };
const NONE: MailList = { delivery: 'smtp', mails: [] };
const FAILING: MailList = { delivery: 'smtp', mails: [mail(9, 'failed', 'ada@example.com')] };
const NETWORK = new ApiError(UNREACHABLE.console, 0);
const SIGNED_OUT = new ApiError('Please sign in to the console.', 401);
const ALREADY_SENT = new ApiError('This mail was already sent.', 409);
/** The searches the owner types in turn (with spaces around, as pasted). */
const SEARCHES = [' ada@ ', ''];

let onUnauthorised = vi.fn();

function eventsAt(snapshot: AnyMachineSnapshot): AnyEventObject[] {
  const { search, mails } = snapshot.context as { search: string; mails: OutboxMail[] };
  const events = [
    ...answersOf(snapshot, 'mail.loading', [HELD, NONE, FAILING], [NETWORK, SIGNED_OUT]),
    ...answersOf(snapshot, 'mail.resending', [{ ...mail(7, 'pending', 'ada@example.com') }], [ALREADY_SENT, NETWORK, SIGNED_OUT]),
    { type: 'SEARCH_CHANGED', search: SEARCHES.find((each) => each !== search)! },
  ];
  if (snapshot.matches('waiting')) events.push({ type: 'xstate.after.searchDelay.mail.waiting' });
  if (snapshot.matches('ready')) {
    events.push({ type: 'RELOAD' });
    const resendable = mails.find((each) => (MAIL.resendable as readonly string[]).includes(each.status));
    if (resendable) events.push({ type: 'RESEND', id: resendable.id });
  }
  return events;
}

/** What the last answered list call said, and what the last failure should say (pageRules: the console's words, or the server's). */
function expectedError(history: Step[]): string | null {
  let error: string | null = null;
  for (const { event } of history) {
    if (event.type === 'RESEND') error = null;
    if (/^xstate\.done\.actor\.\d+\.mail\.loading$/.test(event.type)) error = null;
    const failure = (event as { error?: ApiError }).error;
    if (failure && failure.status !== 401) error = failure.status === 0 ? UNREACHABLE.console : failure.message;
  }
  return error;
}

describePageModel({
  name: 'mail',
  machine: mailMachine,
  callsByState: { 'mail.loading': 'list', 'mail.resending': 'resend' },
  routes: [
    { method: 'GET', path: /^\/api\/admin\/mail(\?|$)/, kind: 'list' },
    { method: 'POST', path: /^\/api\/admin\/mail\/\d+\/resend$/, kind: 'resend' },
  ],
  eventsAt,
  render() {
    onUnauthorised = vi.fn();
    render(<AdminMail onUnauthorised={onUnauthorised} />);
  },
  act(event) {
    if (event.type === 'SEARCH_CHANGED')
      fireEvent.change(screen.getByRole('searchbox', { name: 'Search by recipient' }), { target: { value: event.search } });
    else if (event.type === 'RELOAD') fireEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    else if (event.type === 'RESEND') fireEvent.click(screen.getByRole('button', { name: `Re-send mail ${String(event.id)}` }));
    else throw new Error(`The model test cannot make ${event.type} happen`);
  },
  delayOf: (event) => {
    if (event.type.startsWith('xstate.after.searchDelay.')) return MAIL.searchPauseMs;
    throw new Error(`No rule for ${event.type}`);
  },
  expectShows(state, history, requests) {
    const { mails, delivery, search, resending } = state.context as {
      mails: OutboxMail[];
      delivery: string | null;
      search: string;
      resending: number | null;
    };
    // Each list request asks for the recipient as typed, trimmed; none when the search is empty.
    for (const request of requests.filter((each) => each.method === 'GET')) {
      const to = new URLSearchParams(request.path.split('?')[1] ?? '').get('to');
      expect(to === null || (to.length > 0 && to === to.trim()), `recipient asked for: ${String(to)}`).toBe(true);
    }
    const lastList = requests.findLast((each) => each.method === 'GET');
    if (lastList && state.matches('loading'))
      expect(new URLSearchParams(lastList.path.split('?')[1] ?? '').get('to') ?? '').toBe(search.trim());
    expect(screen.getByRole('searchbox', { name: 'Search by recipient' })).toHaveValue(search);
    expect(screen.queryByText(MAIL.heldBanner) !== null, 'the held banner').toBe(delivery === 'held');
    const rows = within(screen.getByRole('table', { name: 'Mail' }))
      .getAllByRole('row')
      .slice(1);
    expect(rows).toHaveLength(mails.length);
    mails.forEach((each, index) => {
      const button = within(rows[index]!).queryByRole('button', { name: `Re-send mail ${each.id}` });
      expect(button !== null, `mail ${each.id} (${each.status}) can be re-sent`).toBe(
        (MAIL.resendable as readonly string[]).includes(each.status),
      );
      if (button) {
        expect(button).toHaveTextContent(resending === each.id ? MAIL.sending : MAIL.resend);
        expect(button).toHaveProperty('disabled', state.matches('resending'));
      }
    });
    const busy = state.matches('loading') || state.matches('waiting');
    const empty = search.trim() ? MAIL.noMatch(search.trim()) : MAIL.none;
    expect(screen.queryByText(empty) !== null, `"${empty}"`).toBe(!busy && mails.length === 0);
    expect(screen.getByRole('button', { name: 'Refresh' })).toHaveProperty('disabled', !state.matches('ready'));
    const error = expectedError(history);
    if (error) expect(screen.getByRole('alert')).toHaveTextContent(error);
    else expect(screen.queryByRole('alert')).toBeNull();
    expect(onUnauthorised, 'the console asked to sign in again').toHaveBeenCalledTimes(answeredWith(history, SIGNED_OUT));
  },
});
