/**
 * Model-based tests of the team's statecharts: @xstate/graph's TestModel over the /join statechart and
 * the team statechart, their shortest (and, for /join, simple) paths each run against the real view with the calls
 * answered by the path, asserting what the invitee or the buyer sees in every state.
 */
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { TestModel } from '@xstate/graph';
import toast from 'react-hot-toast';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import type { AnyEventObject, AnyMachineSnapshot } from 'xstate';
import { ApiError } from '../../src/api/client';
import type { TeamAccess, TeamChange } from '../../src/api/teamApi';
import type { JoinClaimed, JoinInvitation, TeamView } from '../../src/contract/team';
import type { JoinAnswer } from '../../src/domain/joinPage';
import { joinMachine, type JoinCredential } from '../../src/machines/joinMachine';
import { teamMachine } from '../../src/machines/teamMachine';
import { TOASTS } from '../../src/machines/toasts';
import { JoinPage } from '../../src/views/join/JoinPage';
import { TeamSection } from '../../src/views/team/TeamSection';
import { AppToaster } from '../../src/views/toasts/AppToaster';
import { advance } from '../views/support/timers';
import { replayExactly } from './paths';
import { JOIN } from './pageRules';
import { PendingCalls } from './pendingCalls';
import { createTimedMachine, expectFullCoverage, ModelCoverage } from './timedModel';

vi.useFakeTimers();
afterEach(() => act(() => toast.remove()));

const dropStart = <T extends { steps: Array<{ event: AnyEventObject }> }>(path: T) => ({
  ...path,
  steps: path.steps.filter((step) => step.event.type !== 'xstate.init'),
});

// ---------------------------------------------------------------- /join

const INVITATION: JoinInvitation = {
  email: 'bo@example.com',
  name: 'Bo Chen',
  invitedBy: 'Ada Palmer',
  practiceName: 'Ada Palmer’s practice',
  productName: 'AI Training Subscription (Monthly)',
  expiresAt: '2026-01-12T09:00:00.000Z',
};
const LOGIN: JoinClaimed = {
  email: 'bo@example.com',
  name: 'Bo Chen',
  password: 'Member-Password-0123',
  seatNumber: 2,
  agreementUrl: 'http://localhost:5174/?token=member-token',
};
const ALREADY_CLAIMED = new ApiError('This seat was already claimed. Sign in with the login shown when it was accepted.', 409);
const EXPIRED = new ApiError('This invitation link has expired. Ask the person who invited you for a new one.', 410);
const OFFLINE = new ApiError('We could not reach the server. Please try again.', 0);

type JoinSnapshot = ReturnType<typeof joinMachine.getInitialSnapshot>;

function joinEvents(snapshot: JoinSnapshot): AnyEventObject[] {
  const events: AnyEventObject[] = [];
  for (const id of Object.keys(snapshot.children)) {
    const done = (output?: unknown) => ({ type: `xstate.done.actor.${id}`, output, actorId: id });
    const error = (failure: unknown) => ({ type: `xstate.error.actor.${id}`, error: failure, actorId: id });
    if (id.endsWith('join.reading')) events.push(done(INVITATION), error(EXPIRED));
    if (id.endsWith('join.accepting')) events.push(done(LOGIN), error(ALREADY_CLAIMED), error(OFFLINE));
    if (id.endsWith('join.claimed.copying')) events.push(done(), error(new Error('denied')));
  }
  if (snapshot.matches('invited')) events.push({ type: 'ACCEPT_CLICKED' });
  if (snapshot.matches({ claimed: 'viewing' }))
    events.push({ type: 'COPY_CLICKED', field: 'email' }, { type: 'COPY_CLICKED', field: 'password' }, { type: 'SIGN_AGREEMENT_CLICKED' });
  return events;
}

