/**
 * Model-based test of the "set a new password" statechart (src/machines/newPasswordMachine.ts):
 * @xstate/graph's TestModel, its shortest and simple paths each run against the real page with the calls answered
 * by the path, asserting in every state what the member sees: the heading (which holds the focus), the rule and
 * any refusal under the field, a link that cannot be used with the form to ask for a new one, and the answers.
 */
import { act, fireEvent, render, screen } from '@testing-library/react';
import { TestModel } from '@xstate/graph';
import { describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { fromPromise, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import { ApiError } from '../../src/api/client';
import type { NewPasswordLink, NewPasswordResponse, PasswordLinkResponse } from '../../src/contract/signIn';
import { NEW_PASSWORD_HINT } from '../../src/domain/newPassword';
import { newPasswordMachine } from '../../src/machines/newPasswordMachine';
import { NewPasswordPage } from '../../src/views/newPassword/NewPasswordPage';
import { advance } from '../views/support/timers';
import { NEW_PASSWORD } from './pageRules';
import { replayExactly } from './paths';
import { PendingCalls } from './pendingCalls';
import { createTimedMachine, expectFullCoverage, ModelCoverage } from './timedModel';

vi.useFakeTimers();

const LINK: NewPasswordLink = { email: 'bo@example.com' };
const SET: NewPasswordResponse = { message: 'Your new password is set, and you were signed out everywhere.' };
const SENT: PasswordLinkResponse = { message: 'If that email has a login, a link is on its way.' };
const EXPIRED = new ApiError('This link has expired: it works for one hour. Please ask for a new one.', 410);
const USED = new ApiError('This link was already used to set a password.', 410);
const SERVER_RULE = new ApiError('Please choose a password that is not your email address.', 400);
const OFFLINE = new ApiError('We could not reach the server. Please try again.', 0);
const SERVER_DOWN = new ApiError('Something went wrong on our side. Please try again.', 500);
const WEAK = 'too short';
const STRONG = 'correct horse battery staple';

type Snapshot = ReturnType<typeof newPasswordMachine.getInitialSnapshot>;

function events(snapshot: Snapshot): AnyEventObject[] {
  const list: AnyEventObject[] = [];
  for (const id of Object.keys(snapshot.children)) {
    const done = (output?: unknown) => ({ type: `xstate.done.actor.${id}`, output, actorId: id });
    const error = (failure: unknown) => ({ type: `xstate.error.actor.${id}`, error: failure, actorId: id });
    if (id.endsWith('newPassword.checking')) list.push(done(LINK), error(EXPIRED));
    if (id.endsWith('newPassword.saving')) list.push(done(SET), error(SERVER_RULE), error(USED), error(OFFLINE), error(SERVER_DOWN));
    if (id.endsWith('newPassword.requestingLink')) list.push(done(SENT), error(OFFLINE));
  }
  if (snapshot.matches('choosing'))
    list.push({ type: 'PASSWORD_SUBMITTED', password: WEAK }, { type: 'PASSWORD_SUBMITTED', password: STRONG });
  if (snapshot.matches('unusable')) list.push({ type: 'LINK_REQUESTED', email: 'bo@example.com' });
  return list;
}

// Under the virtual clock only to count what the paths reach (timedModel.ts); the machine has no timer.
const { timedMachine, metaOf } = createTimedMachine(newPasswordMachine, Date.UTC(2026, 10, 24, 9));
const coverage = new ModelCoverage(newPasswordMachine, metaOf);
const model = new TestModel(timedMachine as never, {
  events: events as never,
  stateMatcher: (snapshot, key) => (snapshot as Snapshot).matches(key as never),
});
const WITH_TOKEN = { search: '?token=reset-token' };
const dropStart = <T extends { steps: Array<{ event: AnyEventObject }> }>(path: T) => ({
  ...path,
  steps: path.steps.filter((step) => step.event.type !== 'xstate.init'),
});
/**
 * Each answer to a strong password, by rule (NEW_PASSWORD): a failure that leaves the form as it was is a state the
 * generated paths have already seen, so they need not take it, and the rule would go unchecked.
 */
const rulePaths = [SERVER_RULE, USED, OFFLINE, SERVER_DOWN].map((failure) => {
  const { description, statePath } = replayExactly(
    model as never,
    [
      { type: 'xstate.done.actor.0.newPassword.checking', output: LINK, actorId: '0.newPassword.checking' },
      { type: 'PASSWORD_SUBMITTED', password: STRONG },
      { type: 'xstate.error.actor.0.newPassword.saving', error: failure, actorId: '0.newPassword.saving' },
    ],
    WITH_TOKEN,
  );
  return { description: `rule: ${description}`, steps: statePath.steps };
});
const paths = [
  ...[...model.getShortestPaths({ input: WITH_TOKEN }), ...model.getSimplePaths({ input: WITH_TOKEN })].map(dropStart),
  ...rulePaths,
];

const ACTORS: Record<string, 'check' | 'set' | 'request'> = {
  'newPassword.checking': 'check',
  'newPassword.saving': 'set',
  'newPassword.requestingLink': 'request',
};

function renderPage(search: string) {
  const calls = new PendingCalls(ACTORS);
  const machine = newPasswordMachine.provide({
    actors: {
      checkLink: calls.actor<NewPasswordLink, { token: string }>('check'),
      setPassword: calls.actor<NewPasswordResponse, { token: string; password: string }>('set'),
      requestLink: calls.actor<PasswordLinkResponse, { email: string }>('request'),
    },
  });
  const location = memoryLocation({ path: '/sign-in/new-password', searchPath: search.replace(/^\?/, '') });
  render(
    <Router hook={location.hook} searchHook={location.searchHook}>
      <NewPasswordPage machine={machine} />
    </Router>,
  );
  return { calls };
}

const heading = (name: string) => screen.getByRole('heading', { level: 1, name });

function expectShows(state: AnyMachineSnapshot) {
  expect(screen.queryByText('Opening your link...') !== null).toBe(state.matches('checking'));
  if (state.matches('choosing') || state.matches('saving')) {
    expect(heading('Set a new password')).toHaveFocus();
    expect(screen.getByText(LINK.email)).toBeInTheDocument();
    const field = screen.getByLabelText('New password');
    expect(field).toHaveAttribute('autocomplete', 'new-password');
    // The rule, and a refusal, under the field and tied to it.
    expect(field).toHaveAccessibleDescription(
      state.context.fieldError ? `${NEW_PASSWORD_HINT} ${String(state.context.fieldError)}` : NEW_PASSWORD_HINT,
    );
    if (state.context.fieldError) expect(field).toHaveAttribute('aria-invalid', 'true');
    else expect(field).not.toHaveAttribute('aria-invalid');
    const alerts = screen.queryAllByRole('alert').map((alert) => alert.textContent);
    expect(alerts).toEqual([state.context.fieldError, state.context.error].filter((text) => text !== null));
    expect(screen.getByRole('button', { name: /Set my new password|Setting your password\.\.\./ })).toHaveProperty(
      'disabled',
      state.matches('saving'),
    );
  }
  if (state.matches('unusable') || state.matches('requestingLink')) {
    expect(heading('This link cannot be used')).toHaveFocus();
    expect(screen.getAllByRole('alert')[0]).toHaveTextContent(String(state.context.problem));
    expect(screen.getByLabelText('Email')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Email me a new link' })).toHaveProperty('disabled', state.matches('requestingLink'));
  }
  if (state.matches('passwordSet')) {
    expect(heading('Your new password is set')).toHaveFocus();
    expect(screen.getByRole('status')).toHaveTextContent(SET.message);
    expect(screen.queryByLabelText('New password')).toBeNull();
  }
  if (state.matches('linkSent')) {
    expect(heading('Check your mail')).toHaveFocus();
    expect(screen.getByRole('status')).toHaveTextContent(SENT.message);
  }
}

/**
 * What the page must show after `event`, by the page's rules (pageRules.ts), not by the chart: a saving call's
 * refusal or failure where NEW_PASSWORD puts it, and no refusal left once a strong password is sent.
 */
function expectRuleHolds(event: AnyEventObject) {
  if (event.type === 'PASSWORD_SUBMITTED' && event.password === STRONG) {
    expect(screen.queryAllByRole('alert')).toEqual([]);
    return;
  }
  if (!/^xstate\.error\.actor\..*newPassword\.saving$/.test(event.type)) return;
  const failure = event.error as ApiError;
  if (NEW_PASSWORD.linkRefused(failure.status)) {
    expect(heading(NEW_PASSWORD.unusableHeading)).toHaveFocus();
    expect(screen.getAllByRole('alert')[0]).toHaveTextContent(failure.message);
    return;
  }
  expect(heading(NEW_PASSWORD.formHeading)).toBeInTheDocument();
  const field = screen.getByLabelText('New password');
  if (NEW_PASSWORD.passwordRefused(failure.status)) {
    expect(field).toHaveAccessibleDescription(`${NEW_PASSWORD_HINT} ${failure.message}`);
  } else {
    expect(field).not.toHaveAttribute('aria-invalid');
    expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toEqual([failure.message]);
  }
}

async function execute(page: ReturnType<typeof renderPage>, event: AnyEventObject) {
  if (page.calls.answer(event)) {
    // answered
  } else if (event.type === 'PASSWORD_SUBMITTED') {
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: String(event.password) } });
    fireEvent.click(screen.getByRole('button', { name: 'Set my new password' }));
  } else if (event.type === 'LINK_REQUESTED') {
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: String(event.email) } });
    fireEvent.click(screen.getByRole('button', { name: 'Email me a new link' }));
  } else throw new Error(`The model test cannot make ${event.type} happen`);
  await advance(0);
}

