/**
 * The "set a new password" page against a faked server, through the real client: the link's token is what is
 * checked and what sets the password, a password the page itself refuses is never sent, the server's refusal
 * goes under the field in its words, and a link that cannot be used offers to mail a new one to the address typed.
 */
import { fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { NewPasswordPage } from '../../src/views/newPassword/NewPasswordPage';
import { stubFetch, type FakeRoute } from './support/fakeFetch';

function showPage(search: string, routes: Record<string, FakeRoute>) {
  const fetchMock = stubFetch(routes);
  const location = memoryLocation({ path: '/sign-in/new-password', searchPath: search });
  render(
    <Router hook={location.hook} searchHook={location.searchHook}>
      <NewPasswordPage />
    </Router>,
  );
  return () =>
    fetchMock.mock.calls
      .filter(([url]) => !url.endsWith('/api/config'))
      .map(([url, init]) => ({ url: new URL(url, 'http://localhost').pathname, body: JSON.parse(init!.body as string) as unknown }));
}

async function submitPassword(password: string) {
  fireEvent.change(await screen.findByLabelText('New password'), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: 'Set my new password' }));
}

afterEach(() => vi.unstubAllGlobals());

describe('the "set a new password" page', () => {
  it("checks the link's token, sends no password the rule refuses, shows the server's refusal, then sets the password", async () => {
    const sent = showPage('token=tok-from-mail', {
      '/sign-in/new-password/check': () => ({ status: 200, body: { email: 'bo@example.com' } }),
      '/sign-in/new-password': (body) =>
        (body as { password: string }).password === 'breached passphrase one'
          ? { status: 400, body: { error: 'That password appears in known data breaches. Please choose another.' } }
          : { status: 200, body: { message: 'Your new password is set. Sign in to the training platform with it.' } },
    });
    expect(await screen.findByText('bo@example.com')).toBeInTheDocument();

    await submitPassword('short');
    expect(await screen.findByRole('alert')).toHaveTextContent('Please use at least');

    await submitPassword('breached passphrase one');
    expect(await screen.findByRole('alert')).toHaveTextContent('That password appears in known data breaches. Please choose another.');

    await submitPassword('a quiet harbour at dawn');
    expect(await screen.findByRole('status')).toHaveTextContent('Your new password is set. Sign in to the training platform with it.');
    expect(sent()).toEqual([
      { url: '/sign-in/new-password/check', body: { token: 'tok-from-mail' } },
      { url: '/sign-in/new-password', body: { token: 'tok-from-mail', password: 'breached passphrase one' } },
      { url: '/sign-in/new-password', body: { token: 'tok-from-mail', password: 'a quiet harbour at dawn' } },
    ]);
  });

  it("shows why a link cannot be used in the server's words and mails a new one to the address typed", async () => {
    const sent = showPage('token=old-token', {
      '/sign-in/new-password/check': () => ({ status: 410, body: { error: 'This link has expired. Ask for a new one below.' } }),
      '/sign-in/forgot': () => ({ status: 200, body: { message: 'If bo@example.com has a seat, a new link is on its way.' } }),
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('This link has expired. Ask for a new one below.');
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'bo@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Email me a new link' }));
    expect(await screen.findByRole('status')).toHaveTextContent('If bo@example.com has a seat, a new link is on its way.');
    expect(sent()).toEqual([
      { url: '/sign-in/new-password/check', body: { token: 'old-token' } },
      { url: '/sign-in/forgot', body: { email: 'bo@example.com' } },
    ]);
  });

  it("says a link-less visit needs the mail's link, and asks the server nothing", async () => {
    const sent = showPage('', {});
    expect(await screen.findByRole('alert')).toHaveTextContent('This page opens from the link in your “set a new password” mail.');
    expect(sent()).toEqual([]);
  });
});
