/**
 * The sign-in page's statechart (src/machines/signInMachine.ts): a refusal shown under the form and the email
 * kept, a right password sending the browser on, and "Forgot your password?" asking for a link (a member's to set a
 * new password, the buyer's to /account: the server decides).
 */
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { ApiError } from '../../src/api/client';
import { signInMachine, type SignInEmitted } from '../../src/machines/signInMachine';

function start(
  signIn: (input: { email: string; password: string }) => Promise<{ redirectTo: string }>,
  { interaction = 'uid-1', live = true }: { interaction?: string | null; live?: boolean } = {},
) {
  const checked: (string | null)[] = [];
  const linkRequests: string[] = [];
  const emitted: SignInEmitted[] = [];
  const actor = createActor(
    signInMachine.provide({
      actors: {
        // None named: the page's own actor answers, without a call.
        ...(interaction === null
          ? {}
          : {
              checkInteraction: fromPromise(async ({ input }: { input: { interaction: string | null } }) => {
                checked.push(input.interaction);
                return { live };
              }),
            }),
        signIn: fromPromise(({ input }: { input: { email: string; password: string } }) => signIn(input)),
        requestLink: fromPromise(async ({ input }: { input: { email: string } }) => {
          linkRequests.push(input.email);
          return { message: 'If that email has a login, a link is on its way: team members get one to set a new password.' };
        }),
      },
    }),
    { input: { interaction } },
  );
  actor.on('*', (event) => emitted.push(event));
  actor.start();
  return { actor, emitted, linkRequests, checked };
}

describe('the sign-in statechart', () => {
  it('shows a refusal under the form and keeps the email, then sends the browser on after the right password', async () => {
    const { actor, emitted } = start(async ({ password }) => {
      if (password !== 'right') throw new ApiError('The email or password is not right.', 401);
      return { redirectTo: '/oidc/auth/abc' };
    });
    await waitFor(actor, (snapshot) => snapshot.matches('editing'));
    actor.send({ type: 'SIGN_IN_SUBMITTED', email: ' ada@example.com ', password: 'wrong' });
    expect(actor.getSnapshot().value).toBe('signingIn');
    await waitFor(actor, (snapshot) => snapshot.matches('editing'));
    expect(actor.getSnapshot().context).toMatchObject({ email: 'ada@example.com', error: 'The email or password is not right.' });
    expect(emitted).toEqual([]);

    actor.send({ type: 'SIGN_IN_SUBMITTED', email: 'ada@example.com', password: 'right' });
    await waitFor(actor, (snapshot) => snapshot.status === 'done');
    expect(emitted).toEqual([{ type: 'redirectRequested', url: '/oidc/auth/abc' }]);
  });

  it('asks for a link for the email entered, and goes back to the form', async () => {
    const { actor, linkRequests } = start(async () => ({ redirectTo: '/' }));
    await waitFor(actor, (snapshot) => snapshot.matches('editing'));
    actor.send({ type: 'FORGOT_PASSWORD' });
    actor.send({ type: 'LINK_REQUESTED', email: 'ada@example.com' });
    await waitFor(actor, (snapshot) => snapshot.matches('linkSent'));
    expect(linkRequests).toEqual(['ada@example.com']);
    expect(actor.getSnapshot().context.linkMessage).toMatch(/set a new password/);
    actor.send({ type: 'BACK_TO_SIGN_IN' });
    expect(actor.getSnapshot().value).toBe('editing');
  });

  it('opened with no sign-in named, says so at once, without asking the server; back from a link request it says it again', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    onTestFinished(() => void vi.unstubAllGlobals());
    const { actor } = start(async () => ({ redirectTo: '/' }), { interaction: null });
    await waitFor(actor, (snapshot) => snapshot.matches('nothingToFinish'));
    expect(fetchMock).not.toHaveBeenCalled();
    actor.send({ type: 'FORGOT_PASSWORD' });
    actor.send({ type: 'BACK_TO_SIGN_IN' });
    expect(actor.getSnapshot().value).toBe('nothingToFinish');
  });

  it('a sign-in this browser no longer holds: said when the page loads, and when the server answers 410 on submitting', async () => {
    const gone = start(async () => ({ redirectTo: '/' }), { live: false });
    await waitFor(gone.actor, (snapshot) => snapshot.matches('nothingToFinish'));
    expect(gone.checked).toEqual(['uid-1']);
    const expired = start(async () => {
      throw new ApiError('This sign-in has expired.', 410);
    });
    await waitFor(expired.actor, (snapshot) => snapshot.matches('editing'));
    expired.actor.send({ type: 'SIGN_IN_SUBMITTED', email: 'ada@example.com', password: 'right' });
    await waitFor(expired.actor, (snapshot) => snapshot.matches('nothingToFinish'));
    expect(expired.actor.getSnapshot().context).toMatchObject({ interaction: null, error: null });
  });
});
