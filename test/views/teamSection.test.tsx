/** The manage page's Team section: revoking asked once more in words that fit; a stale email refusal goes. */
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fromPromise } from 'xstate';
import { ApiError } from '../../src/api/client';
import type { TeamAccess, TeamChange } from '../../src/api/teamApi';
import type { TeamSeat, TeamView } from '../../src/contract/team';
import { EMAIL_MAX_LENGTH, NAME_MAX_LENGTH } from '../../src/domain/textLimits';
import { teamMachine } from '../../src/machines/teamMachine';
import { TeamSection } from '../../src/views/team/TeamSection';
import { stubFetch } from './support/fakeFetch';

const seat = (overrides: Partial<TeamSeat>): TeamSeat => ({
  id: '00000000-0000-4000-8000-000000000002',
  seatNumber: 2,
  status: 'invited',
  email: 'bo@example.com',
  name: 'Bo Chen',
  invitedAt: '2026-11-01T09:00:00.000Z',
  claimedAt: null,
  revokedAt: null,
  agreementSignedAt: null,
  ...overrides,
});

const teamWith = (members: TeamSeat[]): TeamView => ({
  seats: 3,
  buyer: { email: 'ada@example.com', name: 'Ada Palmer', holdsSeat: true },
  members,
  free: 3 - 1 - members.length,
  active: true,
});

const ACCESS: TeamAccess = { kind: 'session' };
const flush = () => act(async () => undefined);

function renderTeam(team: TeamView, change: (change: TeamChange) => Promise<TeamView>) {
  const changes: TeamChange[] = [];
  const machine = teamMachine.provide({
    actors: {
      loadTeam: fromPromise(async () => team),
      changeTeam: fromPromise<TeamView, { access: TeamAccess; change: TeamChange }>(({ input }) => {
        changes.push(input.change);
        return change(input.change);
      }),
    },
  });
  render(<TeamSection access={ACCESS} variant="account" machine={machine} />);
  return changes;
}

describe('revoking a seat', () => {
  it('asks about a member in words for a member: they can no longer sign in; keeping calls nothing', async () => {
    const member = seat({ status: 'claimed', claimedAt: '2026-11-02T09:00:00.000Z' });
    const changes = renderTeam(teamWith([member]), async () => teamWith([]));
    await flush();
    fireEvent.click(screen.getByRole('button', { name: 'Revoke bo@example.com' }));
    const question = screen.getByRole('alertdialog', { name: 'Revoke Bo Chen’s seat?' });
    expect(question).toHaveAccessibleDescription(
      'Bo Chen (bo@example.com) can no longer sign in to the training. The seat is free to give to someone else.',
    );
    // One change at a time: the other buttons wait for the answer.
    expect(screen.getByRole('button', { name: 'Invite' })).toBeDisabled();
    fireEvent.click(within(question).getByRole('button', { name: 'Keep it' }));
    await flush();
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(changes).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: 'Revoke bo@example.com' }));
    fireEvent.click(screen.getByRole('button', { name: 'Yes, revoke the seat' }));
    await flush();
    expect(changes).toEqual([{ kind: 'revoke', seatId: member.id }]);
    expect(screen.getByRole('status')).toHaveTextContent('Seat revoked: they can no longer sign in.');
  });

  it('asks about an invitation nobody accepted in its own words: the link stops working', async () => {
    const changes = renderTeam(teamWith([seat({})]), async () => teamWith([]));
    await flush();
    fireEvent.click(screen.getByRole('button', { name: 'Revoke bo@example.com' }));
    expect(screen.getByRole('alertdialog', { name: 'Revoke the invitation to Bo Chen?' })).toHaveAccessibleDescription(
      'The invitation link sent to bo@example.com stops working. The seat is free to give to someone else.',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Yes, revoke the invitation' }));
    await flush();
    expect(changes).toHaveLength(1);
    expect(screen.getByRole('status')).toHaveTextContent('Invitation revoked: the invitation link stops working.');
    expect(screen.queryByText(/can no longer sign in/)).toBeNull();
  });

  it("asks about the seat clicked, not the team's first: an invitation below a member is asked about as an invitation", async () => {
    const member = seat({
      id: '00000000-0000-4000-8000-000000000003',
      seatNumber: 3,
      status: 'claimed',
      email: 'cy@example.com',
      name: 'Cy Diaz',
      claimedAt: '2026-11-02T09:00:00.000Z',
    });
    const changes = renderTeam(teamWith([member, seat({})]), async () => teamWith([member]));
    await flush();
    fireEvent.click(screen.getByRole('button', { name: 'Revoke bo@example.com' }));
    fireEvent.click(
      within(screen.getByRole('alertdialog', { name: 'Revoke the invitation to Bo Chen?' })).getByRole('button', {
        name: 'Yes, revoke the invitation',
      }),
    );
    await flush();
    expect(changes).toEqual([{ kind: 'revoke', seatId: seat({}).id }]);
    expect(screen.getByRole('status')).toHaveTextContent('Invitation revoked: the invitation link stops working.');
  });
});

/** Ada invited to an empty team, the invitation answered with `failure`; the invite form, once it has answered. */
async function inviteRefusedWith(failure: ApiError) {
  renderTeam(teamWith([]), () => Promise.reject(failure));
  await flush();
  const form = within(screen.getByRole('form', { name: 'Invite a team member' }));
  fireEvent.change(form.getByLabelText('Name'), { target: { value: 'Ada' } });
  fireEvent.change(form.getByRole('textbox', { name: /^Email/ }), { target: { value: 'ada@example.com' } });
  fireEvent.submit(screen.getByRole('form', { name: 'Invite a team member' }));
  await flush();
  return form;
}

