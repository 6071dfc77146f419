/**
 * The sign-in page (/sign-in) on its statechart (src/machines/signInMachine.ts), with the calls faked: labelled
 * fields, a refusal announced under the form (role alert), a right password handing the browser on, and "Forgot
 * your password?" asking for a link (a member's to set a new password, the buyer's to /account), the way in from the
 * training platform (TRAINING_PLATFORM_URL, through the public configuration) for a page opened directly.
 */
import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fromPromise } from 'xstate';
import { ApiError } from '../../src/api/client';
import { signInMachine } from '../../src/machines/signInMachine';
import { resetPublicConfigCache } from '../../src/api/publicConfig';
import { SignInPage } from '../../src/views/signIn/SignInPage';
import { SANDBOX_CONFIG, stubFetch } from './support/fakeFetch';

afterEach(() => {
  vi.unstubAllGlobals();
  resetPublicConfigCache();
  window.history.replaceState(null, '', '/');
});

/** The page as the training platform opens it: its address names a sign-in (the OpenID Provider's uid). */
const openedByThePlatform = () => window.history.replaceState(null, '', '/sign-in?interaction=uid-1');

function machineWith(signIn: (input: { email: string; password: string }) => Promise<{ redirectTo: string }>, live = true) {
  const links: string[] = [];
  const machine = signInMachine.provide({
    actors: {
      checkInteraction: fromPromise(async ({ input }: { input: { interaction: string | null } }) => ({
        live: live && input.interaction === 'uid-1',
      })),
      signIn: fromPromise(({ input }: { input: { email: string; password: string } }) => signIn(input)),
      requestLink: fromPromise(async ({ input }: { input: { email: string } }) => {
        links.push(input.email);
        return { message: 'If that email has a login, a link is on its way: team members get one to set a new password.' };
      }),
    },
  });
  return { machine, links };
}

async function fillAndSubmit(email: string, password: string) {
  fireEvent.change(screen.getByLabelText('Email'), { target: { value: email } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: password } });
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
  });
}

describe('the sign-in page', () => {
  it('opened directly, says at once that no sign-in waits and offers the way in, with no password form', async () => {
    stubFetch();
    const { machine } = machineWith(async () => ({ redirectTo: '/' }));
    render(<SignInPage machine={machine} redirect={() => undefined} />);
    expect(await screen.findByText(/^No sign-in is waiting on this page/)).toHaveAttribute('role', 'status');
    expect(screen.getByRole('heading', { level: 1, name: 'Sign in to your training' })).toHaveFocus();
    expect(screen.queryByLabelText('Password')).toBeNull();
    const link = await screen.findByRole('link', { name: 'Go to the training platform' });
    expect(link).toHaveAttribute('href', SANDBOX_CONFIG.trainingPlatformUrl);
    expect(screen.getByTestId('where-to-sign-in')).toHaveTextContent('(academy.example.com)');
    expect(screen.getByRole('button', { name: 'Forgot your password?' })).toBeInTheDocument();
  });

  it('from the platform, in words for buyers and members alike; a sign-in that expired meanwhile says so with the way in', async () => {
    openedByThePlatform();
    stubFetch();
    const { machine } = machineWith(async () => {
      throw new ApiError('This sign-in has expired. Please go back to the training platform and choose “Sign in” again.', 410);
    });
    render(<SignInPage machine={machine} redirect={() => undefined} />);
    expect(await screen.findByText(/when you bought the training or joined a team/)).toBeInTheDocument();
    expect(screen.queryByText(/saved after your purchase/)).not.toBeInTheDocument();
    // Nothing typed for the person: the form starts empty.
    expect(screen.getByLabelText('Email')).toHaveValue('');
    await fillAndSubmit('bo@example.com', 'right');
    expect(await screen.findByText(/^No sign-in is waiting on this page/)).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'Go to the training platform' })).toBeInTheDocument();
  });

  it('a sign-in this browser no longer holds is said as the page loads, before a password is typed', async () => {
    openedByThePlatform();
    stubFetch();
    const { machine } = machineWith(async () => ({ redirectTo: '/' }), false);
    render(<SignInPage machine={machine} redirect={() => undefined} />);
    expect(await screen.findByText(/^No sign-in is waiting on this page/)).toBeInTheDocument();
    expect(screen.queryByLabelText('Password')).toBeNull();
  });

  it('without TRAINING_PLATFORM_URL names the platform and links nowhere', async () => {
    const fetchMock = stubFetch({ '/api/config': () => ({ status: 200, body: { ...SANDBOX_CONFIG, trainingPlatformUrl: null } }) });
    const { machine } = machineWith(async () => ({ redirectTo: '/' }));
    render(<SignInPage machine={machine} redirect={() => undefined} />);
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalled());
    await act(async () => undefined);
    expect(screen.getByTestId('where-to-sign-in')).toHaveTextContent('Your sign-in starts on the training platform');
    expect(screen.queryByRole('link', { name: 'Go to the training platform' })).not.toBeInTheDocument();
  });

  it('announces a refusal, then hands the browser on after the right password', async () => {
    const redirects: string[] = [];
    const { machine } = machineWith(async ({ password }) => {
      if (password !== 'right') throw new ApiError('The email or password is not right.', 401);
      return { redirectTo: '/oidc/auth/abc' };
    });
    openedByThePlatform();
    render(<SignInPage machine={machine} redirect={(url) => redirects.push(url)} />);
    await act(async () => undefined);
    await fillAndSubmit('ada@example.com', 'wrong');
    expect(await screen.findByRole('alert')).toHaveTextContent('The email or password is not right.');
    expect(redirects).toEqual([]);
    await fillAndSubmit('ada@example.com', 'right');
    expect(redirects).toEqual(['/oidc/auth/abc']);
  });

  it('asks for a link with “Forgot your password?” and says who gets which', async () => {
    const { machine, links } = machineWith(async () => ({ redirectTo: '/' }));
    openedByThePlatform();
    render(<SignInPage machine={machine} redirect={() => undefined} />);
    await act(async () => undefined);
    fireEvent.click(screen.getByRole('button', { name: 'Forgot your password?' }));
    expect(screen.getByText(/team members set a new password with it/)).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'ada@example.com' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Email me a link' }));
    });
    expect(await screen.findByRole('status')).toHaveTextContent('a link is on its way');
    expect(links).toEqual(['ada@example.com']);
  });
});