// Under the virtual clock only to count what the paths reach (timedModel.ts).
const joinTimed = createTimedMachine(joinMachine, Date.UTC(2026, 10, 24, 9));
const joinCoverage = new ModelCoverage(joinMachine, joinTimed.metaOf);
const joinModel = new TestModel(joinTimed.timedMachine as never, {
  events: joinEvents as never,
  stateMatcher: (snapshot, key) => (snapshot as JoinSnapshot).matches(key as never),
});
const WITH_TOKEN = { search: '?token=invite-token' };
const joinActor = (id: string) => `0.join.${id}`;
const joinAnswer = (kind: 'done' | 'error', id: string, answer: unknown) =>
  kind === 'done'
    ? { type: `xstate.done.actor.${joinActor(id)}`, output: answer, actorId: joinActor(id) }
    : { type: `xstate.error.actor.${joinActor(id)}`, error: answer, actorId: joinActor(id) };
/**
 * Paths the rules need that the generated ones may leave out, since their end is a state already seen: each answer
 * to a claim (JOIN.linkRefused's edges, 400 and 500 among them), and a copy of the email after one of the password
 * (the chart starts with the email as the copied field).
 */
const joinRulePaths = [
  ...[
    new ApiError('This invitation link is not valid.', 400),
    ALREADY_CLAIMED,
    new ApiError('Something went wrong on our side.', 500),
    OFFLINE,
  ].map((failure) => [joinAnswer('done', 'reading', INVITATION), { type: 'ACCEPT_CLICKED' }, joinAnswer('error', 'accepting', failure)]),
  [
    joinAnswer('done', 'reading', INVITATION),
    { type: 'ACCEPT_CLICKED' },
    joinAnswer('done', 'accepting', LOGIN),
    { type: 'COPY_CLICKED', field: 'password' },
    joinAnswer('done', 'claimed.copying', undefined),
    { type: 'COPY_CLICKED', field: 'email' },
    joinAnswer('done', 'claimed.copying', undefined),
  ],
].map((events) => {
  const { description, statePath } = replayExactly(joinModel as never, events, WITH_TOKEN);
  return { description: `rule: ${description}`, steps: statePath.steps };
});
const joinPaths = [
  ...[...joinModel.getShortestPaths({ input: WITH_TOKEN }), ...joinModel.getSimplePaths({ input: WITH_TOKEN })].map(dropStart),
  ...joinRulePaths,
];

const JOIN_ACTORS: Record<string, 'read' | 'claim' | 'copy'> = {
  'join.reading': 'read',
  'join.accepting': 'claim',
  'join.claimed.copying': 'copy',
};

function renderJoin(search: string, answer: JoinAnswer | null = null) {
  const calls = new PendingCalls(JOIN_ACTORS);
  const machine = joinMachine.provide({
    actors: {
      readInvitation: calls.actor<JoinInvitation, { token: string }>('read'),
      claimSeat: calls.actor<JoinClaimed, { token: string }>('claim'),
      copyToClipboard: calls.actor<void, { text: string }>('copy'),
    },
  });
  const redirect = vi.fn();
  const location = memoryLocation({ path: '/join', searchPath: search.replace(/^\?/, '') });
  render(
    <Router hook={location.hook} searchHook={location.searchHook}>
      <JoinPage machine={machine} redirect={redirect} answer={answer} />
      <AppToaster />
    </Router>,
  );
  /** The credential of the last copy button clicked. */
  const copyClicked = null as JoinCredential | null;
  return { calls, redirect, copyClicked };
}

/** What the page must show after `event`, by the page's rules (JOIN), not by the chart. */
function expectJoinRuleHolds(page: ReturnType<typeof renderJoin>, event: AnyEventObject) {
  if (event.type.startsWith('xstate.done.actor.') && event.type.endsWith('claimed.copying')) {
    // Toasts stack newest first and stay a while: the one just shown is among them.
    expect(screen.getAllByText(JOIN.copied[page.copyClicked!]).length).toBeGreaterThan(0);
  }
  if (!/^xstate\.error\.actor\..*join\.accepting$/.test(event.type)) return;
  const failure = event.error as ApiError;
  const heading = JOIN.linkRefused(failure.status) ? JOIN.unusableHeading : JOIN.invitedHeading(INVITATION.practiceName);
  expect(screen.getByRole('heading', { level: 1, name: heading })).toBeInTheDocument();
  expect(screen.getByRole('alert')).toHaveTextContent(failure.message);
}

