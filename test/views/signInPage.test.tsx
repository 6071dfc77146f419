/**
 * The sign-in page (/sign-in) on its statechart (src/machines/signInMachine.ts), with the calls faked: labelled
 * fields, a refusal announced under the form (role alert), a right password handing the browser on, and "Forgot
 * your password?" asking for a link (a member's to set a new password, the buyer's to /account).
 */
import { act, fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fromPromise } from 'xstate';
import { ApiError } from '../../src/api/client';
import { signInMachine } from '../../src/machines/signInMachine';
import { SignInPage } from '../../src/views/signIn/SignInPage';

function machineWith(signIn: (input: { email: string; password: string }) => Promise<{ redirectTo: string }>) {
  const links: string[] = [];
  const machine = signInMachine.provide({
    actors: {
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
  it('announces a refusal, then hands the browser on after the right password', async () => {
    const redirects: string[] = [];
    const { machine } = machineWith(async ({ password }) => {
      if (password !== 'right') throw new ApiError('The email or password is not right.', 401);
      return { redirectTo: '/oidc/auth/abc' };
    });
    render(<SignInPage machine={machine} redirect={(url) => redirects.push(url)} />);
    await fillAndSubmit('ada@example.com', 'wrong');
    expect(await screen.findByRole('alert')).toHaveTextContent('The email or password is not right.');
    expect(redirects).toEqual([]);
    await fillAndSubmit('ada@example.com', 'right');
    expect(redirects).toEqual(['/oidc/auth/abc']);
  });

  it('asks for a link with “Forgot your password?” and says who gets which', async () => {
    const { machine, links } = machineWith(async () => ({ redirectTo: '/' }));
    render(<SignInPage machine={machine} redirect={() => undefined} />);
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