describe(`new password statechart: ${paths.length} shortest and simple paths`, () => {
  it.each(paths.map((path) => [path.description, path] as const))('%s', async (_description, path) => {
    const page = renderPage(WITH_TOKEN.search);
    await advance(0);
    expect(screen.getByText('Opening your link...')).toBeInTheDocument();
    coverage.record(model.testLogic.getInitialSnapshot(null as never, WITH_TOKEN) as AnyMachineSnapshot);
    for (const step of path.steps) {
      await execute(page, step.event);
      expectRuleHolds(step.event);
      expectShows(step.state as AnyMachineSnapshot);
      coverage.record(step.state as AnyMachineSnapshot);
    }
  });

  it('refuses a weak password on the page without calling the server, then sends a strong one with the link’s token', async () => {
    const inputs: Array<{ token: string; password: string }> = [];
    const machine = newPasswordMachine.provide({
      actors: {
        checkLink: fromPromise(async () => LINK),
        setPassword: fromPromise(async ({ input }: { input: { token: string; password: string } }) => {
          inputs.push(input);
          return SET;
        }),
      },
    });
    const location = memoryLocation({ path: '/sign-in/new-password', searchPath: 'token=reset-token' });
    render(
      <Router hook={location.hook} searchHook={location.searchHook}>
        <NewPasswordPage machine={machine} />
      </Router>,
    );
    await act(() => advance(0));
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'bo@example.com and more' } });
    fireEvent.click(screen.getByRole('button', { name: 'Set my new password' }));
    expect(screen.getByRole('alert')).toHaveTextContent('not your email address');
    expect(inputs).toEqual([]);
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: STRONG } });
    fireEvent.click(screen.getByRole('button', { name: 'Set my new password' }));
    await act(() => advance(0));
    expect(inputs).toEqual([{ token: 'reset-token', password: STRONG }]);
    expect(heading('Your new password is set')).toHaveFocus();
  });

  it('a page opened without a token says where the link is, calls nothing, and offers a new link', async () => {
    const page = renderPage('');
    await advance(0);
    expect(heading('This link cannot be used')).toHaveFocus();
    expect(screen.getByRole('alert')).toHaveTextContent(/link in your “set a new password” mail/);
    expect(() => page.calls.answer({ type: 'xstate.done.actor.0.newPassword.checking' })).toThrow(/No call in flight/);
  });

  it('reached every state and took every transition in the page', () =>
    expectFullCoverage(coverage, 'newPassword', { passedThrough: ['newPassword.start'] }));
});
