/**
 * Model-based test of the sign-in page (src/machines/signInMachine.ts, src/views/signIn/SignInPage.tsx): generated
 * paths through signing in (accepted, refused, unreachable), "Forgot your password?" and its link (sent, refused,
 * unreachable) and back, and the sign-in the address names checked as the page loads (live, gone: said at once with
 * the way in; a 410 on submitting says the same), run against the real page. Held to pageRules.ts: the email sent trimmed with the password
 * as typed, the browser handed on exactly once to the address the server gave, a refusal shown in the server's
 * words and a failure in the client's, each form under its heading, the busy button.
 */
import { fireEvent, render, screen } from '@testing-library/react';
import { expect, vi } from 'vitest';
import type { AnyEventObject, AnyMachineSnapshot } from 'xstate';
import { ApiError } from '../../src/api/client';
import { signInMachine } from '../../src/machines/signInMachine';
import { SignInPage } from '../../src/views/signIn/SignInPage';
import { answersOf, describePageModel, type Step } from './pageModel';
import { SIGN_IN, UNREACHABLE } from './pageRules';

const TYPED_EMAIL = ' ada@example.com ';
const PASSWORD = ' correct horse battery staple';
const SIGNED_IN = { redirectTo: '/oidc/interaction/abc/login-done' };
const LINK_SENT = { message: 'If that email has a login, a link is on its way: team members get one to set a new password.' };
const WRONG = new ApiError('The email or password is not right.', 401);
const TOO_MANY = new ApiError('Too many attempts. Please wait a minute and try again.', 429);
const NETWORK = new ApiError(UNREACHABLE.signIn, 0);
/** The sign-in expired, or was started in another browser. */
const GONE = new ApiError('This sign-in has expired. Please go back to the training platform and choose “Sign in” again.', 410);
const INTERACTION = 'uid-model-1';
const CHECK_PATH = `/sign-in/interaction?interaction=${INTERACTION}`;

let redirect = vi.fn();

/** The refusal or failure the page must show: the server's words, or the client's for no answer; cleared by the next step the person takes. */
function expectedError(history: Step[]): string | null {
  let error: string | null = null;
  for (const { event } of history) {
    const failure = (event as { error?: ApiError }).error;
    // A failed check of the sign-in leaves the form without words; a 410 says it on the page, not as an error.
    if (event.type.endsWith('checking')) continue;
    if (failure) error = failure.status === 0 ? UNREACHABLE.signIn : failure.status === 410 ? null : failure.message;
    else if (!event.type.startsWith('xstate.')) error = null;
  }
  return error;
}