describe('a refusal about the email', () => {
  it('goes as soon as another email is typed', async () => {
    const ownEmail = new ApiError('That is your own email.', 400, { error: 'That is your own email.', field: 'email' });
    const form = await inviteRefusedWith(ownEmail);
    expect(screen.getByRole('alert')).toHaveTextContent('That is your own email.');
    expect(form.getByRole('textbox', { name: /^Email/ })).toHaveAttribute('aria-invalid', 'true');

    fireEvent.change(form.getByRole('textbox', { name: /^Email/ }), { target: { value: 'cy@example.com' } });
    expect(screen.queryByRole('alert')).toBeNull();
    expect(form.getByRole('textbox', { name: /^Email/ })).not.toHaveAttribute('aria-invalid');
  });

  it('is not what a lost connection is: that failure says so above the form, and the email stays valid', async () => {
    const offline = new ApiError('We could not reach the server. Please check your connection and try again.', 0);
    const form = await inviteRefusedWith(offline);
    expect(screen.getByRole('alert')).toHaveTextContent('We could not reach the server. Please check your connection and try again.');
    expect(form.getByRole('textbox', { name: /^Email/ })).not.toHaveAttribute('aria-invalid');
    expect(screen.getByRole('button', { name: 'Invite' })).toBeEnabled();
  });
});

describe('the invite form', () => {
  it("holds to the server's lengths and counts the characters near a limit", async () => {
    renderTeam(teamWith([]), async () => teamWith([]));
    await flush();
    const form = within(screen.getByRole('form', { name: 'Invite a team member' }));
    const name = form.getByRole('textbox', { name: /^Name/ });
    expect(name).toHaveAttribute('maxLength', String(NAME_MAX_LENGTH));
    expect(form.getByRole('textbox', { name: /^Email/ })).toHaveAttribute('maxLength', String(EMAIL_MAX_LENGTH));
    fireEvent.change(name, { target: { value: 'N'.repeat(NAME_MAX_LENGTH - 21) } });
    expect(form.queryByText(/characters$/)).toBeNull();
    fireEvent.change(name, { target: { value: 'N'.repeat(NAME_MAX_LENGTH - 20) } });
    expect(form.getByText(`${NAME_MAX_LENGTH - 20} / ${NAME_MAX_LENGTH} characters`)).toBeInTheDocument();
  });
});

/**
 * The section on the chart's own calls (src/api/teamApi.ts) against a stubbed fetch: each change is its own request
 * to server/seats/routes.ts, with the names and emails as typed but trimmed, and the page's access with every call.
 */
describe('the team through its real client', () => {
  afterEach(() => vi.unstubAllGlobals());

  it("sends each change with the success page's hand-off token, trimmed, and confirms it in words", async () => {
    const invited = seat({});
    const ok = () => ({ status: 200, body: teamWith([invited]) });
    const fetchMock = stubFetch({
      '/api/account/team': ok,
      '/api/account/team/invite': ok,
      [`/api/account/team/${invited.id}/resend`]: ok,
      [`/api/account/team/${invited.id}/revoke`]: ok,
      [`/api/account/team/${invited.id}/reassign`]: ok,
      '/api/account/team/seat-one': ok,
    });
    render(<TeamSection access={{ kind: 'token', token: 'handoff-token' }} variant="account" />);
    const status = async (text: string) => expect(await screen.findByRole('status')).toHaveTextContent(text);
    const fill = (form: HTMLElement, name: string, email: string) => {
      fireEvent.change(within(form).getByLabelText('Name'), { target: { value: name } });
      fireEvent.change(within(form).getByRole('textbox', { name: /^Email/ }), { target: { value: email } });
      fireEvent.submit(form);
    };

    fill(await screen.findByRole('form', { name: 'Invite a team member' }), '  Cy Diaz ', 'cy@example.com');
    await status('Invitation sent.');
    fireEvent.click(screen.getByRole('button', { name: 'Resend' }));
    await status('Invitation sent again.');
    fireEvent.click(screen.getByRole('button', { name: 'Reassign' }));
    fill(screen.getByRole('form', { name: 'Give seat 2 to someone else' }), ' Dee ', 'dee@example.com');
    await status('Seat given to someone else; the invitation is on its way.');
    fireEvent.click(screen.getByRole('button', { name: 'Give my seat to someone else' }));
    fill(screen.getByRole('form', { name: 'Give seat 1 to someone else' }), ' Olu Manager', 'om@example.com');
    await status('Seat 1 offered; the invitation is on its way. Your login keeps seat 1 until they accept.');
    fireEvent.click(screen.getByRole('button', { name: 'Revoke bo@example.com' }));
    fireEvent.click(screen.getByRole('button', { name: 'Yes, revoke the invitation' }));
    await status('Invitation revoked: the invitation link stops working.');

    const requests = fetchMock.mock.calls.map(([url, init]) => {
      const headers = (init?.headers ?? {}) as Record<string, string>;
      return `${init?.method ?? 'GET'} ${new URL(url, 'http://localhost').pathname} ${typeof init?.body === 'string' ? init.body : '(no body)'} ${headers.Authorization}`;
    });
    const path = `/api/account/team/${invited.id}`;
    expect(requests).toEqual([
      'GET /api/account/team (no body) Bearer handoff-token',
      'POST /api/account/team/invite {"email":"cy@example.com","name":"Cy Diaz"} Bearer handoff-token',
      `POST ${path}/resend {} Bearer handoff-token`,
      `POST ${path}/reassign {"email":"dee@example.com","name":"Dee"} Bearer handoff-token`,
      'POST /api/account/team/seat-one {"email":"om@example.com","name":"Olu Manager"} Bearer handoff-token',
      `POST ${path}/revoke {} Bearer handoff-token`,
    ]);
  });
});
