/**
 * The invitee's page (/join) against a faked server, through the real client: the link's token is what reads the
 * invitation and claims the seat, the login comes back once, 'Sign Training Agreement →' goes to the member's own
 * hand-off, a refused link says why in the server's words, and a failure to reach the server keeps the invitation.
 */
import { fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import type { JoinClaimed, JoinInvitation } from '../../src/contract/team';
import { JoinPage } from '../../src/views/join/JoinPage';
import { stubFetch, type FakeRoute } from './support/fakeFetch';

const INVITATION: JoinInvitation = {
  email: 'bo@example.com',
  name: 'Bo Chen',
  invitedBy: 'Dr. Ada Palmer',
  practiceName: 'Palmer Chiropractic',
  productName: 'the AI training',
  expiresAt: '2026-12-04T10:00:00.000Z',
};
const CLAIMED: JoinClaimed = {
  email: 'bo@example.com',
  name: 'Bo Chen',
  password: 'generated-password-1',
  seatNumber: 2,
  agreementUrl: 'https://agreement.example.com/?token=handoff-bo',
};

function showJoin(search: string, routes: Record<string, FakeRoute>) {
  const fetchMock = stubFetch(routes);
  const redirect = vi.fn();
  const location = memoryLocation({ path: '/join', searchPath: search });
  render(
    <Router hook={location.hook} searchHook={location.searchHook}>
      <JoinPage answer={null} redirect={redirect} />
    </Router>,
  );
  const sent = () =>
    fetchMock.mock.calls
      .filter(([url]) => new URL(url, 'http://localhost').pathname !== '/api/config')
      .map(([url, init]) => ({
        url: new URL(url, 'http://localhost').pathname,
        body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
      }));
  return { sent, redirect };
}

afterEach(() => vi.unstubAllGlobals());

describe("the invitee's page", () => {
  it('reads the invitation and claims the seat with the link’s token, shows the login, copies it, and hands on to the agreement', async () => {
    const writeText = vi.fn(async () => undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    let claims = 0;
    const { sent, redirect } = showJoin('token=invite-token', {
      '/api/join/invitation': () => ({ status: 200, body: INVITATION }),
      '/api/join/claim': () =>
        ++claims === 1
          ? { status: 503, body: { error: 'We could not reach the server. Please try again.' } }
          : { status: 200, body: CLAIMED },
    });
    expect(await screen.findByRole('heading', { name: 'Join Palmer Chiropractic' })).toBeInTheDocument();
    fireEvent.click(await screen.findByRole('button', { name: 'Accept my seat' }));
    // The server was away: the invitation stays, with why above the button.
    expect(await screen.findByRole('alert')).toHaveTextContent('We could not reach the server. Please try again.');
    expect(screen.getByRole('heading', { name: 'Join Palmer Chiropractic' })).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Accept my seat' }));
    expect(await screen.findByRole('heading', { name: 'Welcome to the team, Bo Chen' })).toBeInTheDocument();
    expect(screen.getByText('generated-password-1')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
    // The copy buttons put the credential itself on the clipboard.
    fireEvent.click(screen.getByRole('button', { name: 'Copy password' }));
    await vi.waitFor(() => expect(writeText).toHaveBeenCalledWith('generated-password-1'));
    fireEvent.click(screen.getByRole('button', { name: /Sign Training Agreement/ }));
    expect(redirect).toHaveBeenCalledWith(CLAIMED.agreementUrl);
    expect(sent()).toEqual([
      { url: '/api/join/invitation', body: { token: 'invite-token' } },
      { url: '/api/join/claim', body: { token: 'invite-token' } },
      { url: '/api/join/claim', body: { token: 'invite-token' } },
    ]);
  });

  it("says why a link cannot be used in the server's words, when read and when claimed", async () => {
    showJoin('token=old-token', {
      '/api/join/invitation': () => ({ status: 410, body: { error: 'This invitation has expired. Ask Dr. Ada Palmer for a new one.' } }),
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('This invitation has expired. Ask Dr. Ada Palmer for a new one.');
  });

  it('says a seat already claimed cannot be claimed again', async () => {
    showJoin('token=invite-token', {
      '/api/join/invitation': () => ({ status: 200, body: INVITATION }),
      '/api/join/claim': () => ({ status: 409, body: { error: 'This seat was already claimed.' } }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Accept my seat' }));
    expect(await screen.findByRole('heading', { name: 'This invitation cannot be used' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('This seat was already claimed.');
  });
});