describePageModel({
  name: 'signIn',
  machine: signInMachine,
  input: { interaction: INTERACTION },
  callsByState: { 'signIn.checking': 'check', 'signIn.signingIn': 'signIn', 'signIn.requestingLink': 'link' },
  routes: [
    { method: 'GET', path: /^\/sign-in\/interaction\?interaction=uid-model-1$/, kind: 'check' },
    { method: 'POST', path: /^\/sign-in\/password$/, kind: 'signIn' },
    { method: 'POST', path: /^\/sign-in\/forgot$/, kind: 'link' },
  ],
  eventsAt(snapshot: AnyMachineSnapshot): AnyEventObject[] {
    const events = [
      ...answersOf(snapshot, 'signIn.checking', [{ live: true }, { live: false }], [NETWORK]),
      ...answersOf(snapshot, 'signIn.signingIn', [SIGNED_IN], [WRONG, GONE, NETWORK]),
      ...answersOf(snapshot, 'signIn.requestingLink', [LINK_SENT], [TOO_MANY, NETWORK]),
    ];
    if (snapshot.matches('editing'))
      events.push({ type: 'SIGN_IN_SUBMITTED', email: TYPED_EMAIL, password: PASSWORD }, { type: 'FORGOT_PASSWORD' });
    if (snapshot.matches('forgotPassword')) events.push({ type: 'LINK_REQUESTED', email: TYPED_EMAIL }, { type: 'BACK_TO_SIGN_IN' });
    if (snapshot.matches('linkSent')) events.push({ type: 'BACK_TO_SIGN_IN' });
    if (snapshot.matches('nothingToFinish')) events.push({ type: 'FORGOT_PASSWORD' });
    return events;
  },
  render() {
    redirect = vi.fn();
    window.history.replaceState(null, '', `/sign-in?interaction=${INTERACTION}`);
    render(<SignInPage redirect={redirect} />);
  },
  act(event) {
    const click = (name: string) => fireEvent.click(screen.getByRole('button', { name }));
    if (event.type === 'SIGN_IN_SUBMITTED') {
      fireEvent.change(screen.getByLabelText('Email'), { target: { value: event.email } });
      fireEvent.change(screen.getByLabelText('Password'), { target: { value: event.password } });
      click('Sign in');
    } else if (event.type === 'LINK_REQUESTED') {
      fireEvent.change(screen.getByLabelText('Email'), { target: { value: event.email } });
      click('Email me a link');
    } else if (event.type === 'FORGOT_PASSWORD') click('Forgot your password?');
    else if (event.type === 'BACK_TO_SIGN_IN') click('Back to sign in');
    else throw new Error(`The model test cannot make ${event.type} happen`);
  },
  expectShows(state, history, requests) {
    // The page asks first whether its sign-in is live (and that read is retried as every read is).
    expect(requests[0]).toEqual({ method: 'GET', path: CHECK_PATH, body: undefined });
    const posted = requests.filter((request) => request.method === 'POST');
    const sent = history.filter((step) => step.event.type === 'SIGN_IN_SUBMITTED' || step.event.type === 'LINK_REQUESTED');
    expect(posted).toHaveLength(sent.length);
    sent.forEach((step, index) =>
      expect(posted[index]).toEqual(
        step.event.type === 'SIGN_IN_SUBMITTED'
          ? { method: 'POST', path: '/sign-in/password', body: { email: TYPED_EMAIL.trim(), password: PASSWORD } }
          : { method: 'POST', path: '/sign-in/forgot', body: { email: TYPED_EMAIL.trim() } },
      ),
    );
    const accepted = history.filter((step) => step.event.type.startsWith('xstate.done.actor.') && step.event.type.endsWith('signingIn'));
    expect(redirect.mock.calls).toEqual(accepted.map(() => [SIGNED_IN.redirectTo]));
    const forgot = state.matches('forgotPassword') || state.matches('requestingLink') || state.matches('linkSent');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(forgot ? SIGN_IN.forgotHeading : SIGN_IN.heading);
    // No sign-in waiting: said at once, no password form, the way in offered.
    const nothing = state.matches('nothingToFinish');
    expect(screen.queryByText(/^No sign-in is waiting on this page/) !== null, 'nothing to finish').toBe(nothing);
    if (nothing) {
      expect(screen.queryByLabelText('Password')).toBeNull();
      expect(screen.getByRole('heading', { level: 1 })).toHaveFocus();
    } else if (!forgot) {
      const busy = state.matches('signingIn') || state.matches('signedIn');
      const button = screen.getByRole('button', { name: busy ? SIGN_IN.signingIn : 'Sign in' });
      // Not sent before the page knows its sign-in is live.
      expect(button).toHaveProperty('disabled', busy || state.matches('checking'));
    } else if (state.matches('linkSent')) {
      expect(screen.getByRole('status')).toHaveTextContent(LINK_SENT.message);
      expect(screen.queryByRole('button', { name: 'Email me a link' })).toBeNull();
    } else {
      expect(screen.getByRole('button', { name: 'Email me a link' })).toHaveProperty('disabled', state.matches('requestingLink'));
    }
    // The email typed stays in the field from one form to the other.
    if (!state.matches('linkSent') && !nothing && history.some((step) => step.event.type !== 'FORGOT_PASSWORD' && 'email' in step.event))
      expect(screen.getByLabelText('Email')).toHaveValue(TYPED_EMAIL.trim());
    const error = expectedError(history);
    if (error) expect(screen.getByRole('alert')).toHaveTextContent(error);
    else expect(screen.queryByRole('alert')).toBeNull();
  },
});