function expectJoinShows(page: ReturnType<typeof renderJoin>, state: AnyMachineSnapshot, event: AnyEventObject | undefined) {
  expect(screen.queryByText('Opening your invitation...') !== null).toBe(state.matches('reading'));
  if (state.matches('invited') || state.matches('accepting')) {
    expect(screen.getByRole('heading', { name: `Join ${INVITATION.practiceName}` })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Accept my seat|Accepting\.\.\./ })).toHaveProperty('disabled', state.matches('accepting'));
    expect(screen.queryByRole('alert')?.textContent ?? null).toBe(state.context.error);
  }
  if (state.matches('unusable')) {
    expect(screen.getByRole('heading', { name: 'This invitation cannot be used' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(String(state.context.problem));
  }
  if (state.matches('claimed') || state.matches('redirected')) {
    expect(screen.getByText(LOGIN.password)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy password' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign Training Agreement →' })).toBeInTheDocument();
  }
  // The copy takes the credential of the button clicked (not the chart's own record of it), and says which.
  if (event?.type.startsWith('xstate.done.actor.') && event.type.endsWith('claimed.copying')) {
    expect(page.calls.inputsOf('copy').at(-1)).toEqual({ text: LOGIN[page.copyClicked!] });
    expect(screen.getAllByText(TOASTS.copied(page.copyClicked === 'email' ? 'Email' : 'Password').description).length).toBeGreaterThan(0);
  }
  if (event?.type.startsWith('xstate.error.actor.') && event.type.endsWith('claimed.copying'))
    expect(screen.getAllByText(TOASTS.copyFailed.description).length).toBeGreaterThan(0);
  if (state.matches('redirected')) expect(page.redirect).toHaveBeenCalledWith(LOGIN.agreementUrl);
  else expect(page.redirect).not.toHaveBeenCalled();
}

async function executeJoin(page: ReturnType<typeof renderJoin>, event: AnyEventObject) {
  if (page.calls.answer(event)) {
    // answered
  } else if (event.type === 'ACCEPT_CLICKED') fireEvent.click(screen.getByRole('button', { name: 'Accept my seat' }));
  else if (event.type === 'COPY_CLICKED') {
    page.copyClicked = event.field as JoinCredential;
    fireEvent.click(screen.getByRole('button', { name: `Copy ${page.copyClicked}` }));
  } else if (event.type === 'SIGN_AGREEMENT_CLICKED') fireEvent.click(screen.getByRole('button', { name: 'Sign Training Agreement →' }));
  else throw new Error(`The model test cannot make ${event.type} happen`);
  await advance(0);
}

