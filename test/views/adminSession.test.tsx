/**
 * The console's sign-in and sign-out against a faked server, through the real client: what the owner types is
 * what is sent, a refusal is shown in the server's words, and signing out asks the server to end the session.
 */
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { AdminPage } from '../../src/views/admin/AdminPage';
import { stubFetch, type FakeRoute } from './support/fakeFetch';

const OWNER = { email: 'owner@example.com' };
const NO_SESSION: FakeRoute = () => ({ status: 401, body: { error: 'Please sign in to the console.' } });

function showConsole(signIn: FakeRoute) {
  const fetchMock = stubFetch({
    '/api/admin/session': NO_SESSION,
    '/api/admin/sign-in': signIn,
    '/api/admin/sign-out': () => ({ status: 204, body: undefined }),
    // The dashboard behind the sign-in is not what these tests look at: it answers that the server is away.
    '/api/admin/dashboard': () => ({ status: 503, body: { error: 'The console is down for a moment.' } }),
  });
  render(
    <Router hook={memoryLocation({ path: '/' }).hook}>
      <AdminPage />
    </Router>,
  );
  return fetchMock;
}

async function signIn(email: string, password: string) {
  fireEvent.change(await screen.findByLabelText('Email'), { target: { value: email } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
}

const callsTo = (fetchMock: ReturnType<typeof stubFetch>, path: string) =>
  fetchMock.mock.calls.filter(([url]) => new URL(url, 'http://localhost').pathname === path);

afterEach(() => vi.unstubAllGlobals());

describe("the console's session", () => {
  it('sends the email and password typed, shows who is signed in, and signing out ends the session on the server', async () => {
    const fetchMock = showConsole(() => ({ status: 200, body: OWNER }));
    await signIn('owner@example.com', 'a long passphrase');
    expect(await screen.findByText(OWNER.email)).toBeInTheDocument();
    const [[, init]] = callsTo(fetchMock, '/api/admin/sign-in') as [[string, RequestInit]];
    expect(init.method).toBe('POST');
    expect(JSON.parse(init.body as string)).toEqual({ email: 'owner@example.com', password: 'a long passphrase' });

    fireEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    const signOuts = callsTo(fetchMock, '/api/admin/sign-out') as [string, RequestInit][];
    expect(signOuts.map(([, init]) => init.method)).toEqual(['POST']);
    expect(screen.queryByText(OWNER.email)).toBeNull();
  });

  it("shows a refused sign-in in the server's words and sends the next try as typed", async () => {
    const fetchMock = showConsole((body) =>
      (body as { password: string }).password === 'the right one'
        ? { status: 200, body: OWNER }
        : { status: 401, body: { error: 'Wrong email or password.' } },
    );
    await signIn('owner@example.com', 'a wrong one');
    expect(await screen.findByRole('alert')).toHaveTextContent('Wrong email or password.');
    await signIn('owner@example.com', 'the right one');
    await waitFor(() => expect(screen.getByText(OWNER.email)).toBeInTheDocument());
    expect(callsTo(fetchMock, '/api/admin/sign-in').map(([, init]) => JSON.parse(init!.body as string) as unknown)).toEqual([
      { email: 'owner@example.com', password: 'a wrong one' },
      { email: 'owner@example.com', password: 'the right one' },
    ]);
  });
});