describe(`join statechart: ${joinPaths.length} shortest and simple paths`, () => {
  it.each(joinPaths.map((path) => [path.description, path] as const))('%s', async (_description, path) => {
    const page = renderJoin(WITH_TOKEN.search);
    await advance(0);
    // The first state: the invitation is being read (the page's prerendered words).
    expect(screen.getByText('Opening your invitation...')).toBeInTheDocument();
    joinCoverage.record(joinModel.testLogic.getInitialSnapshot(null as never, WITH_TOKEN) as AnyMachineSnapshot);
    for (const step of path.steps) {
      await executeJoin(page, step.event);
      expectJoinRuleHolds(page, step.event);
      expectJoinShows(page, step.state as AnyMachineSnapshot, step.event);
      joinCoverage.record(step.state as AnyMachineSnapshot);
    }
  });

  it('a page the server wrote why the link cannot be used into says so, and calls nothing', async () => {
    const page = renderJoin(WITH_TOKEN.search, { problem: EXPIRED.message });
    await advance(0);
    expect(screen.getByRole('heading', { name: 'This invitation cannot be used' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(EXPIRED.message);
    expect(() => page.calls.answer({ type: 'xstate.done.actor.0.join.reading' })).toThrow(/No call in flight/);
  });

  it('a page opened without a token says where the link is, and calls nothing', async () => {
    const page = renderJoin('');
    await advance(0);
    expect(screen.getByRole('alert')).toHaveTextContent(/link in your invitation mail/);
    expect(() => page.calls.answer({ type: 'xstate.done.actor.0.join.reading' })).toThrow(/No call in flight/);
  });
});

// The page as the server fills it in (src/domain/joinPage.ts): the statechart starts at the invitation.
const ANSWERED = { ...WITH_TOKEN, answer: { invitation: INVITATION } };
const answeredPaths = joinModel.getShortestPaths({ input: ANSWERED }).map(dropStart);

describe(`join statechart, started at the invitation the server wrote into the page: ${answeredPaths.length} shortest paths`, () => {
  it.each(answeredPaths.map((path) => [path.description, path] as const))('%s', async (_description, path) => {
    const page = renderJoin(ANSWERED.search, ANSWERED.answer);
    await advance(0);
    // The first state is the invitation itself: nothing was read, nothing is loading.
    expect(screen.getByRole('heading', { name: `Join ${INVITATION.practiceName}` })).toBeInTheDocument();
    expect(screen.queryByText('Opening your invitation...')).toBeNull();
    expect(path.steps.some((step) => step.event.type.endsWith('join.reading'))).toBe(false);
    joinCoverage.record(joinModel.testLogic.getInitialSnapshot(null as never, ANSWERED) as AnyMachineSnapshot);
    for (const step of path.steps) {
      await executeJoin(page, step.event);
      expectJoinShows(page, step.state as AnyMachineSnapshot, step.event);
      joinCoverage.record(step.state as AnyMachineSnapshot);
    }
  });

  it('reached every state and took every transition of the join statechart in the page', () =>
    expectFullCoverage(joinCoverage, 'join', { passedThrough: ['join.start'] }));
});

// ---------------------------------------------------------------- the team

const TEAM: TeamView = {
  seats: 3,
  buyer: { email: 'ada@example.com', name: 'Ada Palmer', holdsSeat: true },
  members: [
    {
      id: '00000000-0000-4000-8000-000000000002',
      seatNumber: 2,
      status: 'invited',
      email: 'bo@example.com',
      name: 'Bo Chen',
      invitedAt: '2026-01-05T09:00:00.000Z',
      claimedAt: null,
      revokedAt: null,
      agreementSignedAt: null,
    },
  ],
  free: 1,
  active: true,
};
const FIELD_REFUSAL = new ApiError('This email already has a seat on your team.', 409, {
  error: 'This email already has a seat on your team.',
  field: 'email',
});
const REFUSED = new ApiError('No such seat on your team.', 404, { error: 'No such seat on your team.' });

type TeamSnapshot = ReturnType<typeof teamMachine.getInitialSnapshot>;
const SEAT_ID = TEAM.members[0]!.id;

function teamEvents(snapshot: TeamSnapshot): AnyEventObject[] {
  const events: AnyEventObject[] = [];
  for (const id of Object.keys(snapshot.children)) {
    const done = (output?: unknown) => ({ type: `xstate.done.actor.${id}`, output, actorId: id });
    const error = (failure: unknown) => ({ type: `xstate.error.actor.${id}`, error: failure, actorId: id });
    if (id.endsWith('team.loading')) events.push(done(TEAM), error(OFFLINE));
    if (id.endsWith('team.changing')) events.push(done(TEAM), error(FIELD_REFUSAL), error(REFUSED));
  }
  if (snapshot.matches('ready'))
    events.push(
      { type: 'INVITE_SUBMITTED', email: 'cy@example.com', name: 'Cy Diaz' },
      { type: 'RESEND_CLICKED', seatId: SEAT_ID },
      { type: 'REVOKE_CLICKED', seatId: SEAT_ID },
      { type: 'REASSIGN_SUBMITTED', seatId: SEAT_ID, email: 'dee@example.com', name: 'Dee' },
      { type: 'GIVE_SEAT_ONE_SUBMITTED', email: 'om@example.com', name: 'Olu Manager' },
    );
  if (snapshot.matches('confirmingRevoke')) events.push({ type: 'REVOKE_CONFIRMED' }, { type: 'REVOKE_ABANDONED' });
  // A refusal under the email field goes as soon as another email is typed.
  if (snapshot.matches('ready') && snapshot.context.fieldError) events.push({ type: 'EMAIL_TYPED' });
  if (snapshot.matches('unavailable')) events.push({ type: 'RETRY' });
  return events;
}

const teamTimed = createTimedMachine(teamMachine, Date.UTC(2026, 10, 24, 9));
const teamCoverage = new ModelCoverage(teamMachine, teamTimed.metaOf);
const teamModel = new TestModel(teamTimed.timedMachine as never, {
  events: teamEvents as never,
  stateMatcher: (snapshot, key) => (snapshot as TeamSnapshot).matches(key as never),
});
// A state is its value and what the buyer reads (the change's kind, the refusal, the notice).
const serializeTeam = (snapshot: unknown) => {
  const { value, context } = snapshot as TeamSnapshot;
  return JSON.stringify([
    value,
    context.change?.kind ?? null,
    context.fieldError,
    context.error,
    context.notice,
    context.team !== null,
    context.revoking,
  ]);
};
const ACCESS: TeamAccess = { kind: 'token', token: 'handoff-token' };
const shortestTeamPaths = teamModel.getShortestPaths({ input: { access: ACCESS }, serializeState: serializeTeam }).map(dropStart);
// 'Try again' leads back to a state a shortest path already reaches, so no shortest path takes it: one more path does.
const toUnavailable = shortestTeamPaths.find((path) => (path.state as TeamSnapshot).matches('unavailable'))!;
const retried = replayExactly(teamModel as never, [...toUnavailable.steps.map((step) => step.event), { type: 'RETRY' }], {
  access: ACCESS,
});
// Typing another email after a refusal, and keeping a seat after the revoke question, lead back to states that
// other paths reach first (the same words on the page), so no shortest path takes them for sure: one more path does.
const loaded = shortestTeamPaths.find((path) => (path.state as TeamSnapshot).matches('ready'))!.steps[0]!.event;
const retyped = replayExactly(
  teamModel as never,
  [
    loaded,
    { type: 'INVITE_SUBMITTED', email: 'cy@example.com', name: 'Cy Diaz' },
    { type: 'xstate.error.actor.0.team.changing', error: FIELD_REFUSAL, actorId: '0.team.changing' },
    { type: 'EMAIL_TYPED' },
  ],
  { access: ACCESS },
);
const teamPaths = [
  ...shortestTeamPaths,
  { description: retried.description, steps: retried.statePath.steps },
  { description: retyped.description, steps: retyped.statePath.steps },
];

function renderTeam() {
  const calls = new PendingCalls<'load' | 'change'>({ 'team.loading': 'load', 'team.changing': 'change' });
  const machine = teamMachine.provide({
    actors: {
      loadTeam: calls.actor<TeamView, { access: TeamAccess }>('load'),
      changeTeam: calls.actor<TeamView, { access: TeamAccess; change: TeamChange }>('change'),
    },
  });
  render(<TeamSection access={ACCESS} variant="account" machine={machine} />);
  return { calls };
}

function submitPerson(form: HTMLElement, email: string, name: string) {
  fireEvent.change(within(form).getByLabelText('Name'), { target: { value: name } });
  fireEvent.change(within(form).getByLabelText('Email'), { target: { value: email } });
  fireEvent.submit(form);
}

async function executeTeam(page: ReturnType<typeof renderTeam>, event: AnyEventObject) {
  if (page.calls.answer(event)) {
    // answered
  } else if (event.type === 'INVITE_SUBMITTED')
    submitPerson(screen.getByRole('form', { name: 'Invite a team member' }), event.email, event.name);
  else if (event.type === 'RESEND_CLICKED') fireEvent.click(screen.getByRole('button', { name: 'Resend' }));
  else if (event.type === 'REVOKE_CLICKED') fireEvent.click(screen.getByRole('button', { name: 'Revoke bo@example.com' }));
  else if (event.type === 'REVOKE_CONFIRMED') fireEvent.click(screen.getByRole('button', { name: 'Yes, revoke the invitation' }));
  else if (event.type === 'REVOKE_ABANDONED') fireEvent.click(screen.getByRole('button', { name: 'Keep it' }));
  else if (event.type === 'EMAIL_TYPED') {
    const form = within(screen.getByRole('alert').closest('form')!);
    fireEvent.change(form.getByRole('textbox', { name: /^Email/ }), { target: { value: 'someone.else@example.com' } });
  } else if (event.type === 'REASSIGN_SUBMITTED') {
    fireEvent.click(screen.getByRole('button', { name: 'Reassign' }));
    submitPerson(screen.getByRole('form', { name: 'Give seat 2 to someone else' }), event.email, event.name);
  } else if (event.type === 'GIVE_SEAT_ONE_SUBMITTED') {
    // The form opens from its button and stays open after a refusal.
    if (!screen.queryByRole('form', { name: 'Give seat 1 to someone else' }))
      fireEvent.click(screen.getByRole('button', { name: 'Give my seat to someone else' }));
    submitPerson(screen.getByRole('form', { name: 'Give seat 1 to someone else' }), event.email, event.name);
  } else if (event.type === 'RETRY') fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
  else throw new Error(`The model test cannot make ${event.type} happen`);
  await advance(0);
}

function expectTeamShows(state: AnyMachineSnapshot) {
  const context = state.context as TeamSnapshot['context'];
  if (state.matches('unavailable')) {
    expect(screen.getByRole('alert')).toHaveTextContent(String(context.error));
    return;
  }
  if (!context.team) {
    expect(screen.queryByRole('table')).toBeNull();
    return;
  }
  expect(screen.getByText(/You have 1 more seat: invite your team\./)).toBeInTheDocument();
  expect(screen.getByRole('table', { name: 'Team seats' })).toHaveTextContent('Invited, not yet accepted');
  // One change at a time: while a change runs or a revoke is asked about, the other buttons wait.
  const busy = state.matches('changing') || state.matches('confirmingRevoke');
  expect(screen.getByRole('button', { name: 'Invite' })).toHaveProperty('disabled', busy);
  // The invitation nobody accepted is asked about in its own words.
  const revokeDialog = screen.queryByRole('alertdialog', { name: 'Revoke the invitation to Bo Chen?' });
  expect(revokeDialog !== null, 'the revoke confirm step').toBe(state.matches('confirmingRevoke'));
  if (revokeDialog)
    expect(revokeDialog).toHaveAccessibleDescription(
      'The invitation link sent to bo@example.com stops working. The seat is free to give to someone else.',
    );
  expect(screen.getByText(/Seat 1 is yours/)).toBeInTheDocument();
  const giveSeatOne = screen.queryByRole('form', { name: 'Give seat 1 to someone else' });
  if (giveSeatOne) expect(within(giveSeatOne).getByRole('button', { name: 'Give seat 1' })).toHaveProperty('disabled', busy);
  if (context.fieldError)
    expect(
      screen.getByRole('form', { name: context.change?.kind === 'giveSeatOne' ? 'Give seat 1 to someone else' : 'Invite a team member' }),
    ).toHaveTextContent(context.fieldError);
  if (context.fieldError) expect(screen.getByRole('alert')).toHaveTextContent(context.fieldError);
  if (context.error) expect(screen.getByRole('alert')).toHaveTextContent(context.error);
  if (!context.fieldError && !context.error) expect(screen.queryByRole('alert')).toBeNull();
  if (context.notice) expect(screen.getByRole('status')).toHaveTextContent(context.notice);
}

describe(`team statechart: ${teamPaths.length} shortest paths`, () => {
  it.each(teamPaths.map((path) => [path.description, path] as const))('%s', async (_description, path) => {
    const page = renderTeam();
    await advance(0);
    const initial = teamModel.testLogic.getInitialSnapshot(null as never, { access: ACCESS }) as AnyMachineSnapshot;
    expectTeamShows(initial);
    teamCoverage.record(initial);
    for (const step of path.steps) {
      await executeTeam(page, step.event);
      expectTeamShows(step.state as AnyMachineSnapshot);
      teamCoverage.record(step.state as AnyMachineSnapshot);
    }
  });

  it('reached every state and took every transition in the team section', () => expectFullCoverage(teamCoverage, 'team'));
});
